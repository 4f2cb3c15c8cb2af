package lessons

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"kidcoder/backend/text"
)

func newTestLibrary(t *testing.T, files map[string]string) (*Library, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "lessons")
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := NewLibrary(root)
	if err != nil {
		t.Fatal(err)
	}
	return l, root
}

func TestListTree(t *testing.T) {
	l, _ := newTestLibrary(t, map[string]string{
		"lesson 10.py": "", "lesson 2.py": "", "lesson 2.md": "# 2",
		"第10周/a.py": "", "第2周/b.py": "", "第2周/words.txt": "",
		"notes.txt": "", ".trash/x/files/old.py": "", ".kidcoder/state.json": "{}",
		"a.py~": "", ".a.py.swp": "", "空/.keep": "",
	})
	tree, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	want := "空/\n第2周/\n\tb.py\n第10周/\n\ta.py\nlesson 2.py +md\nlesson 10.py\n"
	if got := renderTree(tree); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if tree.Children[1].Path != "第2周" || tree.Children[1].Children[0].Path != "第2周/b.py" {
		t.Errorf("paths: %+v", tree.Children[1])
	}
}

func TestFolderMissing(t *testing.T) {
	if _, err := NewLibrary(filepath.Join(t.TempDir(), "gone")); !errors.Is(err, ErrFolderMissing) {
		t.Errorf("missing folder: %v", err)
	}
	l, root := newTestLibrary(t, nil)
	os.RemoveAll(root)
	if _, err := l.List(); !errors.Is(err, ErrFolderMissing) || CodeOf(err) != CodeFolderMissing {
		t.Errorf("List on deleted folder: %v", err)
	}
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		os.MkdirAll(root, 0o000)
		defer os.Chmod(root, 0o755)
		if _, err := l.List(); !errors.Is(err, ErrFolderUnreadable) {
			t.Errorf("List on unreadable folder: %v", err)
		}
	}
}

func TestOpenTooLarge(t *testing.T) {
	l, _ := newTestLibrary(t, map[string]string{
		"big.py":     strings.Repeat("#", MaxLessonSize+1),
		"limit.py":   strings.Repeat("#", MaxLessonSize),
		"binary.py":  "print(1)\x00\x01",
		"nolesson.c": "int main;",
	})
	if _, err := l.Open("big.py"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big: %v", err)
	}
	if lesson, err := l.Open("limit.py"); err != nil || len(lesson.Content) != MaxLessonSize {
		t.Errorf("exactly 1 MiB: %v", err)
	}
	if _, err := l.Open("binary.py"); !errors.Is(err, ErrBinary) {
		t.Errorf("binary: %v", err)
	}
	if _, err := l.Open("nolesson.c"); !errors.Is(err, ErrNotLesson) {
		t.Errorf("not a lesson: %v", err)
	}
	if _, err := l.Save("limit.py", strings.Repeat("#", MaxLessonSize+1), "", SaveOptions{}); err == nil {
		t.Error("saved more than 1 MiB over a file")
	}
	if _, err := l.Save("new.py", strings.Repeat("#", MaxLessonSize+1), "", SaveOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("save too large: %v", err)
	}
}

