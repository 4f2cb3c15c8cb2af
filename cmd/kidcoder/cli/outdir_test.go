//go:build unix

package cli

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"kidcoder/backend/kidrun"
)

var (
	svgBytes = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#ff0000"/></svg>`)
	pngBytes = []byte("\x89PNG\r\n\x1a\nnot checked here")
	pictures = []kidrun.Image{
		{Mime: "image/svg+xml", Data: base64.StdEncoding.EncodeToString(svgBytes)},
		{Mime: "image/png", Data: base64.StdEncoding.EncodeToString(pngBytes)},
	}
	// long ago, so that a write of any speed shows in the mtime
	oldTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
)

// family is a file outside the output folder that must stay as it is.
type family struct {
	path    string
	content []byte
}

func familyFile(t *testing.T) family {
	t.Helper()
	f := family{path: filepath.Join(t.TempDir(), "homework.txt"), content: []byte("the family's own file\n")}
	if err := os.WriteFile(f.path, f.content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f.path, oldTime, oldTime); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f family) untouched(t *testing.T) {
	t.Helper()
	fi, err := os.Stat(f.path)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(f.path)
	if !bytes.Equal(got, f.content) || !fi.ModTime().Equal(oldTime) {
		t.Errorf("%s was written through: %q, mtime %v", filepath.Base(f.path), got, fi.ModTime())
	}
}

func readOut(t *testing.T, dir, name string) []byte {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !fi.Mode().IsRegular() {
		t.Fatalf("%s is %v, not a file", name, fi.Mode())
	}
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return b
}

// onlyNames fails unless dir holds exactly names: no temporary file is left.
func onlyNames(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("folder holds %q, want %q", got, names)
	}
}

func TestWriteImagesFreshAndAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "made", "for", "pictures")
	if err := writeImages(dir, pictures); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readOut(t, dir, "turtle.svg"), svgBytes) || !bytes.Equal(readOut(t, dir, "figure-1.png"), pngBytes) {
		t.Fatal("pictures not written")
	}
	// A second run replaces the first run's pictures; a hard link to one of
	// them elsewhere keeps the old bytes, as the name is replaced, not the file.
	other := filepath.Join(t.TempDir(), "linked.svg")
	if err := os.Link(filepath.Join(dir, "turtle.svg"), other); err != nil {
		t.Fatal(err)
	}
	second := []kidrun.Image{{Mime: "image/svg+xml", Data: base64.StdEncoding.EncodeToString([]byte("<svg/>"))}, pictures[1], pictures[1]}
	if err := writeImages(dir, second); err != nil {
		t.Fatal(err)
	}
	if got := readOut(t, dir, "turtle.svg"); string(got) != "<svg/>" {
		t.Errorf("turtle.svg not replaced: %q", got)
	}
	if got, _ := os.ReadFile(other); !bytes.Equal(got, svgBytes) {
		t.Errorf("a hard link elsewhere was written through: %q", got)
	}
	onlyNames(t, dir, "turtle.svg", "figure-1.png", "figure-2.png")
}

// Whatever is planted at a picture's name in the output folder is left as it
// is, with an error naming it, and never written through; the other
// pictures are still written.
func TestWriteImagesLeavesPlantedEntries(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, at string, f family)
		kind  string
	}{
		{"link to a file", func(t *testing.T, at string, f family) { must(t, os.Symlink(f.path, at)) }, "a link"},
		{"relative link", func(t *testing.T, at string, f family) {
			rel, err := filepath.Rel(filepath.Dir(at), f.path)
			must(t, err)
			must(t, os.Symlink(rel, at))
		}, "a link"},
		{"dangling link", func(t *testing.T, at string, f family) {
			must(t, os.Symlink(filepath.Join(filepath.Dir(f.path), "created-by-a-link"), at))
		}, "a link"},
		{"link to a folder", func(t *testing.T, at string, f family) { must(t, os.Symlink(filepath.Dir(f.path), at)) }, "a link"},
		{"folder", func(t *testing.T, at string, f family) {
			must(t, os.Mkdir(at, 0o755))
			must(t, os.WriteFile(filepath.Join(at, "inside"), []byte("x"), 0o644))
		}, "a folder"},
		{"FIFO", func(t *testing.T, at string, f family) { must(t, syscall.Mkfifo(at, 0o644)) }, "a FIFO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := familyFile(t)
			dir := t.TempDir()
			at := filepath.Join(dir, "turtle.svg")
			tt.plant(t, at, f)
			before, err := os.Lstat(at)
			must(t, err)
			t.Cleanup(func() {
				// Free a writer the old code left blocked on the FIFO.
				if fd, err := syscall.Open(at, syscall.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					syscall.Close(fd)
				}
			})

			done := make(chan error, 1)
			go func() { done <- writeImages(dir, pictures) }()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("writing the pictures hung")
			}

			if !errors.Is(err, errNotOurs) || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), tt.kind) {
				t.Errorf("error %v, want errNotOurs naming %s and %s", err, at, tt.kind)
			}
			after, err := os.Lstat(at)
			if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Errorf("the planted %s was replaced", tt.name)
			}
			f.untouched(t)
			if _, err := os.Lstat(filepath.Join(filepath.Dir(f.path), "created-by-a-link")); err == nil {
				t.Error("a dangling link's target was created")
			}
			if inside, err := os.ReadDir(filepath.Dir(f.path)); err != nil || len(inside) != 1 {
				t.Errorf("the family's folder changed: %v", inside)
			}
			if !bytes.Equal(readOut(t, dir, "figure-1.png"), pngBytes) {
				t.Error("the other picture was not written")
			}
			onlyNames(t, dir, "turtle.svg", "figure-1.png")
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// kidcoder run --out, for real: a link planted at turtle.svg stays, its
// target is untouched, the run's exit code is the program's, and the
// reason is on stderr.
func TestRunOutLeavesPlantedLink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program in the sandbox")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := familyFile(t)
	dir := t.TempDir()
	must(t, os.Symlink(f.path, filepath.Join(dir, "turtle.svg")))
	prog := filepath.Join(t.TempDir(), "square.py")
	must(t, os.WriteFile(prog, []byte("import turtle\nfor _ in range(4):\n    turtle.forward(50)\n    turtle.left(90)\n"), 0o644))

	code, stdout, stderr := runCLI(t, "run", "--json", "--timeout", roomyTimeout, "--out", dir, prog)
	if code == ExitUnavailable {
		t.Skipf("sandbox unavailable: %s", stderr)
	}
	if code != 0 || !strings.Contains(stdout, `"image/svg+xml"`) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f.untouched(t)
	if fi, err := os.Lstat(filepath.Join(dir, "turtle.svg")); err != nil || fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("the planted link was replaced: %v %v", fi, err)
	}
	if !strings.Contains(stderr, "turtle.svg") || !strings.Contains(stderr, "a link") {
		t.Errorf("stderr does not say why turtle.svg was not written: %q", stderr)
	}

	// Without the link, the same run writes its drawing there.
	must(t, os.Remove(filepath.Join(dir, "turtle.svg")))
	if code, _, stderr := runCLI(t, "run", "--timeout", roomyTimeout, "--out", dir, prog); code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if svg := readOut(t, dir, "turtle.svg"); !bytes.HasPrefix(svg, []byte("<svg ")) {
		t.Errorf("turtle.svg: %.80q", svg)
	}
	onlyNames(t, dir, "turtle.svg")
}
