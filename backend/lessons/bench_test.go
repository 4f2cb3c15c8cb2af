package lessons

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkWatchLatency measures from an external create to the tree event
// that shows it; the target is well under a second (debounce is 150 ms).
func BenchmarkWatchLatency(b *testing.B) {
	root := b.TempDir()
	l, err := NewLibrary(root)
	if err != nil {
		b.Fatal(err)
	}
	rec := newRecorder()
	if err := l.Watch(rec); err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	cur := 0
	if _, ok := rec.waitList(&cur, func(ev ChangedEvent) bool { return ev.Tree != nil }); !ok {
		b.Fatal("no first tree")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		name := fmt.Sprintf("lesson %d.py", i)
		if err := os.WriteFile(filepath.Join(root, name), []byte("print(1)"), 0o644); err != nil {
			b.Fatal(err)
		}
		if _, ok := rec.waitList(&cur, func(ev ChangedEvent) bool {
			return ev.Tree != nil && strings.Contains(renderTree(ev.Tree), name)
		}); !ok {
			b.Fatalf("%s never listed", name)
		}
	}
}

func BenchmarkList(b *testing.B) {
	root := b.TempDir()
	for g := 0; g < 20; g++ {
		dir := filepath.Join(root, fmt.Sprintf("第%d周", g))
		os.MkdirAll(dir, 0o755)
		for i := 0; i < 25; i++ {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("lesson %d.py", i)), nil, 0o644)
		}
	}
	l, err := NewLibrary(root)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.List(); err != nil {
			b.Fatal(err)
		}
	}
}