func TestGBK(t *testing.T) {
	src := "# 猜数字\nprint(\"你好，世界！\")\n"
	gbk, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	l, root := newTestLibrary(t, map[string]string{"gbk.py": string(gbk)})
	lesson, err := l.Open("gbk.py")
	if err != nil {
		t.Fatal(err)
	}
	if lesson.Content != src || lesson.Encoding != EncGB18030 || !lesson.NeedsConversion {
		t.Fatalf("decoded %q as %s (ask %v)", lesson.Content, lesson.Encoding, lesson.NeedsConversion)
	}
	// Without the user's consent the file keeps its encoding.
	edited := src + "print(\"再见\")\n"
	res, err := l.Save("gbk.py", edited, lesson.Version, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	disk, _ := os.ReadFile(filepath.Join(root, "gbk.py"))
	if want, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(edited)); !bytes.Equal(disk, want) {
		t.Errorf("kept-encoding save wrote %q", disk)
	}
	// With it, UTF-8.
	res, err = l.Save("gbk.py", edited, res.Version, SaveOptions{ConvertToUTF8: true})
	if err != nil {
		t.Fatal(err)
	}
	disk, _ = os.ReadFile(filepath.Join(root, "gbk.py"))
	if string(disk) != edited || res.Encoding != EncUTF8 {
		t.Errorf("converted save wrote %q (%s)", disk, res.Encoding)
	}
	if again, _ := l.Open("gbk.py"); again.NeedsConversion {
		t.Error("still flagged after conversion")
	}
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		in, text, enc string
	}{
		{"print(1)", "print(1)", EncUTF8},
		{"\xEF\xBB\xBFprint(1)", "print(1)", EncUTF8BOM},
		{"\xFF\xFEp\x00i\x00", "pi", EncUTF16LE},
		{"\xC4\xE3\xBA\xC3", "你好", EncGB18030},
		{"\xFFabc", "\uFFFDabc", EncUnknown},
	}
	for _, tt := range tests {
		text, enc, err := decodeText([]byte(tt.in))
		if err != nil || text != tt.text || enc != tt.enc {
			t.Errorf("decode %q = %q, %s, %v; want %q, %s", tt.in, text, enc, err, tt.text, tt.enc)
		}
	}
	if _, err := encodeText("x", EncUnknown, false); !errors.Is(err, ErrNeedsConversion) {
		t.Errorf("unknown encoding saved without consent: %v", err)
	}
}

func TestSymlinkEscape(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	l, root := newTestLibrary(t, map[string]string{"real.py": "x = 1"})
	outside := filepath.Join(filepath.Dir(root), "secret")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "s.py"), []byte("secret"), 0o644)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(outside, "s.py"), filepath.Join(root, "escape.py")))
	must(os.Symlink(outside, filepath.Join(root, "escdir")))
	must(os.Symlink("real.py", filepath.Join(root, "inside.py")))

	for _, rel := range []string{"escape.py", "escdir/s.py", "../secret/s.py", "/etc/passwd.py"} {
		if _, err := l.Open(rel); !errors.Is(err, ErrOutsideFolder) {
			t.Errorf("Open(%q) = %v, want ErrOutsideFolder", rel, err)
		}
		if _, err := l.Save(rel, "pwned", "", SaveOptions{}); !errors.Is(err, ErrOutsideFolder) {
			t.Errorf("Save(%q) = %v, want ErrOutsideFolder", rel, err)
		}
	}
	if _, err := l.New("escdir", "x"); !errors.Is(err, ErrOutsideFolder) {
		t.Errorf("New in escaping link: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "s.py")); string(b) != "secret" {
		t.Fatalf("file outside was changed: %q", b)
	}
	// A link inside the folder works, and saving keeps it a link.
	lesson, err := l.Open("inside.py")
	if err != nil || lesson.Content != "x = 1" {
		t.Fatalf("inside link: %v", err)
	}
	if _, err := l.Save("inside.py", "x = 2", lesson.Version, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(root, "inside.py")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("save replaced the link with a file")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "real.py")); string(b) != "x = 2" {
		t.Errorf("target = %q", b)
	}
	tree, _ := l.List()
	if got := renderTree(tree); got != "inside.py\nreal.py\n" {
		t.Errorf("tree lists links out of the folder:\n%s", got)
	}
	// Data files never include links.
	os.WriteFile(filepath.Join(root, "words.txt"), []byte("a b"), 0o644)
	must(os.Symlink(filepath.Join(outside, "s.py"), filepath.Join(root, "leak.txt")))
	if got := DataFiles(filepath.Join(root, "real.py")); len(got) != 1 || filepath.Base(got[0]) != "words.txt" {
		t.Errorf("DataFiles = %q", got)
	}
}

