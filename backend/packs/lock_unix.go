//go:build unix

package packs

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// importMu orders this process's imports; the flock orders them with other
// processes', and stands alone on file systems without flock.
var importMu sync.Mutex

// lockFolder takes the import lock of the lessons folder dir: an exclusive
// flock on the folder itself, so no lock file can be planted, replaced or
// left behind, and a process that dies lets go of it. It waits for the
// import holding it, which holds it only while it plans and writes.
func lockFolder(dir string) (unlock func(), err error) {
	importMu.Lock()
	f, err := os.Open(dir)
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil && !fi.IsDir() {
			err = fmt.Errorf("%s: not a folder", dir)
		}
	}
	for err == nil {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
		err = nil
	}
	// Some network and FUSE file systems have no flock: imports from this
	// process are still one at a time.
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOLCK) {
		err = nil
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		importMu.Unlock()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() {
		f.Close() // closing the last descriptor releases the flock
		importMu.Unlock()
	}, nil
}
