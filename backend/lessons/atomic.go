package lessons

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"kidcoder/backend/atomicfile"
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
	if err := writeSynced(f, data, perm); err != nil {
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
	if err := writeSynced(g, data, perm); err != nil {
		os.Remove(path)
		return err
	}
	return atomicfile.SyncDir(dir)
}

// The helpers below work inside an open folder (an os.Root), for [Writer]:
// each takes a single name in dir, so no link on the way can redirect them.

// tempName is a hidden name beside name in the shape os.CreateTemp gives
// (".NAME.123456.tmp"), which the watcher ignores and Tidy recognises.
func tempName(name string) string {
	return "." + name + "." + strconv.FormatUint(uint64(rand.Uint32()), 10) + ".tmp"
}

// maxTempTries bounds the search for a free temporary name, as os.CreateTemp's does.
const maxTempTries = 10000

// writeTempIn writes data, synced, to a new temporary file beside name in
// dir and returns the temporary name.
func writeTempIn(dir *os.Root, name string, data []byte, perm fs.FileMode) (string, error) {
	for range maxTempTries {
		tmp := tempName(name)
		err := writeNewIn(dir, tmp, data, perm)
		if !errors.Is(err, fs.ErrExist) {
			return tmp, err
		}
	}
	return "", &fs.PathError{Op: "createtemp", Path: name, Err: fs.ErrExist}
}

// writeNewIn writes data, synced, to name in dir, which must not exist:
// O_EXCL never opens what is there, not even through a link.
func writeNewIn(dir *os.Root, name string, data []byte, perm fs.FileMode) error {
	f, err := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := writeSynced(f, data, perm); err != nil {
		dir.Remove(name)
		return err
	}
	return nil
}

// replaceIn is [WriteFileAtomic] for name in dir. The rename replaces the
// name itself: a link there is replaced, never written through.
func replaceIn(dir *os.Root, name string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTempIn(dir, name, data, perm)
	if err != nil {
		return err
	}
	if err := dir.Rename(tmp, name); err != nil {
		dir.Remove(tmp)
		return err
	}
	return atomicfile.SyncRoot(dir)
}

// createIn is [createNew] for name in dir.
func createIn(dir *os.Root, name string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTempIn(dir, name, data, perm)
	if err != nil {
		return err
	}
	defer dir.Remove(tmp)
	err = dir.Link(tmp, name)
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	if err != nil {
		// No hard links here (FAT USB sticks): O_EXCL still never overwrites.
		if err := writeNewIn(dir, name, data, perm); err != nil {
			return err
		}
	}
	return atomicfile.SyncRoot(dir)
}

// mkdirTempIn makes a new hidden folder beside name in dir and returns its name.
func mkdirTempIn(dir *os.Root, name string) (string, error) {
	for range maxTempTries {
		tmp := tempName(name)
		err := dir.Mkdir(tmp, dirPerm)
		if !errors.Is(err, fs.ErrExist) {
			return tmp, err
		}
	}
	return "", &fs.PathError{Op: "mkdirtemp", Path: name, Err: fs.ErrExist}
}

// writeSynced writes data to a new file, sets its mode and syncs it, then
// closes it. The mode is set on the descriptor, not by name: it is exact
// whatever the umask, and nothing swapped in at the name can receive it.
func writeSynced(f *os.File, data []byte, perm fs.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		if err = f.Chmod(perm); errors.Is(err, errors.ErrUnsupported) {
			err = nil
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