func TestSaveConflict(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"a.py": "v1"})
	lesson, err := l.Open("a.py")
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.Save("a.py", "mine 1", lesson.Version, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "a.py"), []byte("theirs"), 0o644)
	_, err = l.Save("a.py", "mine 2", res.Version, SaveOptions{})
	var ce *ConflictError
	if !errors.Is(err, ErrConflict) || !errors.As(err, &ce) || ce.DiskVersion == "" || CodeOf(err) != CodeConflict {
		t.Fatalf("save over external edit: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.py")); string(b) != "theirs" {
		t.Fatalf("conflicting save overwrote: %q", b)
	}
	kept, err := l.KeepBoth("a.py", "mine 2", SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if kept.AsidePath != "a (from disk).py" {
		t.Errorf("aside = %q", kept.AsidePath)
	}
	for name, want := range map[string]string{"a.py": "mine 2", "a (from disk).py": "theirs"} {
		if b, _ := os.ReadFile(filepath.Join(root, name)); string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
	}
	// A touch without a content change is not a conflict.
	os.Chtimes(filepath.Join(root, "a.py"), lesson2time(), lesson2time())
	if _, err := l.Save("a.py", "mine 3", kept.Version, SaveOptions{}); err != nil {
		t.Errorf("save after touch: %v", err)
	}
	// A file the UI thinks is new but that someone created meanwhile.
	os.WriteFile(filepath.Join(root, "b.py"), []byte("theirs"), 0o644)
	if _, err := l.Save("b.py", "mine", "", SaveOptions{}); !errors.Is(err, ErrConflict) {
		t.Errorf("save new over existing: %v", err)
	}
}

func TestOperations(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"star.py": "s", "star.md": "# s"})
	exists := func(rel string) bool {
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	g, err := l.NewGroup("", "第1周")
	if err != nil || g != "第1周" {
		t.Fatalf("NewGroup = %q, %v", g, err)
	}
	if _, err := l.NewGroup("", "第1周"); !errors.Is(err, ErrExists) {
		t.Errorf("NewGroup twice: %v", err)
	}
	p, err := l.New("第1周", "lesson 1")
	if err != nil || p != "第1周/lesson 1.py" || !exists(p) {
		t.Fatalf("New = %q, %v", p, err)
	}
	if _, err := l.New("第1周", "lesson 1.py"); !errors.Is(err, ErrExists) {
		t.Errorf("New twice: %v", err)
	}
	if _, err := l.New("", "../x"); !errors.Is(err, ErrBadName) {
		t.Errorf("New bad name: %v", err)
	}
	// Rename carries the instructions along and refuses to replace.
	if _, err := l.Open("star.py"); err != nil {
		t.Fatal(err)
	}
	r, err := l.Rename("star.py", "星星")
	if err != nil || r != "星星.py" || !exists("星星.md") || exists("star.py") || exists("star.md") {
		t.Fatalf("Rename = %q, %v", r, err)
	}
	if l.open == nil || l.open.rel != "星星.py" {
		t.Errorf("open lesson not followed through rename: %+v", l.open)
	}
	if _, err := l.Rename("星星.py", "lesson 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Rename("第1周/lesson 1.py", "../lesson 1"); !errors.Is(err, ErrBadName) {
		t.Errorf("rename out: %v", err)
	}
	if _, err := l.Duplicate("lesson 1.py"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Rename("lesson 1.py", "lesson 1 (2)"); !errors.Is(err, ErrExists) {
		t.Errorf("rename over existing: %v", err)
	}
	d2, err := l.Duplicate("lesson 1 (2).py")
	if err != nil || d2 != "lesson 1 (3).py" || !exists("lesson 1 (3).md") {
		t.Fatalf("Duplicate = %q, %v", d2, err)
	}
	// Delete goes to the trash and comes back.
	del, err := l.Delete("lesson 1.py")
	if err != nil || !slices.Equal(del.Paths, []string{"lesson 1.py", "lesson 1.md"}) || exists("lesson 1.py") {
		t.Fatalf("Delete = %+v, %v", del, err)
	}
	if !exists(".trash/" + del.ID + "/files/lesson 1.py") {
		t.Error("deleted lesson not in the trash")
	}
	delG, err := l.Delete("第1周")
	if err != nil || exists("第1周") {
		t.Fatalf("Delete group: %v", err)
	}
	restored, err := l.Undo("") // the latest: the group
	if err != nil || !slices.Equal(restored, []string{"第1周"}) || !exists("第1周/lesson 1.py") {
		t.Fatalf("Undo group = %q, %v", restored, err)
	}
	if _, err := l.Undo(delG.ID); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("Undo twice: %v", err)
	}
	os.WriteFile(filepath.Join(root, "lesson 1.py"), []byte("new"), 0o644)
	if _, err := l.Undo(del.ID); !errors.Is(err, ErrExists) {
		t.Errorf("Undo over a new file: %v", err)
	}
	os.Remove(filepath.Join(root, "lesson 1.py"))
	if _, err := l.Undo(del.ID); err != nil || !exists("lesson 1.py") || !exists("lesson 1.md") {
		t.Errorf("Undo lesson: %v", err)
	}
	tree, _ := l.List()
	want := "第1周/\n\tlesson 1.py\nlesson 1.py +md\nlesson 1 (2).py +md\nlesson 1 (3).py +md\n"
	if got := renderTree(tree); got != want {
		t.Errorf("tree after operations:\n%s\nwant:\n%s", got, want)
	}
}

