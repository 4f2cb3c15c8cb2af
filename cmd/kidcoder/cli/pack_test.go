package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kidcoder/backend/kidrun/kidruntest"
)

// roomyTimeout is --timeout for a run whose output a test checks: a bound
// no test here checks, far above what a busy machine takes for the
// program's real work (kidruntest.Roomy).
var roomyTimeout = fmt.Sprint(kidruntest.Roomy.Seconds())

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestPackNewBuildImport(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "pack")
	if code, _, stderr := runCLI(t, "pack", "new", dir); code != 0 {
		t.Fatalf("pack new: %d %s", code, stderr)
	}
	if code, _, _ := runCLI(t, "pack", "new", dir); code != 1 {
		t.Errorf("pack new over an existing pack exited %d, want 1", code)
	}
	a, b := filepath.Join(tmp, "a.kidpack"), filepath.Join(tmp, "b.kidpack")
	for _, f := range []string{a, b} {
		if code, stdout, stderr := runCLI(t, "pack", "build", dir, "-o", f); code != 0 || !strings.Contains(stdout, "sha256") {
			t.Fatalf("pack build: %d %s %s", code, stdout, stderr)
		}
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ab) == 0 || !bytes.Equal(ab, bb) {
		t.Fatal("two builds differ")
	}

	lessonsDir := filepath.Join(tmp, "lessons")
	code, stdout, stderr := runCLI(t, "pack", "import", "--dry-run", "--lessons", lessonsDir, "--lang", "en", a)
	if code != 0 || !strings.Contains(stdout, "Would import") {
		t.Fatalf("dry run: %d %s %s", code, stdout, stderr)
	}
	if _, err := os.Stat(lessonsDir); err == nil {
		if entries, _ := os.ReadDir(lessonsDir); len(entries) > 0 {
			t.Fatal("a dry run wrote files")
		}
	}
	code, stdout, stderr = runCLI(t, "pack", "import", a, "--lessons", lessonsDir, "--lang", "en")
	if code != 0 {
		t.Fatalf("import: %d %s %s", code, stdout, stderr)
	}
	lesson := filepath.Join(lessonsDir, "My first exercise pack", "01-square.py")
	if err := os.WriteFile(lesson, []byte("print('mine')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runCLI(t, "pack", "import", "--lessons", lessonsDir, "--lang", "en", a)
	if code != 0 || !strings.Contains(stdout, "keep  My first exercise pack/01-square.py") {
		t.Fatalf("re-import: %d %s", code, stdout)
	}
	if got, _ := os.ReadFile(lesson); string(got) != "print('mine')\n" {
		t.Fatalf("re-import overwrote the child's code: %q", got)
	}
}

func TestPackErrorsNameFileAndField(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pack")
	if code, _, _ := runCLI(t, "pack", "new", dir); code != 0 {
		t.Fatal("pack new failed")
	}
	mf := filepath.Join(dir, "pack.json")
	b, _ := os.ReadFile(mf)
	b = bytes.Replace(b, []byte(`"match": "contains"`), []byte(`"match": "fuzzy"`), 1)
	b = bytes.Replace(b, []byte(`"version": "1.0.0"`), []byte(`"version": "one"`), 1)
	if err := os.WriteFile(mf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"pack", "build", dir, "-o", filepath.Join(t.TempDir(), "x.kidpack")}, {"pack", "check", dir}} {
		code, _, stderr := runCLI(t, cmd...)
		if code != 1 {
			t.Errorf("%v exited %d, want 1", cmd, code)
		}
		for _, want := range []string{"2 problems", mf + ": version:", mf + ": exercises[0].checks[0].match:"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: stderr %q lacks %q", cmd, stderr, want)
			}
		}
	}
}

func TestPackUsage(t *testing.T) {
	for _, args := range [][]string{{"pack"}, {"pack", "frobnicate"}, {"pack", "new"}, {"pack", "build"}, {"pack", "import"}, {"pack", "check"}} {
		if code, _, _ := runCLI(t, args...); code != ExitUsage {
			t.Errorf("%v exited %d, want %d", args, code, ExitUsage)
		}
	}
}

// TestPackCheckInSandbox runs `kidcoder pack check` on the built scaffold
// for real: the reference solution passes, the starter fails.
func TestPackCheckInSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("runs programs in the sandbox")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "pack")
	file := filepath.Join(tmp, "p.kidpack")
	if code, _, _ := runCLI(t, "pack", "new", dir); code != 0 {
		t.Fatal("pack new failed")
	}
	if code, _, stderr := runCLI(t, "pack", "build", dir, "-o", file); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runCLI(t, "pack", "check", "--json", "--timeout", roomyTimeout, file)
	if code == ExitUnavailable {
		t.Skipf("sandbox unavailable: %s", stderr)
	}
	var got struct {
		OK        bool `json:"ok"`
		Exercises []struct {
			OK       bool `json:"ok"`
			Solution struct {
				Passed bool `json:"passed"`
			} `json:"solution"`
			Starter struct {
				Passed bool `json:"passed"`
			} `json:"starter"`
		} `json:"exercises"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("pack check --json: %v\n%s\n%s", err, stdout, stderr)
	}
	if code != 0 || !got.OK || len(got.Exercises) != 1 || !got.Exercises[0].Solution.Passed || got.Exercises[0].Starter.Passed {
		t.Fatalf("pack check exited %d: %s\n%s", code, stdout, stderr)
	}
	// A solution that no longer passes makes the check fail.
	sol := filepath.Join(dir, "exercises", "square", "solution.py")
	if err := os.WriteFile(sol, []byte("print('Perimeter: 200')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runCLI(t, "pack", "check", "--timeout", roomyTimeout, dir)
	if code != 1 || !strings.Contains(stdout, "FAIL 01-square: solution fails") {
		t.Fatalf("a broken solution: exit %d\n%s", code, stdout)
	}
}
