package app

import (
	"os"
	"path/filepath"
	"testing"

	"kidcoder/backend/packs"
)

// examplePack builds the scaffold pack into a .kidpack file.
func examplePack(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	if err := packs.New(src); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "first.kidpack")
	if err := packs.BuildFile(src, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPreviewThenImportPack(t *testing.T) {
	a, _, root := newTestApp(t)
	file := examplePack(t)
	pl, err := a.PreviewPack(file, "zh")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Previous != "" || len(pl.Exercises) != 1 || !pl.Exercises[0].New || len(pl.Writes) == 0 {
		t.Fatalf("preview %+v", pl)
	}
	if _, err := os.Stat(filepath.Join(root, pl.Folder)); !os.IsNotExist(err) {
		t.Fatalf("preview wrote the folder: %v", err)
	}
	got, err := a.ImportPack(file, "zh")
	if err != nil {
		t.Fatal(err)
	}
	lesson := got.Exercises[0].Lesson
	if _, err := a.OpenLesson(lesson); err != nil {
		t.Fatalf("imported lesson %q does not open: %v", lesson, err)
	}
	again, err := a.PreviewPack(file, "zh")
	if err != nil {
		t.Fatal(err)
	}
	if again.Previous != "1.0.0" || again.Exercises[0].New {
		t.Errorf("second preview should be an update keeping the child's code: %+v", again)
	}

	ex, err := a.LessonExercise(lesson, "en")
	if err != nil || ex == nil {
		t.Fatalf("exercise %v %v", ex, err)
	}
	if ex.ID != "01-square" || ex.HintsTotal != 3 || len(ex.Hints) != 0 || ex.Instructions == "" || ex.Checks == 0 {
		t.Errorf("exercise %+v", ex)
	}
	for i := 0; i < 2; i++ {
		h, err := a.RevealHint(lesson, "en")
		if err != nil || h.Index != i || h.Text == "" {
			t.Fatalf("hint %d: %+v %v", i, h, err)
		}
	}
	if ex, _ := a.LessonExercise(lesson, "en"); len(ex.Hints) != 2 || ex.Progress.HintsShown != 2 {
		t.Errorf("revealed hints not kept: %+v", ex)
	}
	sum, err := a.PackProgress()
	if err != nil || len(sum) != 1 || sum[0].Exercises != 1 || sum[0].HintsShown != 2 || sum[0].Solved != 0 {
		t.Errorf("progress %+v %v", sum, err)
	}
}

func TestLessonOutsideAPack(t *testing.T) {
	a, _, _ := newTestApp(t)
	ex, err := a.LessonExercise("1 star.py", "en")
	if err != nil || ex != nil {
		t.Errorf("a starter lesson has exercise %v, %v", ex, err)
	}
	if _, err := a.CheckLesson(CheckRequest{Path: "1 star.py", Code: "print(1)", Lang: "en"}); problemCode(t, err) != "pack" {
		t.Errorf("checking a lesson outside a pack: %v", err)
	}
}

func TestBrokenPackIsExplained(t *testing.T) {
	a, _, _ := newTestApp(t)
	bad := filepath.Join(t.TempDir(), "bad.kidpack")
	os.WriteFile(bad, []byte("not a zip"), 0o644)
	_, err := a.PreviewPack(bad, "zh")
	if problemCode(t, err) != "pack" {
		t.Errorf("broken pack: %v", err)
	}
}

func TestCheckNeedsTheSandbox(t *testing.T) {
	a, _, _ := newTestApp(t)
	pl, err := a.ImportPack(examplePack(t), "en")
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.CheckLesson(CheckRequest{Path: pl.Exercises[0].Lesson, Code: "print(1)", Lang: "en"})
	if problemCode(t, err) != "pack" {
		t.Errorf("check without a sandbox: %v", err)
	}
}
