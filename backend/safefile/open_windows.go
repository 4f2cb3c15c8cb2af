//go:build windows

package safefile

import (
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// openNoFollow opens path read-only without following a reparse point that
// is a link (a symbolic link or junction), even one swapped in after any
// earlier look at the name. Windows has no FIFOs in ordinary folders, and
// its opens of files do not block.
func openNoFollow(path string) (*os.File, error) {
	f, err := createFile(path, windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	if fi.Mode().Type() != fs.ModeIrregular {
		return f, nil
	}
	// A reparse point that is not a link, such as a cloud-synced
	// placeholder (OneDrive's files on demand), gets its data through its
	// file-system filter: open it the normal way and keep that handle only
	// if it is still the same file.
	g, err := createFile(path, 0)
	if err != nil {
		f.Close()
		return nil, err
	}
	gi, err := g.Stat()
	f.Close()
	if err != nil || !os.SameFile(fi, gi) {
		g.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	return g, nil
}

func createFile(path string, flags uint32) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL|flags, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// holdsData accepts regular files and the reparse points Go reports as
// irregular that are not folders, links or pipes: cloud placeholders and the
// like, whose content reads as a regular file's does.
func holdsData(fi fs.FileInfo) bool {
	t := fi.Mode().Type()
	return t == 0 || t == fs.ModeIrregular
}
