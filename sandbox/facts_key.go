//go:build linux || darwin

package sandbox

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// keyDir is the folder in the cache folder that holds this install's key
// for the cache's MACs; only the user may enter it.
const (
	keyDir   = "sandbox-key"
	keyName  = "key"
	keyBytes = 32
)

// errKeyNotPrivate is returned (wrapped) by cacheKey when the key or its
// folder could be another user's: not owned by the user, open to others,
// not a plain folder or file, or a key of the wrong size.
var errKeyNotPrivate = errors.New("sandbox cache key is not private")

// cacheKey returns this install's key for the cache in dir. With create it
// makes the folder and key where missing, and replaces a key it cannot
// vouch for (every cache sealed with the old one is then ignored); a
// folder that another user owns is never used. Nothing here follows a
// link: the folder and the key are checked on their open descriptors.
func cacheKey(dir string, create bool) ([]byte, error) {
	kdir := filepath.Join(dir, keyDir)
	if create {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := unix.Mkdir(kdir, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, &os.PathError{Op: "mkdir", Path: kdir, Err: err}
		}
	}
	dfd, err := unix.Open(kdir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: kdir, Err: err}
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstat(dfd, &st); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Geteuid() {
		return nil, fmt.Errorf("%w: %s", errKeyNotPrivate, kdir)
	}
	fresh := false
	if st.Mode&0o077 != 0 {
		if !create {
			return nil, fmt.Errorf("%w: %s is open to others", errKeyNotPrivate, kdir)
		}
		// Others could have put a key here: close the folder, then make
		// a key of our own in it.
		if err := unix.Fchmod(dfd, 0o700); err != nil {
			return nil, err
		}
		fresh = true
	}
	if !fresh {
		key, err := readKey(dfd)
		if err == nil || !create {
			return key, err
		}
		if !errors.Is(err, unix.ENOENT) {
			fresh = true
		}
	}
	if fresh {
		if err := unix.Unlinkat(dfd, keyName, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return nil, err
		}
	}
	if err := makeKey(dfd); err != nil {
		return nil, err
	}
	return readKey(dfd)
}

// readKey reads the key in the folder open at dfd, if it is the user's
// own regular file, private, of the right size.
func readKey(dfd int) ([]byte, error) {
	fd, err := unix.Openat(dfd, keyName, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), keyName)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Geteuid() || st.Mode&0o077 != 0 || st.Size != keyBytes {
		return nil, errKeyNotPrivate
	}
	key := make([]byte, keyBytes+1)
	n, err := io.ReadFull(f, key)
	if n != keyBytes || !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, errKeyNotPrivate
	}
	return key[:keyBytes], nil
}

// makeKey writes a new random key under a name of its own and links it in
// place: a reader sees no key or a whole one, and when two processes make
// one at once, the first link wins and both use it.
func makeKey(dfd int) error {
	key := make([]byte, keyBytes)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	tmp := keyName + "." + randomHex() + ".tmp"
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(key)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = unix.Linkat(dfd, tmp, dfd, keyName, 0); errors.Is(err, unix.EEXIST) {
			err = nil
		}
	}
	unix.Unlinkat(dfd, tmp, 0)
	return err
}

// fileID is what identifies the file at path and its content without
// reading it: device, inode, size, mode, modification and change time.
func fileID(path string) (string, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d:%o:%d.%d:%d.%d", st.Dev, st.Ino, st.Size, st.Mode,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), true
}
