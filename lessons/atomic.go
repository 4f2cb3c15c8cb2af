package lessons

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path's content with data so that a crash, power
// cut or kill at any moment leaves either the old or the new content, never
// a mix: the bytes go to a hidden temporary file in the same folder (so the
// rename cannot cross file systems), which is synced, renamed over path, and
// the folder is synced so the rename itself survives a power cut.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return WriteAtomic(path, bytes.NewReader(data), perm)
}

// WriteAtomic is [WriteFileAtomic] for content that streams from r.
func WriteAtomic(path string, r io.Reader, perm fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// The leading dot keeps the watcher and the tree from ever seeing it.
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = io.Copy(f, r); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
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
		return syncDir(dir)
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
	return syncDir(dir)
}
