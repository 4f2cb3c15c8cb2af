//go:build unix

package lessons

import (
	"io/fs"
	"syscall"
)

// fileIDOf is the file's identity on its device, which a rename keeps: the
// watcher follows the open lesson by it (see [Library.movedTo]).
func fileIDOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true //nolint:unconvert // Dev is int32 on some systems
}