func TestState(t *testing.T) {
	l, root := newTestLibrary(t, nil)
	if s := l.State(); s.Open != "" {
		t.Errorf("fresh state %+v", s)
	}
	if err := l.Remember("a.py", Position{ScrollTop: 120, Cursor: 7}); err != nil {
		t.Fatal(err)
	}
	if err := l.Remember("b.py", Position{Cursor: 3}); err != nil {
		t.Fatal(err)
	}
	s := l.State()
	if s.Open != "b.py" || s.Positions["a.py"].ScrollTop != 120 || s.Positions["b.py"].Cursor != 3 {
		t.Errorf("state %+v", s)
	}
	os.WriteFile(filepath.Join(root, ".kidcoder", "state.json"), []byte("{broken"), 0o644)
	if s := l.State(); s.Open != "" {
		t.Errorf("broken state read as %+v", s)
	}
}

func TestDataFiles(t *testing.T) {
	_, root := newTestLibrary(t, map[string]string{
		"game.py": "", "game.md": "", "other.py": "", "other.md": "", "README.md": "r",
		"words.txt": "cat", "scores 10.csv": "", "scores 2.csv": "", ".secret": "", "big.bin": strings.Repeat("x", MaxDataFileBytes+1),
		"sub/inner.txt": "",
	})
	var got []string
	for _, p := range DataFiles(filepath.Join(root, "game.py")) {
		got = append(got, filepath.Base(p))
	}
	want := []string{"README.md", "scores 2.csv", "scores 10.csv", "words.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("DataFiles = %q, want %q", got, want)
	}
	l, _ := NewLibrary(root)
	abs, err := l.LessonDataFiles("game.py")
	if err != nil || len(abs) != len(want) || !filepath.IsAbs(abs[0]) {
		t.Errorf("LessonDataFiles = %q, %v", abs, err)
	}
	if _, err := l.LessonDataFiles("../x.py"); !errors.Is(err, ErrOutsideFolder) {
		t.Errorf("LessonDataFiles outside: %v", err)
	}
	for i := 0; i < MaxDataFiles+5; i++ {
		os.WriteFile(filepath.Join(root, "f"+itoa(i)+".txt"), nil, 0o644)
	}
	if n := len(DataFiles(filepath.Join(root, "game.py"))); n != MaxDataFiles {
		t.Errorf("%d data files, want the cap %d", n, MaxDataFiles)
	}
}

