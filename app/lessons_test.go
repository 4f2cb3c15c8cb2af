package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kidcoder/backend/lessons"
	"kidcoder/backend/settings"
)

// fakeShell records events and answers dialogs with what the test set.
type fakeShell struct {
	events chan emitted
	dir    string // DirectoryDialog's answer
	file   string // OpenFileDialog's answer
	// SaveDialog's answer, and where it was asked to start.
	save, saveDir, saveName string
}

type emitted struct {
	name string
	data any
}

func newFakeShell() *fakeShell { return &fakeShell{events: make(chan emitted, 256)} }

func (s *fakeShell) Emit(name string, data any) { s.events <- emitted{name, data} }
func (s *fakeShell) SaveDialog(dir, name string) (string, error) {
	s.saveDir, s.saveName = dir, name
	return s.save, nil
}
func (s *fakeShell) DirectoryDialog(string) (string, error)  { return s.dir, nil }
func (s *fakeShell) OpenFileDialog(p string) (string, error) { return s.file, nil }

// await returns the first event called name for which ok holds.
func (s *fakeShell) await(t *testing.T, name string, ok func(any) bool) any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-s.events:
			if e.name == name && ok(e.data) {
				return e.data
			}
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

// newTestApp is an app on a fresh lessons folder under t.TempDir, without
// the sandbox self-test that Startup starts.
func newTestApp(t *testing.T) (*App, *fakeShell, string) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "Kid Coder")
	a := New(filepath.Join(dir, "settings.json"), filepath.Join(dir, "cache"))
	sh := newFakeShell()
	a.shell = sh
	a.settings = settings.Defaults()
	a.settings.Lang = "en" // not the system's: the starters are named in it
	a.openLessons(root)
	t.Cleanup(a.closeLessons)
	return a, sh, root
}

func problemCode(t *testing.T, err error) string {
	t.Helper()
	var pe *ProblemError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a ProblemError", err)
	}
	var back ProblemError
	if json.Unmarshal([]byte(err.Error()), &back) != nil || back.Code != pe.Code || back.Zh == "" || back.En == "" {
		t.Fatalf("error text %q is not the problem as JSON", err.Error())
	}
	return pe.Code
}

func names(n *lessons.Node) []string {
	var out []string
	for _, c := range n.Children {
		out = append(out, c.Name)
	}
	return out
}

func TestLessonsListsStartersAndOpens(t *testing.T) {
	a, _, root := newTestApp(t)
	v := a.Lessons()
	if v.Problem != nil {
		t.Fatalf("problem: %+v", v.Problem)
	}
	if v.Root != root {
		t.Errorf("root %q, want %q", v.Root, root)
	}
	got := strings.Join(names(v.Tree), ",")
	if got != "1 star,2 flower,3 hello,4 guess,5 snake,6 click-draw" {
		t.Errorf("tree %q", got)
	}
	l, err := a.OpenLesson("1 star.py")
	if err != nil {
		t.Fatal(err)
	}
	if l.Content != lessons.StarDemo() || l.Instructions == "" || l.Version == "" {
		t.Errorf("opened %+v", l)
	}
	if _, err := a.OpenLesson("../outside.py"); problemCode(t, err) != string(lessons.CodeOutsideFolder) {
		t.Errorf("outside path: %v", err)
	}
}

