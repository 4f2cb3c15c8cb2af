package mcpserver

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestWriteLessonKeepsTheNameRule: write_lesson once made CON.py, x:ads.py,
// names with a line break, a right-to-left override or a zero-width space,
// and names with * ? < > | ". Each is now a tool error that says what to
// change (in the server's language), and nothing is written.
func TestWriteLessonKeepsTheNameRule(t *testing.T) {
	root, lib := lessonsDir(t)
	cs := connect(t, newServer(t, nil, lib, true))
	for _, tc := range []struct{ path, says string }{
		{"CON.py", "Windows"}, {"con.py", "Windows"}, {"COM¹.py", "Windows"}, {"LPT³.py", "Windows"},
		{"CONIN$.py", "Windows"}, {"CONOUT$.py", "Windows"}, {"com0.py", "Windows"},
		{"x:ads.py", ":"}, {"a*b.py", "*"}, {"a?b.py", "?"}, {"a<b.py", "<"}, {"a>b.py", ">"}, {"a|b.py", "|"}, {`"q".py`, `"`},
		{"line\nbreak.py", "can’t see"}, {"tab\t.py", "can’t see"}, {"gpj\u202E.py", "can’t see"},
		{"zero\u200Bwidth.py", "can’t see"}, {"sep\u2028.py", "can’t see"},
		{"end .py", "space"}, {strings.Repeat("x", 80) + ".py", "too long"},
	} {
		res := call(t, cs, "write_lesson", map[string]any{"path": tc.path, "code": "print('hi')\n"})
		if !res.IsError || !strings.Contains(textOf(res), tc.says) {
			t.Errorf("write_lesson %+q: isError=%v %q, want a tool error saying %q", tc.path, res.IsError, textOf(res), tc.says)
		}
	}
	entries, _ := os.ReadDir(root)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != 0 {
		t.Errorf("write_lesson made %q", got)
	}
	// A good name is written.
	if res := call(t, cs, "write_lesson", map[string]any{"path": "我的 星星.py", "code": "x = 1\n"}); res.IsError {
		t.Fatalf("write_lesson of a good name: %s", textOf(res))
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 || !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == "我的 星星.py" }) {
		t.Errorf("the folder holds %v", entries)
	}
}