func TestStarters(t *testing.T) {
	root := filepath.Join(t.TempDir(), "Kid Coder")
	l, err := Setup(root, "en")
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := l.List()
	want := "1 star.py +md\n2 flower.py +md\n3 hello.py +md\n4 guess.py +md\n5 snake.py +md\n6 click-draw.py +md\n"
	if got := renderTree(tree); got != want {
		t.Fatalf("first start:\n%s", got)
	}
	for _, name := range StarterLessons("en") {
		if strings.HasSuffix(name, ".md") {
			b, _ := os.ReadFile(filepath.Join(root, name))
			if !strings.Contains(string(b), "中文") || !strings.Contains(string(b), "English") {
				t.Errorf("%s is not bilingual", name)
			}
		}
	}
	// A parent's edit survives the next start, and deleted starters stay deleted.
	os.WriteFile(filepath.Join(root, "1 star.py"), []byte("mine"), 0o644)
	os.Remove(filepath.Join(root, "2 flower.py"))
	if _, err := Setup(root, "en"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "1 star.py")); string(b) != "mine" {
		t.Errorf("starter overwrote a parent's edit: %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "2 flower.py")); err == nil {
		t.Error("deleted starter came back")
	}
	// A folder that already has work gets no starters, and nothing is replaced.
	other := filepath.Join(t.TempDir(), "existing")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "1 star.py"), []byte("kept"), 0o644)
	if _, err := Setup(other, "en"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(other)
	if b, _ := os.ReadFile(filepath.Join(other, "1 star.py")); string(b) != "kept" || len(entries) != 2 { // + .kidcoder
		t.Errorf("starters written into a used folder: %d entries, star %q", len(entries), b)
	}
	// Even when written, createNew never replaces an existing file.
	if err := createNew(filepath.Join(other, "1 star.py"), []byte("x"), 0o644); !errors.Is(err, os.ErrExist) {
		t.Errorf("createNew over a file: %v", err)
	}
}

// A Chinese window's folder starts with every lesson named in Chinese, an
// English one's in English: no set mixes the two. Either way the star is the
// lesson the window opens first, and its instructions come along.
func TestStartersNamedInOneLanguage(t *testing.T) {
	for _, tc := range []struct{ lang, want, star string }{
		{"zh", "1 星星.py +md\n2 花朵.py +md\n3 你好.py +md\n4 猜数字.py +md\n5 贪吃蛇.py +md\n6 点点画画.py +md\n", "1 星星.py"},
		{"en", "1 star.py +md\n2 flower.py +md\n3 hello.py +md\n4 guess.py +md\n5 snake.py +md\n6 click-draw.py +md\n", "1 star.py"},
	} {
		l, err := Setup(filepath.Join(t.TempDir(), "Kid Coder"), tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		tree, _ := l.List()
		if got := renderTree(tree); got != tc.want {
			t.Errorf("%s: first start:\n%s", tc.lang, got)
		}
		for _, n := range tree.Children {
			han := strings.ContainsFunc(n.Name, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff })
			latin := strings.ContainsFunc(n.Name, func(r rune) bool { return r >= 'a' && r <= 'z' })
			if han == (tc.lang == "en") || latin == (tc.lang == "zh") {
				t.Errorf("%s: %q is not named in %s", tc.lang, n.Name, tc.lang)
			}
		}
		if st := l.State(); st.Open != tc.star {
			t.Errorf("%s: open at first start %q, want %q", tc.lang, st.Open, tc.star)
		}
		if lesson, err := l.Open(tc.star); err != nil || lesson.Content != StarDemo() || lesson.Instructions == "" {
			t.Errorf("%s: the star lesson is not the demo: %v", tc.lang, err)
		}
	}
	// Every embedded starter has its Chinese name.
	for _, s := range starters("zh") {
		if s.name == s.file {
			t.Errorf("%s has no Chinese name", s.file)
		}
	}
}

func TestStarDemo(t *testing.T) {
	code := StarDemo()
	for _, must := range []string{`"gold"`, "begin_fill()", "end_fill()", "range(5)", "forward(", "right(144)", ".dot(", "speed(", "print(\"你好", "print(\"Hello"} {
		if !strings.Contains(code, must) {
			t.Errorf("star demo lacks %s", must)
		}
	}
	if strings.Contains(code, "input(") {
		t.Error("star demo waits for input")
	}
	l, err := Setup(filepath.Join(t.TempDir(), "k"), "en")
	if err != nil {
		t.Fatal(err)
	}
	if lesson, err := l.Open(starName); err != nil || lesson.Content != code || lesson.Instructions == "" {
		t.Errorf("starter star differs from the demo: %v", err)
	}
}

