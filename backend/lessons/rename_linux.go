package lessons

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace moves from to to, failing with fs.ErrExist instead of
// replacing what is at to; the kernel checks, so another program creating
// to at the same moment can't be overwritten.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EEXIST):
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS):
		// File systems without RENAME_NOREPLACE (some FUSE and network ones).
		return renameChecked(from, to)
	}
	return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
}
