//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path read-only. O_NONBLOCK keeps a FIFO without a
// writer (or a device waiting for carrier) from blocking the open; it is
// harmless for the regular files that are all Open lets through, since
// reads of those never wait. O_NOFOLLOW refuses a link in the last element
// even if one was swapped in after any earlier look at the name.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		// The errno for a refused link differs (ELOOP on Linux and macOS,
		// EMLINK on FreeBSD, EFTYPE on NetBSD): ask the name instead.
		if li, lerr := os.Lstat(path); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
		}
		return nil, err
	}
	return f, nil
}

func holdsData(fi fs.FileInfo) bool { return fi.Mode().IsRegular() }
