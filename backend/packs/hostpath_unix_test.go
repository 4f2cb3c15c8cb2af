//go:build unix

package packs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A pack's metadata folder swapped for a link (to a copy elsewhere, which
// another program could change) hands the sandbox nothing through it: the
// check scripts' host paths are refused, not followed.
func TestHostPathRefusesLinkedMetadata(t *testing.T) {
	_, in := importedScaffold(t)
	var script string
	for _, ex := range in.Manifest.Exercises {
		for _, c := range ex.Checks {
			if c.File != "" {
				script = c.File
			}
		}
	}
	if script == "" {
		t.Fatal("the scaffold has no check script")
	}
	if _, err := in.HostPath(script); err != nil {
		t.Fatalf("a plain pack: %v", err)
	}
	for _, at := range []string{MetaDir, MetaDir + "/" + filesDir} {
		t.Run(at, func(t *testing.T) {
			dir, in := importedScaffold(t)
			p := filepath.Join(dir, filepath.FromSlash(at))
			out := filepath.Join(t.TempDir(), "elsewhere")
			if err := os.Rename(p, out); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, p); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			if hp, err := in.HostPath(script); !errors.Is(err, ErrNotRegular) {
				t.Errorf("HostPath through a linked %s = %q, %v; want ErrNotRegular", at, hp, err)
			}
		})
	}
}

// importedScaffold imports the scaffold pack into a fresh lessons folder
// and returns the pack's folder and what is installed there.
func importedScaffold(t *testing.T) (string, *Installed) {
	t.Helper()
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(lessons, pl.Folder)
	in, err := OpenInstalled(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, in
}