func TestSaveConflictKeepsBoth(t *testing.T) {
	a, _, root := newTestApp(t)
	a.lib.SetLang("en")
	l, err := a.OpenLesson("2 flower.py")
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.SaveLesson(SaveRequest{Path: l.Path, Content: "print(1)\n", Version: l.Version})
	if err != nil {
		t.Fatal(err)
	}
	// Another editor saves the way most do: a new file renamed over the old.
	tmp := filepath.Join(t.TempDir(), "elsewhere.py")
	os.WriteFile(tmp, []byte("print('from elsewhere')\n"), 0o644)
	if err := os.Rename(tmp, filepath.Join(root, "2 flower.py")); err != nil {
		t.Fatal(err)
	}
	_, err = a.SaveLesson(SaveRequest{Path: l.Path, Content: "print(2)\n", Version: res.Version})
	if problemCode(t, err) != string(lessons.CodeConflict) {
		t.Fatalf("want a conflict, got %v", err)
	}
	kept, err := a.KeepBothLesson(SaveRequest{Path: l.Path, Content: "print(2)\n"})
	if err != nil {
		t.Fatal(err)
	}
	if kept.AsidePath != "2 flower (from disk).py" {
		t.Errorf("aside %q", kept.AsidePath)
	}
	for file, want := range map[string]string{"2 flower.py": "print(2)\n", "2 flower (from disk).py": "print('from elsewhere')\n"} {
		b, _ := os.ReadFile(filepath.Join(root, file))
		if string(b) != want {
			t.Errorf("%s holds %q, want %q", file, b, want)
		}
	}
}

// closeWith closes the app as its window does: the shell asks BeforeClose,
// the window answers EventClosing with d, and the app quits and shuts down.
func closeWith(t *testing.T, a *App, sh *fakeShell, d Draft) {
	t.Helper()
	if err := a.AskOnClose(); err != nil {
		t.Fatal(err)
	}
	c := newFakeCloser(false)
	if !BeforeClose(a, c) {
		t.Fatal("a window that listens closed before it was asked for its text")
	}
	sh.await(t, EventClosing, func(any) bool { return true })
	if err := a.CloseReady(d, true); err != nil {
		t.Fatal(err)
	}
	c.awaitQuit(t)
	if BeforeClose(a, c) {
		t.Fatal("the window stays open after it answered")
	}
	Shutdown(a)
}

func TestDraftIsSavedOnShutdown(t *testing.T) {
	a, sh, root := newTestApp(t)
	l, err := a.OpenLesson("3 hello.py")
	if err != nil {
		t.Fatal(err)
	}
	closeWith(t, a, sh, Draft{Path: l.Path, Content: "print('draft')\n", Version: l.Version})
	b, _ := os.ReadFile(filepath.Join(root, "3 hello.py"))
	if string(b) != "print('draft')\n" {
		t.Errorf("after shutdown the lesson holds %q", b)
	}
	if a.Lessons().Problem == nil {
		t.Error("the folder is still open after shutdown")
	}
}

// A save that the window heard back from before it answered, and whose
// "not dirty" arrives late (each bound call runs on its own), does not drop
// the newer text the window handed over.
func TestLateCleanMarkKeepsTheDraft(t *testing.T) {
	a, sh, root := newTestApp(t)
	l, _ := a.OpenLesson("4 guess.py")
	saved, err := a.SaveLesson(SaveRequest{Path: l.Path, Content: "saved\n", Version: l.Version})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AskOnClose(); err != nil {
		t.Fatal(err)
	}
	BeforeClose(a, newFakeCloser(false))
	sh.await(t, EventClosing, func(any) bool { return true })
	if err := a.CloseReady(Draft{Path: l.Path, Content: "saved\nand typed\n", Version: saved.Version}, true); err != nil {
		t.Fatal(err)
	}
	a.SetLessonDirty(l.Path, false)
	Shutdown(a)
	b, _ := os.ReadFile(filepath.Join(root, "4 guess.py"))
	if string(b) != "saved\nand typed\n" {
		t.Errorf("lesson holds %q, want the text the window handed over", b)
	}
}

