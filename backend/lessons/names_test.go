package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNaturalSort(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"lesson 10", "lesson 2", "lesson 1"}, []string{"lesson 1", "lesson 2", "lesson 10"}},
		{[]string{"第10周", "第2周", "第1周"}, []string{"第1周", "第2周", "第10周"}},
		{[]string{"第１０周", "第２周"}, []string{"第２周", "第１０周"}}, // full-width digits
		{[]string{"b", "A", "a", "B"}, []string{"A", "a", "B", "b"}},
		{[]string{"x10y2", "x10y10", "x9y99"}, []string{"x9y99", "x10y2", "x10y10"}},
		{[]string{"01", "1", "001"}, []string{"1", "01", "001"}},
		{[]string{"star", "star (2)", "st"}, []string{"st", "star", "star (2)"}},
		{[]string{"花朵", "你好", "小海龟"}, []string{"你好", "小海龟", "花朵"}}, // code point order
		{[]string{"99999999999999999999999 a", "100000000000000000000000 a"}, []string{"99999999999999999999999 a", "100000000000000000000000 a"}},
		// Chinese numerals, as parents name weeks and units.
		{[]string{"第十周", "第二周", "第一周", "第十一周", "第三周", "第九周", "第二十周"}, []string{"第一周", "第二周", "第三周", "第九周", "第十周", "第十一周", "第二十周"}},
		{[]string{"第十课", "第九课"}, []string{"第九课", "第十课"}},
		{[]string{"第十周", "第3周", "第11周", "第二周"}, []string{"第二周", "第3周", "第十周", "第11周"}},
		{[]string{"第三周", "第3周"}, []string{"第3周", "第三周"}},
		{[]string{"第一百零一课", "第一百课", "第九十九课", "第两百课"}, []string{"第九十九课", "第一百课", "第一百零一课", "第两百课"}},
		{[]string{"第一万课", "第九千九百九十九课", "第一亿二千万课", "第一亿课"}, []string{"第九千九百九十九课", "第一万课", "第一亿课", "第一亿二千万课"}},
		{[]string{"二〇二四年", "二〇二三年"}, []string{"二〇二三年", "二〇二四年"}},
		{[]string{"第x周", "第30周", "第十周"}, []string{"第十周", "第30周", "第x周"}},
		{[]string{"千纸鹤", "万花筒"}, []string{"万花筒", "千纸鹤"}}, // words, not numbers
	}
	for _, tt := range tests {
		got := slices.Clone(tt.in)
		slices.SortFunc(got, func(a, b string) int {
			if NaturalLess(a, b) {
				return -1
			}
			if NaturalLess(b, a) {
				return 1
			}
			return 0
		})
		if !slices.Equal(got, tt.want) {
			t.Errorf("sort %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNaturalOrderIsTransitive checks every triple of a mixed set: a sort
// with a comparison that is not a strict weak order can lose or repeat items.
func TestNaturalOrderIsTransitive(t *testing.T) {
	names := []string{"第十周", "第30周", "第x周", "第3周", "第三周", "第03周", "第３周", "第十一周", "第一周", "a1", "a01",
		"A1", "a十", "a 10", "a-1", "a", "十", "10", "零", "0", "〇", "第二〇二四", "第2024", "第两千零二十四", "lesson (old)", "lesson 2",
		"第九十九亿亿亿亿亿亿", "第99999999999999999999999", "万花筒", "一起", "1起"}
	less := func(a, b string) bool { return NaturalLess(a, b) }
	for _, a := range names {
		if less(a, a) {
			t.Errorf("%q < itself", a)
		}
		for _, b := range names {
			if a != b && less(a, b) == less(b, a) {
				t.Errorf("%q and %q: not ordered one way (%v)", a, b, less(a, b))
			}
			for _, c := range names {
				if less(a, b) && less(b, c) && !less(a, c) {
					t.Errorf("%q < %q < %q but not %q < %q", a, b, c, a, c)
				}
			}
		}
	}
}

func TestIgnored(t *testing.T) {
	for name, want := range map[string]bool{
		"star.py": false, "words.txt": false, "第1周": false,
		".star.py.swp": true, ".star.py.swx": true, "star.py~": true, ".DS_Store": true,
		".#star.py": true, "4913": true, ".trash": true, ".kidcoder": true, ".goutputstream-X1": true,
		"Thumbs.db": true, "__pycache__": true, "~$doc.docx": true,
	} {
		if got := Ignored(name); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestCheckName is the one name rule, attacked with the names the lessons
// tree hides and those Windows, a terminal or a reader would take wrongly.
func TestCheckName(t *testing.T) {
	for name, want := range map[string]string{
		"star": "", "star.py": "", "我的 星星.py": "", "lesson 2": "", "👩\u200D💻.py": "", "4913.py": "", "notes~.py": "",
		"": NameEmpty, ".py": NameEmpty, " ": NameEmpty,
		".hidden": NameHidden, "__pycache__": NameHidden, "desktop.ini": NameHidden, "Desktop.INI": NameHidden,
		"Thumbs.db": NameHidden, "notes~": NameHidden, "~$doc.py": NameHidden, "x.swp": NameHidden, "4913": NameHidden,
		"a/b.py": NameChar, `a\b.py`: NameChar, "x:ads.py": NameChar, "a*.py": NameChar, "a?.py": NameChar,
		"a<b.py": NameChar, "a>b.py": NameChar, "a|b.py": NameChar, `say "hi".py`: NameChar,
		"CON.py": NameReserved, "con": NameReserved, "CON.txt": NameReserved, "nul.tar.gz": NameReserved, "CON .txt": NameReserved, "CON .py": NameEdge,
		"COM0.py": NameReserved, "com9.py": NameReserved, "LPT0": NameReserved, "lpt9.md": NameReserved,
		"COM¹.py": NameReserved, "COM².py": NameReserved, "com³": NameReserved, "LPT¹.py": NameReserved, "lpt².py": NameReserved, "LPT³.txt": NameReserved,
		"CONIN$.py": NameReserved, "conout$": NameReserved, "CONOUT$.md": NameReserved,
		"trailing.": NameEdge, "trailing..py": NameEdge, " lead.py": NameEdge, "end .py": NameEdge, "end ": NameEdge, "\u3000全角.py": NameEdge,
		"tab\there.py": NameInvisible, "line\nbreak.py": NameInvisible, "cr\r.py": NameInvisible, "del\x7f.py": NameInvisible,
		"c1\u0085.py": NameInvisible, "sep\u2028.py": NameInvisible, "para\u2029.py": NameInvisible,
		"gpj\u202E.py": NameInvisible, "iso\u2066x.py": NameInvisible, "zero\u200Bwidth.py": NameInvisible,
		"joiner\u200D.py": NameInvisible, "bom\uFEFF.py": NameInvisible, "\xff.py": NameInvisible,
		strings.Repeat("长", MaxNameRunes+1) + ".py": NameLong, strings.Repeat("长", MaxNameRunes) + ".py": "",
		strings.Repeat("😀", 58) + ".py": NameLong,
	} {
		err := CheckName(name)
		var ne *NameError
		got := ""
		if err != nil {
			if !errors.Is(err, ErrBadName) || !errors.As(err, &ne) {
				t.Errorf("CheckName(%+q) = %v, want a bad_name with its reason", name, err)
				continue
			}
			got = ne.Reason
		}
		if got != want {
			t.Errorf("CheckName(%+q) = %q, want %q", name, got, want)
		}
	}
}

// TestBadNameSaysWhatToChange: each reason has its own text in both
// languages, and the Problem the window shows carries it.
func TestBadNameSaysWhatToChange(t *testing.T) {
	for name, want := range map[string][2]string{
		"CON.py": {"CON", "Windows"}, "a|b.py": {"|", "|"}, "__pycache__": {"隐藏", "hides"},
		"": {"空", "empty"}, "x\n.py": {"看不见", "can’t see"}, "x.": {"结尾", "end"},
		strings.Repeat("x", 100): {"70", "70"},
	} {
		p := ProblemOf(CheckName(name))
		if p.Code != CodeBadName || !strings.Contains(p.Zh, want[0]) || !strings.Contains(p.En, want[1]) {
			t.Errorf("%+q: %+v, want it to name %q / %q", name, p, want[0], want[1])
		}
	}
}

// TestNamesLoseInvisibleCharacters: a right-to-left override or another
// invisible format character never reaches a file or folder name.
func TestNamesLoseInvisibleCharacters(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"old.py": "", "old.md": ""})
	tests := []struct {
		name string
		do   func() (string, error)
		want string
	}{
		{"new lesson", func() (string, error) { return l.New("", "home\u202Ework\u200B.py") }, "homework.py"},
		{"new group", func() (string, error) { return l.NewGroup("", "\u2066第1周\u2069\uFEFF") }, "第1周"},
		{"rename", func() (string, error) { return l.Rename("old.py", "yp.exe\u202E") }, "yp.exe.py"},
		{"rename group", func() (string, error) { return l.Rename("第1周", "第\u200F2周") }, "第2周"},
		{"emoji sequence kept", func() (string, error) { return l.New("", "👩\u200D💻") }, "👩\u200D💻.py"},
	}
	for _, tt := range tests {
		got, err := tt.do()
		if err != nil || got != tt.want {
			t.Errorf("%s = %+q, %v; want %+q", tt.name, got, err, tt.want)
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(got))); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "yp.exe.md")); err != nil {
		t.Errorf("instructions not renamed with the cleaned name: %v", err)
	}
	for _, name := range []string{"\u202E", "\u200B\u200D"} {
		if _, err := l.New("", name); !errors.Is(err, ErrBadName) {
			t.Errorf("New(%+q) = %v, want ErrBadName", name, err)
		}
	}
}

// attackNames are names a red team made through writers that skipped the
// window's rule: each must be refused by every writer of the folder.
var attackNames = []string{
	"CON", "x:ads", "line\nbreak", "tab\there", "a*b", "a?b", "a<b", "a>b", "a|b", `say "hi"`,
	"COM¹", "COM²", "COM³", "LPT¹", "LPT²", "LPT³", "CONIN$", "CONOUT$", "com0", "LPT0",
}

// hiddenNames are names the lessons tree never shows.
var hiddenNames = []string{"__pycache__", "desktop.ini", "Thumbs.db", "notes~", ".secret", "x.tmp", "4913"}

// TestEveryWriterKeepsTheNameRule attacks each way a new name reaches the
// folder: a save to a path that is not there yet (the window's autosave
// binding and an AI host's write_lesson both come here), a new lesson or
// group, a rename, and a Writer (an exercise pack's import). Nothing is
// made, and the refusal is a bad_name that says why.
func TestEveryWriterKeepsTheNameRule(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"old.py": "", "group/keep.py": ""})
	w, err := OpenWriter(root)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	type writer struct {
		name string
		do   func(name string) error
	}
	lessonWriters := []writer{
		{"save", func(n string) error { _, err := l.Save(n+LessonExt, "print(1)\n", "", SaveOptions{}); return err }},
		{"save in a group", func(n string) error { _, err := l.Save("group/"+n+LessonExt, "x", "", SaveOptions{}); return err }},
		{"keep both", func(n string) error { _, err := l.KeepBoth(n+LessonExt, "x", SaveOptions{}); return err }},
		{"new lesson", func(n string) error { _, err := l.New("", n); return err }},
		{"rename", func(n string) error { _, err := l.Rename("old.py", n); return err }},
		{"writer file", func(n string) error { return w.CreateFile(n+LessonExt, nil) }},
		{"writer replace", func(n string) error { return w.WriteFile(n+LessonExt, nil) }},
	}
	groupWriters := []writer{
		{"new group", func(n string) error { _, err := l.NewGroup("", n); return err }},
		{"rename group", func(n string) error { _, err := l.Rename("group", n); return err }},
		{"writer group", func(n string) error { _, err := w.MakeGroup(n); return err }},
		{"writer folder", func(n string) error { return w.ReplaceFolder("pack", map[string][]byte{n + "/a.py": nil}) }},
		{"writer data file", func(n string) error { return w.CreateFile(n, nil) }},
	}
	try := func(ws []writer, names []string) {
		for _, wr := range ws {
			for _, n := range names {
				err := wr.do(n)
				var ne *NameError
				if !errors.Is(err, ErrBadName) || !errors.As(err, &ne) {
					t.Errorf("%s %+q: %v, want a bad_name that says why", wr.name, n, err)
				}
			}
		}
	}
	try(lessonWriters, attackNames)
	try(groupWriters, append(slices.Clone(attackNames), hiddenNames...))
	entries, _ := os.ReadDir(root)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if want := []string{"group", "old.py"}; !slices.Equal(got, want) {
		t.Errorf("the folder holds %q, want %q", got, want)
	}
	if e, _ := os.ReadDir(filepath.Join(root, "group")); len(e) != 1 {
		t.Errorf("the group holds %d entries, want 1", len(e))
	}
}

// TestOpenLessonDeletedOnDiskIsWrittenAgain: a lesson the window opened
// keeps its name when it was deleted elsewhere, even a name made by another
// program that the rule would refuse now, so autosave loses nothing.
func TestOpenLessonDeletedOnDiskIsWrittenAgain(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{"COM¹.py": "v1"})
	les, err := l.Open("COM¹.py")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "COM¹.py"))
	if _, err := l.Save("COM¹.py", "v2", les.Version, SaveOptions{}); err != nil {
		t.Fatalf("saving the open lesson again: %v", err)
	}
	if _, err := l.Save("COM².py", "v2", "", SaveOptions{}); !errors.Is(err, ErrBadName) {
		t.Fatalf("a new lesson COM².py: %v, want bad_name", err)
	}
}
