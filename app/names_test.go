package app

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"kidcoder/backend/lessons"
)

// TestWindowKeepsTheNameRule attacks the window's bindings with the names
// an AI host once made: an autosave to a new path, a new lesson or group and
// a rename are all refused with a bad_name whose text says what to change,
// and nothing is made.
func TestWindowKeepsTheNameRule(t *testing.T) {
	a, _, root := newTestApp(t)
	before := dirNames(t, root)
	generic := lessons.CodeBadName.Text(nil)
	for _, name := range []string{
		"CON", "x:ads", "line\nbreak", "a*b", "a?b", "a<b", "a>b", "a|b", `say "hi"`,
		"COM¹", "COM²", "COM³", "LPT¹", "LPT²", "LPT³", "CONIN$", "CONOUT$",
	} {
		for what, do := range map[string]func() error{
			"save": func() error {
				_, err := a.SaveLesson(SaveRequest{Path: name + ".py", Content: "print(1)\n"})
				return err
			},
			"keep both":  func() error { _, err := a.KeepBothLesson(SaveRequest{Path: name + ".py", Content: "x"}); return err },
			"new lesson": func() error { _, err := a.NewLesson("", name); return err },
			"new group":  func() error { _, err := a.NewGroup("", name); return err },
			"rename":     func() error { _, err := a.RenameLesson(before[0], name); return err },
		} {
			err := do()
			if err == nil {
				t.Errorf("%s %+q: made", what, name)
				continue
			}
			var p ProblemError
			if code := problemCode(t, err); code != string(lessons.CodeBadName) || json.Unmarshal([]byte(err.Error()), &p) != nil || p.Text == generic {
				t.Errorf("%s %+q: %v, want a bad_name that says what to change", what, name, err)
			}
		}
	}
	for _, name := range []string{"__pycache__", "desktop.ini", "Thumbs.db", "notes~"} {
		if _, err := a.NewGroup("", name); err == nil || problemCode(t, err) != string(lessons.CodeBadName) {
			t.Errorf("new group %q: %v, want bad_name", name, err)
		}
	}
	if after := dirNames(t, root); !slices.Equal(after, before) {
		t.Errorf("the folder holds %q, had %q", after, before)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Name()[0] != '.' {
			out = append(out, e.Name())
		}
	}
	return out
}
