//go:build !windows

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// SyncDir makes a rename in dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return syncOpenDir(d)
}

// SyncRoot is [SyncDir] for the folder r was opened on, wherever it has
// been moved since.
func SyncRoot(r *os.Root) error {
	d, err := r.Open(".")
	if err != nil {
		return err
	}
	return syncOpenDir(d)
}

func syncOpenDir(d *os.File) error {
	defer d.Close()
	// Some file systems (and FUSE sync clients) can't fsync a directory;
	// the rename has happened, so that is not a failed save.
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}