// The window reads a problem as {code, zh, en}, and an unclassified error
// as its own text in both languages.
func TestProblemJSON(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{newErr(CodeNotFound, "a.py", nil), `{"code":"not_found","zh":"找不到这个课程文件。","en":"This lesson file can't be found."}`},
		{errors.New("disk on fire"), `{"code":"","zh":"disk on fire","en":"disk on fire"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(ProblemOf(tt.err))
		if err != nil || string(b) != tt.want {
			t.Errorf("ProblemOf(%v) = %s, %v; want %s", tt.err, b, err, tt.want)
		}
	}
}

func TestMessagesComplete(t *testing.T) {
	codes := []Code{CodeFolderMissing, CodeFolderUnreadable, CodeNotFound, CodeUnreadable, CodeExists, CodeBadName, CodeOutsideFolder,
		CodeTooLarge, CodeBinary, CodeNeedsConversion, CodeConflict, CodeNotLesson, CodeNothingToUndo, CodeWriteFailed,
		CodeChangedOnDisk, CodeKeptBoth, CodeDeletedOnDisk, CodeRenamedOnDisk, CodeNoDocumentsFolder, CodeNotPlainFile}
	var keys []string
	for _, k := range text.Keys() {
		if strings.HasPrefix(k, "lessons.") {
			keys = append(keys, k)
		}
	}
	for _, c := range codes {
		m, ok := c.Text(nil), slices.Contains(keys, "lessons."+string(c))
		if !ok || m.Zh == "" || m.En == "" || m.Zh == m.En {
			t.Errorf("%s: %+v", c, m)
		}
	}
	reasons := []string{NameEmpty, NameInvisible, NameChar, NameEdge, NameReserved, NameHidden, NameLong}
	for _, r := range reasons {
		if m := (&NameError{Reason: r}).Text(); !slices.Contains(keys, "lessons.bad_name."+r) || m.Zh == "" || m.En == "" || m.Zh == m.En {
			t.Errorf("name reason %s: %+v", r, m)
		}
	}
	if len(keys) != len(codes)+len(reasons) {
		t.Errorf("%d messages for %d codes and %d name reasons", len(keys), len(codes), len(reasons))
	}
	if got := CodeKeptBoth.Text(map[string]string{"name": "a (from disk).py"}).In("zh"); !strings.Contains(got, "a (from disk).py") {
		t.Errorf("kept-both zh = %q", got)
	}
}

func TestKeepBothNamesTheCopyInTheChildsLanguage(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"", "a (from disk).py"},
		{"en", "a (from disk).py"},
		{"zh", "a（磁盘上的）.py"},
	} {
		l, root := newTestLibrary(t, map[string]string{"a.py": "v1"})
		l.SetLang(tc.lang)
		if _, err := l.Open("a.py"); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, "a.py"), []byte("theirs"), 0o644)
		kept, err := l.KeepBoth("a.py", "mine", SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if kept.AsidePath != tc.want {
			t.Errorf("lang %q: aside = %q, want %q", tc.lang, kept.AsidePath, tc.want)
		}
		if b, _ := os.ReadFile(filepath.Join(root, tc.want)); string(b) != "theirs" {
			t.Errorf("lang %q: aside holds %q", tc.lang, b)
		}
	}
}

func TestListTreeChineseNumerals(t *testing.T) {
	files := map[string]string{}
	for _, g := range []string{"第一周", "第三周", "第二周", "第十一周", "第十周", "第9周"} {
		files[g+"/第十课.py"] = ""
		files[g+"/第九课.py"] = ""
	}
	l, _ := newTestLibrary(t, files)
	tree, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range tree.Children {
		got = append(got, g.Name+":"+g.Children[0].Name+","+g.Children[1].Name)
	}
	want := "第一周:第九课,第十课 第二周:第九课,第十课 第三周:第九课,第十课 第9周:第九课,第十课 第十周:第九课,第十课 第十一周:第九课,第十课"
	if strings.Join(got, " ") != want {
		t.Errorf("tree %v\nwant %s", got, want)
	}
}
