package lessons

import (
	"errors"
	"io"
	"io/fs"
	"kidcoder/backend/atomicfile"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path's content so that a crash leaves the old
// or the new content, never a mix (see package atomicfile).
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return atomicfile.WriteFile(path, data, perm)
}

// WriteAtomic is [WriteFileAtomic] for content that streams from r.
func WriteAtomic(path string, r io.Reader, perm fs.FileMode) error {
	return atomicfile.Write(path, r, perm)
}

// createNew writes data to a file that must not exist yet, atomically when
// the file system has hard links: link(2) of the finished temporary file
// fails rather than replace anything. Where links are unsupported (FAT USB
// sticks) it falls back to O_EXCL, which still never overwrites.
func createNew(path string, data []byte, perm fs.FileMode) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fs.ErrExist
	}
	dir, base := filepath.Split(path)
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
		if errors.Is(err, errors.ErrUnsupported) {
			err = nil
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = os.Link(tmp, path); err == nil {
		return atomicfile.SyncDir(dir)
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	g, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = g.Write(data)
	if err == nil {
		err = g.Sync()
	}
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	return atomicfile.SyncDir(dir)
}
