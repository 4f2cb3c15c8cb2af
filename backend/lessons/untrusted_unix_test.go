//go:build unix

package lessons

import (
	"encoding/json"
	"errors"
	"kidcoder/backend/safefile/safefiletest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

func symlinkTo(t *testing.T, target, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// TestStateNotAPlainFile: a FIFO or a link to /dev/zero as state.json is a
// forgotten state, and the folder still opens and lists.
func TestStateNotAPlainFile(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plant func(t *testing.T, p string)
	}{
		{"FIFO", mkfifo},
		{"link to /dev/zero", func(t *testing.T, p string) { symlinkTo(t, "/dev/zero", p) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "lessons")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(root, "mine.py"), []byte("print(1)"), 0o644)
			tt.plant(t, filepath.Join(root, stateDir, "state.json"))
			type opened struct {
				l   *Library
				err error
			}
			o := safefiletest.Promptly(t, "Setup", func() opened { l, err := Setup(root, "en"); return opened{l, err} })
			if o.err != nil {
				t.Fatalf("Setup: %v", o.err)
			}
			tree, err := o.l.List()
			if err != nil || renderTree(tree) != "mine.py\n" {
				t.Fatalf("List = %v", err)
			}
			if s := safefiletest.Promptly(t, "State", o.l.State); s.Open != "" || s.Positions != nil {
				t.Errorf("State = %+v, want the empty state", s)
			}
			// Remembering replaces the planted file with a real one.
			if err := safefiletest.Promptly(t, "Remember", func() error { return o.l.Remember("mine.py", Position{Cursor: 3}) }); err != nil {
				t.Fatal(err)
			}
			if s := o.l.State(); s.Open != "mine.py" {
				t.Errorf("State after Remember = %+v", s)
			}
		})
	}
}

// TestTrashNotPlainFiles: a deletion whose deleted.json is a FIFO or a link
// to /dev/zero, or whose slot is a link to a folder elsewhere, is left
// alone; the real deletion beside it is still undone.
func TestTrashNotPlainFiles(t *testing.T) {
	const planted = "29990101-000000"
	for _, tt := range []struct {
		name  string
		plant func(t *testing.T, slot string)
	}{
		{"FIFO", func(t *testing.T, slot string) { mkfifo(t, filepath.Join(slot, manifestName)) }},
		{"link to /dev/zero", func(t *testing.T, slot string) { symlinkTo(t, "/dev/zero", filepath.Join(slot, manifestName)) }},
		{"slot linked to a folder elsewhere", func(t *testing.T, slot string) {
			// A forged deletion outside the folder, newer than the real one.
			outside := filepath.Join(t.TempDir(), "elsewhere")
			os.MkdirAll(filepath.Join(outside, "files"), 0o755)
			os.WriteFile(filepath.Join(outside, "files", "planted.py"), []byte("x"), 0o644)
			m, _ := json.Marshal(Deleted{ID: planted, Paths: []string{"planted.py"}, When: time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)})
			os.WriteFile(filepath.Join(outside, manifestName), m, 0o644)
			symlinkTo(t, outside, slot)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, root := newTestLibrary(t, map[string]string{"keep.py": "k"})
			del, err := l.Delete("keep.py")
			if err != nil {
				t.Fatal(err)
			}
			tt.plant(t, filepath.Join(root, trashDir, planted))
			if n := safefiletest.Promptly(t, "Tidy", func() int { return l.Tidy(time.Now()) }); n != 0 {
				t.Errorf("Tidy removed %d entries", n)
			}
			if err := safefiletest.Promptly(t, "Undo planted", func() error { _, err := l.Undo(planted); return err }); !errors.Is(err, ErrNothingToUndo) {
				t.Errorf("Undo(planted) = %v, want ErrNothingToUndo", err)
			}
			restored := safefiletest.Promptly(t, "Undo latest", func() []string { r, _ := l.Undo(""); return r })
			if !slices.Equal(restored, del.Paths) {
				t.Errorf("Undo latest = %q, want %q", restored, del.Paths)
			}
			if _, err := os.Lstat(filepath.Join(root, "planted.py")); err == nil {
				t.Error("a file from outside was moved into the folder")
			}
		})
	}
}

