package safefile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
)

var (
	// ErrNotRegular is returned by Open and ReadFile when the path names a
	// directory, FIFO, device, socket or anything else that is not a
	// regular file: reading one of those can block for ever or never end.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned by Open and ReadFile when the file's size is
	// over the caller's bound, and by ReadFile, ReadAll and Copy when more
	// than the bound could be read (the file grew, or its size lied).
	ErrTooLarge = errors.New("file is too large")
	// ErrSymlink is returned by Open and ReadFile when the path's last
	// element is a symbolic link, whether it was one before the open or was
	// swapped in while opening. Links in the folders on the way are followed:
	// callers that must stay inside a folder resolve and check those first.
	ErrSymlink = errors.New("file is a symbolic link")
)

// Open opens the regular file at path, of at most max bytes, for reading.
// The FileInfo comes from the open descriptor, so what the caller reads is
// the file that was checked even if the name is swapped for something else
// a moment later. The open neither blocks (a FIFO without a writer) nor
// follows a link in the last element. The file may still grow after the
// check: read it with [ReadAll] or [Copy] and the same bound.
func Open(path string, max int64) (*os.File, fs.FileInfo, error) {
	// Refusing by name first means a device node is never even opened
	// (opening some has effects); the check that counts is the one on the
	// descriptor below, which nothing can swap.
	li, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := refuse(path, li); err != nil {
		return nil, nil, err
	}
	f, err := openNoFollow(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = refuse(path, fi)
	}
	if err == nil && fi.Size() > max {
		err = &fs.PathError{Op: "open", Path: path, Err: ErrTooLarge}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path, taking at most max bytes: a
// larger file, or one that grows while it is read, fails with ErrTooLarge.
// See [Open] for what else it refuses.
func ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + 1) // bounded by max through Open
	if err := readAtMost(&buf, f, max); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return buf.Bytes(), nil
}

// ReadAll reads r to its end, at most max bytes; more fails with ErrTooLarge.
func ReadAll(r io.Reader, max int64) ([]byte, error) {
	var buf bytes.Buffer
	if err := readAtMost(&buf, r, max); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Copy copies src to its end into dst, at most max bytes. When src holds
// more it fails with ErrTooLarge, having written max bytes: the caller
// removes what it wrote.
func Copy(dst io.Writer, src io.Reader, max int64) (int64, error) {
	n, err := io.Copy(dst, io.LimitReader(src, max))
	if err != nil {
		return n, err
	}
	// One byte more tells a file of exactly max bytes from a larger one.
	var one [1]byte
	if k, _ := io.ReadFull(src, one[:]); k > 0 {
		return n, ErrTooLarge
	}
	return n, nil
}

func readAtMost(buf *bytes.Buffer, r io.Reader, max int64) error {
	limit := max
	if limit < math.MaxInt64 {
		limit++ // the byte past the bound is how a file that grew is caught
	}
	n, err := buf.ReadFrom(io.LimitReader(r, limit))
	if err != nil {
		return err
	}
	if n > max {
		return ErrTooLarge
	}
	return nil
}

// refuse says why fi, the file at path, must not be read; nil when it may.
func refuse(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	case !holdsData(fi):
		return &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return nil
}