func TestSavedDraftIsNotWrittenAgain(t *testing.T) {
	a, _, root := newTestApp(t)
	l, _ := a.OpenLesson("4 guess.py")
	a.AskOnClose()
	BeforeClose(a, newFakeCloser(false))
	if err := a.CloseReady(Draft{Path: l.Path, Content: "saved\n", Version: l.Version}, true); err != nil {
		t.Fatal(err)
	}
	// An autosave of the same text that was under way lands after the answer.
	if _, err := a.SaveLesson(SaveRequest{Path: l.Path, Content: "saved\n", Version: l.Version}); err != nil {
		t.Fatal(err)
	}
	Shutdown(a)
	b, _ := os.ReadFile(filepath.Join(root, "4 guess.py"))
	if string(b) != "saved\n" {
		t.Errorf("lesson holds %q, want what was saved last", b)
	}
	if names, _ := filepath.Glob(filepath.Join(root, "4 guess (from disk)*")); len(names) > 0 {
		t.Errorf("the saved text was written again as a conflict: %v", names)
	}
}

func TestNewRenameDuplicateDeleteUndo(t *testing.T) {
	a, _, root := newTestApp(t)
	g, err := a.NewGroup("", "第2周")
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.NewLesson(g, "乌龟")
	if err != nil || p != "第2周/乌龟.py" {
		t.Fatalf("new lesson %q %v", p, err)
	}
	if _, err := a.NewLesson(g, "乌龟"); problemCode(t, err) != string(lessons.CodeExists) {
		t.Errorf("second lesson of the same name: %v", err)
	}
	if _, err := a.NewLesson("", "a/b"); problemCode(t, err) != string(lessons.CodeBadName) {
		t.Errorf("bad name: %v", err)
	}
	p, err = a.RenameLesson(p, "海龟")
	if err != nil || p != "第2周/海龟.py" {
		t.Fatalf("rename %q %v", p, err)
	}
	dup, err := a.DuplicateLesson(p)
	if err != nil || dup != "第2周/海龟 (2).py" {
		t.Fatalf("duplicate %q %v", dup, err)
	}
	d, err := a.DeleteLesson(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "第2周")); !os.IsNotExist(err) {
		t.Fatalf("group still there after delete: %v", err)
	}
	restored, err := a.UndoDelete(d.ID)
	if err != nil || len(restored) != 1 || restored[0] != "第2周" {
		t.Fatalf("undo %v %v", restored, err)
	}
	for _, f := range []string{"第2周/海龟.py", "第2周/海龟 (2).py"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
			t.Errorf("%s not restored: %v", f, err)
		}
	}
	if _, err := a.UndoDelete(d.ID); problemCode(t, err) != string(lessons.CodeNothingToUndo) {
		t.Errorf("second undo: %v", err)
	}
}

func TestRememberAndRestore(t *testing.T) {
	a, _, _ := newTestApp(t)
	if err := a.RememberLesson("2 flower.py", lessons.Position{ScrollTop: 120, Cursor: 33}); err != nil {
		t.Fatal(err)
	}
	v := a.Lessons()
	if v.Open != "2 flower.py" || v.Positions["2 flower.py"].ScrollTop != 120 || v.Positions["2 flower.py"].Cursor != 33 {
		t.Errorf("restored %q %+v", v.Open, v.Positions)
	}
}

