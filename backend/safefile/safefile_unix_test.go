//go:build unix

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func mkfifo(t *testing.T, p string) string {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return p
}

func symlink(t *testing.T, target, p string) string {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenRefusesWhatIsNotAPlainFile is the red team's list: none of these
// may block, follow a link or read without end.
func TestOpenRefusesWhatIsNotAPlainFile(t *testing.T) {
	dir := t.TempDir()
	plain := write(t, filepath.Join(dir, "plain.txt"), "plain")
	fifo := mkfifo(t, filepath.Join(dir, "fifo"))
	tests := []struct {
		name    string
		path    string
		wantErr error
	}{
		{"FIFO", fifo, ErrNotRegular},
		{"symlink to /dev/zero", symlink(t, "/dev/zero", filepath.Join(dir, "zero")), ErrSymlink},
		{"symlink to a regular file", symlink(t, plain, filepath.Join(dir, "link.txt")), ErrSymlink},
		{"symlink to a FIFO", symlink(t, fifo, filepath.Join(dir, "fifolink")), ErrSymlink},
		{"dangling symlink", symlink(t, filepath.Join(dir, "gone"), filepath.Join(dir, "dangling")), ErrSymlink},
		{"directory", dir, ErrNotRegular},
		{"device", "/dev/null", ErrNotRegular},
		{"oversize", write(t, filepath.Join(dir, "big"), "0123456789"), ErrTooLarge},
		{"normal", plain, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type res struct {
				b   []byte
				err error
			}
			r := within(t, func() res { b, err := ReadFile(tt.path, 9); return res{b, err} })
			if !errors.Is(r.err, tt.wantErr) {
				t.Fatalf("ReadFile: err = %v, want %v", r.err, tt.wantErr)
			}
			if tt.wantErr == nil && string(r.b) != "plain" {
				t.Fatalf("ReadFile = %q", r.b)
			}
			err := within(t, func() error {
				f, _, err := Open(tt.path, 9)
				if err == nil {
					f.Close()
				}
				return err
			})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Open: err = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestOpenItselfRefusesLinksAndFIFOs skips Open's look at the name, as a
// swap right after that look would: the open must neither follow the link
// nor wait for a FIFO's writer.
func TestOpenItselfRefusesLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "secret"), "secret")
	link := symlink(t, filepath.Join(dir, "secret"), filepath.Join(dir, "link"))
	if _, err := openNoFollow(link); !errors.Is(err, ErrSymlink) {
		t.Errorf("openNoFollow(link) = %v, want ErrSymlink", err)
	}
	fifo := mkfifo(t, filepath.Join(dir, "fifo"))
	err := within(t, func() error {
		f, err := openNoFollow(fifo)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		return refuse(fifo, fi)
	})
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO = %v, want ErrNotRegular", err)
	}
}

// TestReadComesFromTheCheckedDescriptor swaps the file for a link to a
// secret after Open checked it: the read still returns the checked file.
func TestReadComesFromTheCheckedDescriptor(t *testing.T) {
	dir := t.TempDir()
	p := write(t, filepath.Join(dir, "data.txt"), "checked")
	write(t, filepath.Join(dir, "secret"), "secret!")
	f, fi, err := Open(p, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tmp := symlink(t, filepath.Join(dir, "secret"), filepath.Join(dir, "swap"))
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	b, err := ReadAll(f, 100)
	if err != nil || string(b) != "checked" || fi.Size() != int64(len("checked")) {
		t.Fatalf("read %q, %v after the swap; want the checked file", b, err)
	}
	if _, err := ReadFile(p, 100); !errors.Is(err, ErrSymlink) {
		t.Fatalf("the swapped-in link reads: %v", err)
	}
}

// TestGrowingFileStaysBounded: the size checked at open is no promise, so
// the read itself stops at the bound.
func TestGrowingFileStaysBounded(t *testing.T) {
	p := write(t, filepath.Join(t.TempDir(), "grows"), "small")
	f, _, err := Open(p, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteString("and now much larger than the bound"); err != nil {
		t.Fatal(err)
	}
	g.Close()
	if _, err := ReadAll(f, 10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ReadAll of a grown file = %v, want ErrTooLarge", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if n, err := Copy(io.Discard, f, 10); !errors.Is(err, ErrTooLarge) || n != 10 {
		t.Fatalf("Copy of a grown file = %d, %v", n, err)
	}
}

func TestErrorsNameThePath(t *testing.T) {
	p := mkfifo(t, filepath.Join(t.TempDir(), "state.json"))
	_, err := ReadFile(p, 10)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != p {
		t.Fatalf("err = %v, want a *fs.PathError for %s", err, p)
	}
}
