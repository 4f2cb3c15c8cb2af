//go:build unix

package kidrun

import (
	"bytes"
	"errors"
	"kidcoder/backend/safefile/safefiletest"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"kidcoder/backend/safefile"
)

// TestCopyDataFileRefuses: a data file beside a lesson that is a link, a
// FIFO or a device is not copied into the sandbox, and the copy returns at
// once instead of waiting on the FIFO or reading /dev/zero without end.
func TestCopyDataFileRefuses(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	words := filepath.Join(dir, "words.txt")
	os.WriteFile(words, []byte("cat dog"), 0o644)
	os.Symlink(secret, filepath.Join(dir, "link.txt"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.txt"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, maxDataFile+1), 0o644)
	tests := []struct {
		src     string
		wantErr error
	}{
		{words, nil},
		{filepath.Join(dir, "link.txt"), safefile.ErrSymlink},
		{filepath.Join(dir, "zero.txt"), safefile.ErrSymlink},
		{"/dev/zero", safefile.ErrNotRegular},
		{filepath.Join(dir, "fifo.txt"), safefile.ErrNotRegular},
		{filepath.Join(dir, "big.bin"), safefile.ErrTooLarge},
	}
	staging := t.TempDir()
	for _, tt := range tests {
		t.Run(filepath.Base(tt.src), func(t *testing.T) {
			dst := filepath.Join(staging, filepath.Base(tt.src))
			err := safefiletest.Promptly(t, "copyFile", func() error { return copyFile(tt.src, dst) })
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("copyFile = %v, want %v", err, tt.wantErr)
			}
			b, rerr := os.ReadFile(dst)
			switch {
			case tt.wantErr == nil && (rerr != nil || string(b) != "cat dog"):
				t.Errorf("copied %q, %v", b, rerr)
			case tt.wantErr != nil && rerr == nil:
				t.Errorf("a refused file left %d bytes in the staging folder", len(b))
			}
		})
	}
}

// TestCopyDataFileRace swaps a data file for a link to a secret over and
// over while it is copied: every copy is the data file or nothing, never the
// secret. The old check-then-read (Lstat, then os.ReadFile) leaked it.
func TestCopyDataFileRace(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("SECRET"), 0o600)
	orig := filepath.Join(dir, "orig")
	os.WriteFile(orig, []byte("data"), 0o644)
	data := filepath.Join(dir, "data.txt")
	plain, link := filepath.Join(dir, ".plain"), filepath.Join(dir, ".link")
	stop := make(chan struct{})
	swapped := make(chan struct{})
	go func() {
		defer close(swapped)
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.Link(orig, plain)
			os.Rename(plain, data)
			os.Symlink(secret, link)
			os.Rename(link, data)
		}
	}()
	defer func() { close(stop); <-swapped }()
	staging := t.TempDir()
	for i := 0; i < 20000; i++ {
		dst := filepath.Join(staging, "data.txt")
		if copyFile(data, dst) == nil {
			b, _ := os.ReadFile(dst)
			if bytes.Contains(b, []byte("SECRET")) {
				t.Fatalf("copy %d holds the secret behind a swapped-in link", i)
			}
		}
		os.Remove(dst)
	}
}