// TestLessonNotAPlainFile: a FIFO lesson is that lesson's own error, at
// once, and every other lesson still works.
func TestLessonNotAPlainFile(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"ok.py": "print(1)"})
	mkfifo(t, filepath.Join(root, "pipe.py"))
	symlinkTo(t, "pipe.py", filepath.Join(root, "pipelink.py"))
	for _, rel := range []string{"pipe.py", "pipelink.py"} {
		if err := safefiletest.Promptly(t, "Open "+rel, func() error { _, err := l.Open(rel); return err }); !errors.Is(err, ErrNotPlainFile) {
			t.Errorf("Open(%s) = %v, want ErrNotPlainFile", rel, err)
		}
		if err := safefiletest.Promptly(t, "Duplicate "+rel, func() error { _, err := l.Duplicate(rel); return err }); !errors.Is(err, ErrNotPlainFile) {
			t.Errorf("Duplicate(%s) = %v, want ErrNotPlainFile", rel, err)
		}
		if err := safefiletest.Promptly(t, "Save "+rel, func() error { _, err := l.Save(rel, "x", "", SaveOptions{}); return err }); !errors.Is(err, ErrNotPlainFile) {
			t.Errorf("Save(%s) = %v, want ErrNotPlainFile", rel, err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, "pipe.py")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	if p := ProblemOf(ErrNotPlainFile); p.Zh == "" || p.En == "" {
		t.Errorf("no message for %s", CodeNotPlainFile)
	}
	tree, err := l.List()
	if err != nil || renderTree(tree) != "ok.py\n" {
		t.Errorf("List = %q, %v", renderTree(tree), err)
	}
	if lesson, err := l.Open("ok.py"); err != nil || lesson.Content != "print(1)" {
		t.Errorf("Open(ok.py) = %v", err)
	}
}

// TestInstructionsNotAPlainFile: NAME.md as a FIFO, a link to /dev/zero or
// too big costs only the instructions; the lesson opens and says why.
func TestInstructionsNotAPlainFile(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{
		"fifo.py": "f", "zero.py": "z", "big.py": "b", "big.md": string(make([]byte, MaxLessonSize+1)), "fine.py": "ok", "fine.md": "# fine",
	})
	mkfifo(t, filepath.Join(root, "fifo.md"))
	symlinkTo(t, "/dev/zero", filepath.Join(root, "zero.md"))
	for _, tt := range []struct {
		rel  string
		want Code
	}{
		{"fifo.py", CodeNotPlainFile},
		{"zero.py", CodeOutsideFolder},
		{"big.py", CodeTooLarge},
		{"fine.py", ""},
	} {
		type opened struct {
			lesson *Lesson
			err    error
		}
		o := safefiletest.Promptly(t, "Open "+tt.rel, func() opened { le, err := l.Open(tt.rel); return opened{le, err} })
		if o.err != nil {
			t.Errorf("Open(%s) = %v; the lesson itself is fine", tt.rel, o.err)
			continue
		}
		var got Code
		if o.lesson.InstructionsProblem != nil {
			got = o.lesson.InstructionsProblem.Code
		}
		if got != tt.want {
			t.Errorf("Open(%s): instructions problem %q, want %q", tt.rel, got, tt.want)
		}
		if tt.want == "" && o.lesson.Instructions != "# fine" {
			t.Errorf("Open(%s): instructions %q", tt.rel, o.lesson.Instructions)
		}
	}
}

// TestOpenLessonBecomesAFIFO: the watcher's look at the open lesson does
// not wait on a FIFO put in its place; it reports it unreadable.
func TestOpenLessonBecomesAFIFO(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"a.py": "v1"})
	if _, err := l.Open("a.py"); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "a.py"))
	mkfifo(t, filepath.Join(root, "a.py"))
	evs := safefiletest.Promptly(t, "checkOpen", func() []LessonChangedEvent { return l.checkOpen(map[string]bool{"a.py": true}, nil) })
	if len(evs) != 1 || evs[0].Kind != LessonUnreadable || evs[0].Problem == nil || evs[0].Problem.Code != CodeNotPlainFile {
		t.Fatalf("checkOpen = %+v, want unreadable: %s", evs, CodeNotPlainFile)
	}
}

// TestUserDirsNotAPlainFile: a FIFO or a link to /dev/urandom as
// user-dirs.dirs leaves the default Documents folder, at once; a link to a
// real file (a dotfiles folder) is still read.
func TestUserDirsNotAPlainFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("user-dirs.dirs is read on Linux only")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	config := filepath.Join(home, ".config")
	t.Setenv("XDG_CONFIG_HOME", config)
	p := filepath.Join(config, "user-dirs.dirs")
	dotfile := filepath.Join(home, "dotfiles", "user-dirs.dirs")
	os.MkdirAll(filepath.Dir(dotfile), 0o755)
	os.WriteFile(dotfile, []byte("XDG_DOCUMENTS_DIR=\"$HOME/文档\"\n"), 0o644)
	for _, tt := range []struct {
		name  string
		plant func(t *testing.T, p string)
		want  string
	}{
		{"FIFO", mkfifo, "Documents"},
		{"link to /dev/urandom", func(t *testing.T, p string) { symlinkTo(t, "/dev/urandom", p) }, "Documents"},
		{"link to a real file", func(t *testing.T, p string) { symlinkTo(t, dotfile, p) }, "文档"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(p)
			tt.plant(t, p)
			got := safefiletest.Promptly(t, "documentsDir", func() string { d, _ := documentsDir(); return d })
			if got != filepath.Join(home, tt.want) {
				t.Errorf("documentsDir = %q, want %q", got, filepath.Join(home, tt.want))
			}
		})
	}
}

// TestStateFolderLinkedOut: a .kidcoder that is a link to a folder outside
// the lessons folder is never written through; what the app remembers is
// refused, and the folder it points to is left as it was.
func TestStateFolderLinkedOut(t *testing.T) {
	root := filepath.Join(t.TempDir(), "lessons")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "mine.py"), []byte("print(1)"), 0o644)
	outside := t.TempDir()
	symlinkTo(t, outside, filepath.Join(root, stateDir))
	l, err := Setup(root, "en")
	if err != nil {
		t.Fatalf("Setup: %v", err)
	}
	if err := l.Remember("mine.py", Position{Cursor: 3}); err == nil {
		t.Error("Remember wrote through a linked .kidcoder")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("the linked folder gained %d entries", len(ents))
	}
}
