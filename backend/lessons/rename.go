package lessons

import (
	"io/fs"
	"os"
	"strings"
)

// renameChecked is the portable fallback: a check then a rename, which can
// only lose to a program creating the same name in between.
func renameChecked(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		// Renaming "Star.py" to "star.py" on a case-insensitive disk finds
		// the file itself at the new name.
		if !strings.EqualFold(from, to) || !sameFile(from, to) {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
		}
	}
	return os.Rename(from, to)
}

func sameFile(a, b string) bool {
	fa, err := os.Lstat(a)
	if err != nil {
		return false
	}
	fb, err := os.Lstat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}
