//go:build unix

package packs

import (
	"errors"
	"kidcoder/backend/safefile/safefiletest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// notPlain are the things a red team put where the app keeps a file.
var notPlain = []struct {
	name  string
	plant func(p string) error
}{
	{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	{"link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
}

func plant(t *testing.T, p string, fn func(string) error) {
	t.Helper()
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := fn(p); err != nil {
		t.Skipf("can't plant %s: %v", p, err)
	}
}

// TestReimportBesideNotPlainData: a data file beside the lessons replaced by
// a FIFO or a link to /dev/zero is the child's, kept, and never read.
func TestReimportBesideNotPlainData(t *testing.T) {
	for _, tt := range notPlain {
		t.Run(tt.name, func(t *testing.T) {
			src := scaffoldDir(t)
			withData(t, src)
			pack := buildTo(t, src)
			lessons := t.TempDir()
			pl, err := Import(pack, lessons, "en")
			if err != nil {
				t.Fatal(err)
			}
			data := filepath.Join(lessons, pl.Folder, "sizes.txt")
			plant(t, data, tt.plant)
			type planned struct {
				pl  *Plan
				err error
			}
			for _, op := range []struct {
				name string
				fn   func(string, string, string) (*Plan, error)
			}{{"Preview", Preview}, {"Import", Import}} {
				p := safefiletest.Promptly(t, op.name, func() planned { pl, err := op.fn(pack, lessons, "en"); return planned{pl, err} })
				if p.err != nil {
					t.Fatalf("%s: %v", op.name, p.err)
				}
				if !slices.Contains(p.pl.Kept, pl.Folder+"/sizes.txt") {
					t.Errorf("%s keeps %v, want the planted data file among them", op.name, p.pl.Kept)
				}
			}
			if fi, err := os.Lstat(data); err != nil || fi.Mode().IsRegular() {
				t.Errorf("the planted file was replaced: %v", err)
			}
		})
	}
}

// TestProgressNotPlain: progress.json as a FIFO or a link to /dev/zero is
// no progress yet; the summary still lists the pack, and the next attempt
// replaces it with a real file.
func TestProgressNotPlain(t *testing.T) {
	for _, tt := range notPlain {
		t.Run(tt.name, func(t *testing.T) {
			lessons := t.TempDir()
			pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(lessons, pl.Folder)
			plant(t, filepath.Join(dir, MetaDir, progressName), tt.plant)
			type listed struct {
				sums []PackSummary
				err  error
			}
			l := safefiletest.Promptly(t, "Summaries", func() listed { s, err := Summaries(lessons); return listed{s, err} })
			if l.err != nil || len(l.sums) != 1 || l.sums[0].Attempts != 0 {
				t.Fatalf("Summaries = %+v, %v", l.sums, l.err)
			}
			if err := safefiletest.Promptly(t, "RecordAttempt", func() error {
				_, err := RecordAttempt(dir, "01-square", true, time.Now())
				return err
			}); err != nil {
				t.Fatalf("RecordAttempt: %v", err)
			}
			prog, err := LoadProgress(dir)
			if err != nil || !prog["01-square"].Solved {
				t.Errorf("progress after the attempt: %+v, %v", prog, err)
			}
		})
	}
}

// TestInstalledNotPlain: installed.json as a FIFO or a link to /dev/zero is
// no pack: its lessons are plain lessons and the summary leaves it out.
func TestInstalledNotPlain(t *testing.T) {
	for _, tt := range notPlain {
		t.Run(tt.name, func(t *testing.T) {
			lessons := t.TempDir()
			pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(lessons, pl.Folder)
			plant(t, filepath.Join(dir, MetaDir, installedName), tt.plant)
			if err := safefiletest.Promptly(t, "FindLesson", func() error {
				_, _, err := FindLesson(filepath.Join(lessons, pl.Exercises[0].Lesson))
				return err
			}); !errors.Is(err, ErrNotInPack) {
				t.Errorf("FindLesson = %v, want ErrNotInPack", err)
			}
			type listed struct {
				sums []PackSummary
				err  error
			}
			if l := safefiletest.Promptly(t, "Summaries", func() listed { s, err := Summaries(lessons); return listed{s, err} }); l.err != nil || len(l.sums) != 0 {
				t.Errorf("Summaries = %+v, %v", l.sums, l.err)
			}
		})
	}
}

// TestLoadNotPlainPack: a .kidpack that is a FIFO is refused at once; one
// reached through a link the family chose still loads.
func TestLoadNotPlainPack(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.kidpack")
	plant(t, fifo, notPlain[0].plant)
	if err := safefiletest.Promptly(t, "Load", func() error { _, err := Load(fifo); return err }); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Load(FIFO) = %v, want ErrNotRegular", err)
	}
	link := filepath.Join(dir, "link.kidpack")
	if err := os.Symlink(buildTo(t, scaffoldDir(t)), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(link); err != nil {
		t.Errorf("Load through a link: %v", err)
	}
}

// TestImportRefusesPlantedLinks: a link planted where import or progress
// keeps its metadata is refused with ErrNotRegular, naming the path, and
// nothing is written where it leads.
func TestImportRefusesPlantedLinks(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plant string // inside the pack's folder
		write func(lessons, dir string) error
	}{
		{".kidpack on import", MetaDir, func(lessons, _ string) error {
			_, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
			return err
		}},
		{".kidpack/files on import", MetaDir + "/" + filesDir, func(lessons, _ string) error {
			_, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
			return err
		}},
		{".kidpack on an attempt", MetaDir, func(_, dir string) error {
			_, err := RecordAttempt(dir, "01-square", true, time.Now())
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lessons := t.TempDir()
			pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(lessons, pl.Folder)
			at := filepath.Join(dir, filepath.FromSlash(tt.plant))
			// The real metadata moves out and the link leads to it, so the
			// pack is still found and its update still attempted.
			out := filepath.Join(t.TempDir(), "moved")
			if err := os.Rename(at, out); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, at); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			before := treeOf(t, out)
			err = tt.write(lessons, dir)
			if !errors.Is(err, ErrNotRegular) || !strings.HasPrefix(err.Error(), at+": ") {
				t.Errorf("got %v, want %s: %v", err, at, ErrNotRegular)
			}
			if after := treeOf(t, out); after != before {
				t.Errorf("written through the link:\n%s\nwas\n%s", after, before)
			}
			if dirs, _ := os.ReadDir(lessons); len(dirs) != 1 {
				t.Errorf("the update went to a second folder: %v", dirs)
			}
		})
	}
}

// treeOf lists every entry under dir with its content.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(strings.TrimPrefix(p, dir))
		if !d.IsDir() {
			b.WriteString("=" + readFile(t, p))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
