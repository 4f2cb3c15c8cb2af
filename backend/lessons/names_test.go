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

func TestCheckName(t *testing.T) {
	for name, ok := range map[string]bool{
		"star": true, "我的 星星": true, "lesson 2": true,
		"": false, ".hidden": false, "a/b": false, `a\b`: false, "con": false, "CON.txt": false,
		"trailing.": false, " lead": false, "tab\there": false, "a:b": false,
		strings.Repeat("长", 81): false, strings.Repeat("长", 80): true,
	} {
		if err := checkName(name); (err == nil) != ok {
			t.Errorf("checkName(%q) = %v, want ok=%v", name, err, ok)
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