func TestWatcherReportsOutsideChanges(t *testing.T) {
	a, sh, root := newTestApp(t)
	l, err := a.OpenLesson("1 star.py")
	if err != nil {
		t.Fatal(err)
	}
	sh.await(t, EventLessons, func(any) bool { return true }) // the first report
	if err := os.WriteFile(filepath.Join(root, "5 new.py"), []byte("print(5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh.await(t, EventLessons, func(d any) bool {
		ev := d.(lessons.ChangedEvent)
		return ev.Tree != nil && strings.Contains(strings.Join(names(ev.Tree), ","), "5 new")
	})
	if err := os.WriteFile(filepath.Join(root, l.Path), []byte("print('changed')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A truncating write can be seen half done; the write that follows is reported too.
	sh.await(t, EventLessonChanged, func(d any) bool {
		ev := d.(lessons.LessonChangedEvent)
		if ev.Kind != lessons.LessonReloaded || ev.Lesson == nil {
			t.Errorf("lesson event %+v", ev)
			return true
		}
		return ev.Lesson.Content == "print('changed')\n"
	})
}

func TestMissingFolderIsAProblemNotAnError(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "not-a-folder")
	os.WriteFile(file, nil, 0o644)
	a := New(filepath.Join(dir, "settings.json"), "")
	a.shell = newFakeShell()
	a.openLessons(filepath.Join(file, "lessons"))
	v := a.Lessons()
	if v.Problem == nil || v.Tree != nil {
		t.Fatalf("view %+v", v)
	}
	if _, err := a.OpenLesson("1 star.py"); err == nil {
		t.Error("opened a lesson without a folder")
	}
}

func TestChooseLessonsFolderSwitchesAndIsKept(t *testing.T) {
	a, sh, _ := newTestApp(t)
	other := filepath.Join(t.TempDir(), "class 2")
	sh.dir = other
	s, err := a.ChooseLessonsFolder()
	if err != nil || s == nil {
		t.Fatalf("choose: %v %v", s, err)
	}
	if s.LessonsDir != other {
		t.Errorf("settings keep %q, want %q", s.LessonsDir, other)
	}
	if v := a.Lessons(); v.Root != other || v.Problem != nil {
		t.Errorf("now showing %+v", v)
	}
	stored := settings.Load(a.settingsPath)
	if stored.LessonsDir != other {
		t.Errorf("settings file has %q", stored.LessonsDir)
	}
	root, _ := a.lessonsRoot(stored)
	if root != other && os.Getenv(lessons.EnvDir) == "" {
		t.Errorf("next start would use %q", root)
	}
	sh.dir = ""
	if s, err := a.ChooseLessonsFolder(); s != nil || err != nil {
		t.Errorf("cancelled dialog gave %v %v", s, err)
	}
}

func TestLessonsFlagWins(t *testing.T) {
	a := New("", "")
	SetLessonsFlag(a, "/tmp/flag-lessons")
	got, err := a.lessonsRoot(settings.Settings{LessonsDir: "/tmp/chosen"})
	if err != nil || got != "/tmp/flag-lessons" {
		t.Errorf("root %q %v", got, err)
	}
}

func TestRunGetsDataFilesOfTheLesson(t *testing.T) {
	a, _, root := newTestApp(t)
	os.WriteFile(filepath.Join(root, "words.txt"), []byte("cat\n"), 0o644)
	files := a.lessonDataFiles("1 star.py")
	if len(files) != 1 || filepath.Base(files[0]) != "words.txt" {
		t.Errorf("data files %v", files)
	}
	if got := a.lessonDataFiles(""); got != nil {
		t.Errorf("code that is no lesson got %v", got)
	}
}

func TestKeptCopyIsNamedInTheWindowsLanguage(t *testing.T) {
	a, _, root := newTestApp(t)
	s := a.GetSettings()
	s.Lang = "zh"
	if _, err := a.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	l, err := a.OpenLesson("2 flower.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "2 flower.py"), []byte("print('from elsewhere')\n"), 0o644)
	kept, err := a.KeepBothLesson(SaveRequest{Path: l.Path, Content: "print(2)\n"})
	if err != nil {
		t.Fatal(err)
	}
	if kept.AsidePath != "2 flower（磁盘上的）.py" {
		t.Errorf("aside %q", kept.AsidePath)
	}
}

// The save dialog starts beside the open lesson, named after it; without a
// lesson, in the lessons folder.
func TestSaveDialogStartsBesideTheLesson(t *testing.T) {
	a, sh, root := newTestApp(t)
	out := filepath.Join(t.TempDir(), "saved.png")
	sh.save = out
	if _, err := a.SaveFile("drawing.png", "aGk="); err != nil {
		t.Fatal(err)
	}
	if sh.saveDir != root || sh.saveName != "drawing.png" {
		t.Errorf("no lesson open: dialog at %q %q", sh.saveDir, sh.saveName)
	}
	if err := os.MkdirAll(filepath.Join(root, "第1周"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "第1周", "彩虹.py"), []byte("print(1)\n"), 0o644)
	for _, tc := range []struct{ lesson, dir, give, want string }{
		{"1 star.py", root, "drawing.png", "1 star.png"},
		{"1 star.py", root, "drawing.svg", "1 star.svg"},
		{"第1周/彩虹.py", filepath.Join(root, "第1周"), "chart-2.png", "彩虹 chart-2.png"},
	} {
		if _, err := a.OpenLesson(tc.lesson); err != nil {
			t.Fatal(err)
		}
		path, err := a.SaveFile(tc.give, "aGk=")
		if err != nil || path != out {
			t.Fatalf("%s: %q %v", tc.lesson, path, err)
		}
		if sh.saveDir != tc.dir || sh.saveName != tc.want {
			t.Errorf("%s: dialog at %q %q, want %q %q", tc.lesson, sh.saveDir, sh.saveName, tc.dir, tc.want)
		}
	}
	if b, _ := os.ReadFile(out); string(b) != "hi" {
		t.Errorf("saved %q", b)
	}
}

// A rename of the open lesson made elsewhere, while the editor holds
// unsaved text, is followed: the window hears the new name, and the draft
// a closing window leaves is saved there, not under the old name again.
func TestOutsideRenameOfTheOpenLessonIsFollowed(t *testing.T) {
	a, sh, root := newTestApp(t)
	l, err := a.OpenLesson("2 flower.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetLessonDirty(l.Path, true); err != nil {
		t.Fatal(err)
	}
	if err := a.AskOnClose(); err != nil {
		t.Fatal(err)
	}
	BeforeClose(a, newFakeCloser(false))
	sh.await(t, EventClosing, func(any) bool { return true })
	if err := a.CloseReady(Draft{Path: l.Path, Content: "print('mine')\n", Version: l.Version}, true); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "第2周"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "2 flower.py"), filepath.Join(root, "第2周", "花.py")); err != nil {
		t.Fatal(err)
	}
	ev := sh.await(t, lessons.EventLessonChanged, func(d any) bool { return true }).(lessons.LessonChangedEvent)
	if ev.Kind != lessons.LessonRenamed || ev.Path != "2 flower.py" || ev.NewPath != "第2周/花.py" || ev.Version == "" {
		t.Fatalf("event %+v, want renamed to 第2周/花.py", ev)
	}
	if ev.Message.Zh == "" || !strings.Contains(ev.Message.En, "“花”") {
		t.Errorf("message %+v", ev.Message)
	}
	Shutdown(a)
	if b, err := os.ReadFile(filepath.Join(root, "第2周", "花.py")); err != nil || string(b) != "print('mine')\n" {
		t.Errorf("renamed lesson holds %q %v, want the draft", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "2 flower.py")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old name was written again: %v", err)
	}
}

// A Chinese window's first start names the starter lessons in Chinese, and
// the window opens the star first, as it does "1 star.py".
func TestStartersNamedInTheWindowsLanguage(t *testing.T) {
	dir := t.TempDir()
	a := New(filepath.Join(dir, "settings.json"), filepath.Join(dir, "cache"))
	a.shell = newFakeShell()
	a.settings = settings.Defaults()
	a.settings.Lang = "zh"
	a.openLessons(filepath.Join(dir, "Kid Coder"))
	t.Cleanup(a.closeLessons)
	v := a.Lessons()
	if got := strings.Join(names(v.Tree), ","); got != "1 星星,2 花朵,3 你好,4 猜数字,5 贪吃蛇,6 点点画画" {
		t.Errorf("tree %q", got)
	}
	if v.Open != "1 星星.py" {
		t.Errorf("open at first start %q", v.Open)
	}
}
