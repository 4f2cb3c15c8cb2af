package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"kidcoder/backend/lessons"
	"kidcoder/backend/packs"
	"kidcoder/sandbox"
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

// A pack problem names what went wrong in both languages, then the error.
func TestPackProblemTexts(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{errors.New("boom {error}"), `{"code":"pack","zh":"这个练习包打不开：boom {error}","en":"This exercise pack can't be used: boom {error}"}`},
		{fmt.Errorf("x: %w", packs.ErrOlderVersion), `{"code":"pack","zh":"课程文件夹里已经有这个练习包更新的版本了。x: ` + packs.ErrOlderVersion.Error() + `","en":"A newer version of this pack is already in the lessons folder. x: ` + packs.ErrOlderVersion.Error() + `"}`},
		{packs.ErrNewerFormat, `{"code":"pack","zh":"这个练习包需要更新版本的小教室。` + packs.ErrNewerFormat.Error() + `","en":"This pack needs a newer version of Kid Coder. ` + packs.ErrNewerFormat.Error() + `"}`},
		{packs.ErrNotZip, `{"code":"pack","zh":"这个练习包文件坏了或被改动过。` + packs.ErrNotZip.Error() + `","en":"This pack file is damaged or was changed. ` + packs.ErrNotZip.Error() + `"}`},
		{sandbox.ErrUnavailable, `{"code":"pack","zh":"安全沙盒没有准备好，现在不能检查答案。sandbox unavailable","en":"The safety box is not ready, so answers can't be checked now. sandbox unavailable"}`},
	}
	for _, tt := range tests {
		if got := packProblem(tt.err).Error(); got != tt.want {
			t.Errorf("packProblem(%v) =\n%s\nwant\n%s", tt.err, got, tt.want)
		}
	}
}

// A pack's lessons are listed by their titles, in the tree the sidebar gets
// and in the tree the watcher sends after a change.
func TestPackLessonsCarryTheirTitles(t *testing.T) {
	a, _, _ := newTestApp(t)
	pl, err := a.ImportPack(examplePack(t), "zh")
	if err != nil {
		t.Fatal(err)
	}
	want := pl.Exercises[0].Title
	var found *lessons.Node
	var walk func(n *lessons.Node)
	walk = func(n *lessons.Node) {
		if n.Path == pl.Exercises[0].Lesson {
			found = n
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(a.Lessons().Tree)
	if found == nil {
		t.Fatalf("lesson %q not in the tree", pl.Exercises[0].Lesson)
	}
	if found.Title == nil || *found.Title != want || want.Zh == "" {
		t.Errorf("lesson %q has title %v, want %v", found.Name, found.Title, want)
	}
	found = nil
	walk(a.Lessons().Tree)
	for _, n := range a.Lessons().Tree.Children {
		if n.Kind == lessons.KindLesson && n.Title != nil {
			t.Errorf("starter lesson %q has a title %v", n.Name, n.Title)
		}
	}
}
