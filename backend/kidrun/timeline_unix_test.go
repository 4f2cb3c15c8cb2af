//go:build unix

package kidrun

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"kidcoder/backend/safefile"
	"kidcoder/backend/safefile/safefiletest"
)

// An events file is read as every file from outside the app is: a link,
// a FIFO or an oversize file is refused, never followed, waited on or read
// without end.
func TestReadTimelineSafely(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	os.WriteFile(good, []byte(`{"at_ms": 1, "type": "close"}`), 0o600)
	if tl, err := ReadTimeline(good); err != nil || len(tl) != 1 {
		t.Fatalf("good file: %+v %v", tl, err)
	}
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(good, link)
	if _, err := ReadTimeline(link); !errors.Is(err, safefile.ErrSymlink) {
		t.Errorf("link: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := safefiletest.Promptly(t, "reading a FIFO", func() error { _, err := ReadTimeline(fifo); return err }); !errors.Is(err, safefile.ErrNotRegular) {
		t.Errorf("FIFO: %v", err)
	}
	big := filepath.Join(dir, "big.jsonl")
	os.WriteFile(big, make([]byte, MaxTimelineBytes+1), 0o600)
	if _, err := ReadTimeline(big); !errors.Is(err, safefile.ErrTooLarge) {
		t.Errorf("oversize: %v", err)
	}
}
