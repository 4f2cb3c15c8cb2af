package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxStageBytes bounds what one run copies into its staging dir: staging
// is for programs, data files and the Python layer, not for installations.
const maxStageBytes = 256 << 20

var errStageTooBig = errors.New("sandbox: staged files too large")

// reachableByOthers reports whether a user who is neither owner nor in the
// group can reach path: every ancestor searchable, the path itself
// readable (and searchable if a directory). Staging decides from it.
func reachableByOthers(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if dir == "/" {
			break
		}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return false
	}
	need := fs.FileMode(0o004)
	if fi.IsDir() {
		need |= 0o001
	}
	return fi.Mode().Perm()&need == need
}

// copyFile copies a regular file to dst with mode perm; budget is the
// bytes still allowed and is decreased by what was copied.
func copyFile(src, dst string, perm fs.FileMode, budget *int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("sandbox: %s is not a regular file", src)
	}
	if fi.Size() > *budget {
		return errStageTooBig
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(in, *budget+1))
	*budget -= n
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && *budget < 0 {
		err = errStageTooBig
	}
	if err == nil {
		err = os.Chmod(dst, perm) // the umask must not narrow it
	}
	return err
}

// copyTree copies regular files, directories and symlinks under src to dst
// (which must not exist), directories 0755 and files 0644 so the sandbox's
// unprivileged uid can read them.
func copyTree(src, dst string, budget *int64) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if err := os.Mkdir(target, 0o755); err != nil {
				return err
			}
			return os.Chmod(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(p, target, 0o644, budget)
		}
		return nil // sockets, devices and fifos have no place in a sandbox
	})
}

// copyBack copies the regular files a trusted set-up run wrote in a staged
// writable dir back to the host dir they stand for.
func copyBack(staged, host string) error {
	budget := int64(maxStageBytes)
	return filepath.WalkDir(staged, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(staged, p)
		if err != nil {
			return err
		}
		target := filepath.Join(host, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		os.Remove(target)
		return copyFile(p, target, 0o644, &budget)
	})
}
