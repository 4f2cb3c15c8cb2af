// Package atomicfile replaces a file's content so that a crash, power cut or kill leaves the old content or the new, never a mix.
package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path's content with data: the bytes go to a hidden
// temporary file in the same folder (so the rename cannot cross file
// systems), which is synced, renamed over path, and the folder is synced so
// the rename itself survives a power cut.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, bytes.NewReader(data), perm)
}

// Write is [WriteFile] for content that streams from r.
func Write(path string, r io.Reader, perm fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// The leading dot keeps folder watchers and listings from ever showing it.
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
	return SyncDir(dir)
}
