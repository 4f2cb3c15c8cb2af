//go:build linux || darwin

package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeInode is the inode of a pipe, as /proc shows it ("pipe:[N]"); 0 if unknown.
func pipeInode(f *os.File) uint64 {
	var ino uint64
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			var st unix.Stat_t
			if unix.Fstat(int(fd), &st) == nil {
				ino = uint64(st.Ino)
			}
		})
	}
	return ino
}

// pipeUnread is how many bytes wait in the pipe f is an end of; ok is
// false when f is closed or cannot say.
func pipeUnread(f *os.File) (n int, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	cerr := rc.Control(func(fd uintptr) {
		v, err := unix.IoctlGetInt(int(fd), fionread)
		n, ok = v, err == nil
	})
	if cerr != nil {
		return 0, false
	}
	return n, ok
}

// dupFile is a second descriptor for f's open file, closed on exec.
func dupFile(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	nfd := -1
	var derr error
	if err := rc.Control(func(fd uintptr) {
		nfd, derr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	return os.NewFile(uintptr(nfd), f.Name()), nil
}
