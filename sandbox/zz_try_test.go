package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestZZTry(t *testing.T) {
	d := t.TempDir()
	f := filepath.Join(d, "p.py")
	os.WriteFile(f, []byte(os.Getenv("CODE")), 0o600)
	spec := Spec{Policy: DefaultPolicy(), Python: "/usr/bin/python3", Args: []string{"-I", "/kid/home/p.py"}, Files: []Mount{{f, "/kid/home/p.py"}}}
	p, err := Start(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := p.Wait()
	t.Logf("%+v\nstdout=%s\nstderr=%s", o, o.Stdout, o.Stderr)
}
