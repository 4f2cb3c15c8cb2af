package packs

import (
	"os"
	"os/exec"
	"testing"
)

// TestKidcheckPython runs python/kidcheck.py's own unit tests. They run
// trusted test code only, so they need no sandbox.
func TestKidcheckPython(t *testing.T) {
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		if py, err = exec.LookPath("python3"); err != nil {
			t.Skip("no python3")
		}
	}
	out, err := exec.Command(py, "-I", "-B", "testdata/kidcheck_test.py").CombinedOutput()
	if err != nil {
		t.Fatalf("kidcheck tests failed: %v\n%s", err, out)
	}
}
