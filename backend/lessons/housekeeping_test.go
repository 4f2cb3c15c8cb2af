package lessons

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTidy(t *testing.T) {
	l, root := newTestLibrary(t, map[string]string{
		"a.py": "", ".a.py.123456.tmp": "killed save", "g/.b.py.99.tmp": "killed save",
		".a.py.777.tmp": "save in progress", "keep.tmp.py": "",
	})
	now := time.Now()
	old := now.Add(-time.Hour)
	os.Chtimes(filepath.Join(root, ".a.py.123456.tmp"), old, old)
	os.Chtimes(filepath.Join(root, "g", ".b.py.99.tmp"), old, old)
	delOld, err := l.Delete("a.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "b.py"), nil, 0o644)
	delNew, err := l.Delete("b.py")
	if err != nil {
		t.Fatal(err)
	}
	// Make the first deletion one from long ago.
	delOld.When = now.Add(-TrashKeep - time.Hour)
	m, _ := json.Marshal(delOld)
	os.WriteFile(filepath.Join(root, trashDir, delOld.ID, manifestName), m, 0o644)
	if n := l.Tidy(now); n != 3 {
		t.Errorf("removed %d entries, want 3", n)
	}
	for rel, want := range map[string]bool{
		".a.py.123456.tmp": false, "g/.b.py.99.tmp": false, ".a.py.777.tmp": true, "keep.tmp.py": true,
		".trash/" + delOld.ID: false, ".trash/" + delNew.ID: true,
	} {
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", rel, err == nil, want)
		}
	}
}
