//go:build unix

package app

import (
	"kidcoder/backend/safefile/safefiletest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"kidcoder/backend/lessons"
	"kidcoder/backend/settings"
)

// within fails the test if fn has not returned promptly.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	safefiletest.Promptly(t, what, func() struct{} { fn(); return struct{}{} })
}

// TestFIFOsInTheLessonsFolder: the red team's FIFO state.json made the
// sidebar say the folder could not be found, and a FIFO lesson or NAME.md
// never opened. Now each is that file's own problem only.
func TestFIFOsInTheLessonsFolder(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "Kid Coder")
	if err := os.MkdirAll(filepath.Join(root, ".kidcoder"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "mine.py"), []byte("print(1)\n"), 0o644)
	os.WriteFile(filepath.Join(root, "task.py"), []byte("print(2)\n"), 0o644)
	for _, p := range []string{".kidcoder/state.json", "pipe.py", "task.md"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
	}
	a := New(filepath.Join(dir, "settings.json"), filepath.Join(dir, "cache"))
	a.shell = newFakeShell()
	a.settings = settings.Defaults()
	within(t, "opening the folder", func() { a.openLessons(root) })
	t.Cleanup(a.closeLessons)

	var v LessonsView
	within(t, "Lessons", func() { v = a.Lessons() })
	if v.Problem != nil || strings.Join(names(v.Tree), ",") != "mine,task" {
		t.Fatalf("Lessons = problem %+v, tree %q", v.Problem, names(v.Tree))
	}
	var err error
	within(t, "OpenLesson(pipe.py)", func() { _, err = a.OpenLesson("pipe.py") })
	if problemCode(t, err) != string(lessons.CodeNotPlainFile) {
		t.Errorf("OpenLesson(pipe.py) = %v", err)
	}
	var l *lessons.Lesson
	within(t, "OpenLesson(task.py)", func() { l, err = a.OpenLesson("task.py") })
	if err != nil || l.Content != "print(2)\n" || l.InstructionsProblem == nil || l.InstructionsProblem.Code != lessons.CodeNotPlainFile {
		t.Errorf("OpenLesson(task.py) = %+v, %v", l, err)
	}
	within(t, "RememberLesson", func() { err = a.RememberLesson("mine.py", lessons.Position{Cursor: 1}) })
	if err != nil {
		t.Errorf("RememberLesson: %v", err)
	}
}
