package lessons

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenLessonFollowedByContent: a move that copies and deletes (another
// disk, a sync client) gives the lesson a new file; it is followed when
// exactly one lesson that appeared since the last look holds its content,
// and reported deleted otherwise.
func TestOpenLessonFollowedByContent(t *testing.T) {
	for _, tt := range []struct {
		name   string
		copies []string // made from a.py before it goes
		added  []string // what the watcher saw appear since its last look
		want   []string // kinds, with the new path for renamed
	}{
		{"one copy", []string{"b.py"}, []string{"b.py"}, []string{"renamed b.py"}},
		{"into a group", []string{"g/b.py"}, []string{"g/b.py"}, []string{"renamed g/b.py"}},
		{"two copies", []string{"b.py", "c.py"}, []string{"b.py", "c.py"}, []string{"deleted"}},
		{"a copy made long before", []string{"b.py"}, nil, []string{"deleted"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, root := newTestLibrary(t, map[string]string{"a.py": "x = 1\n", "g/other.py": "y = 2\n"})
			if _, err := l.Open("a.py"); err != nil {
				t.Fatal(err)
			}
			l.SetDirty("a.py", true)
			lessons := map[string]bool{"g/other.py": true}
			for _, c := range tt.copies {
				if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(c)), []byte("x = 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				lessons[c] = true
			}
			if err := os.Remove(filepath.Join(root, "a.py")); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range l.checkOpen(lessons, tt.added) {
				if ev.Path != "a.py" {
					t.Errorf("event for %q", ev.Path)
				}
				k := ev.Kind
				if k == LessonRenamed {
					k += " " + ev.NewPath
				}
				got = append(got, k)
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Fatalf("events %v, want %v", got, tt.want)
			}
			if tt.want[0] == "deleted" {
				return
			}
			// From now on the lesson is the new file: its save is no conflict.
			if _, err := l.Save(tt.added[0], "x = 3\n", l.open.version, SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			if l.open.rel != tt.added[0] || !l.open.dirty {
				t.Errorf("open %+v", l.open)
			}
		})
	}
}
