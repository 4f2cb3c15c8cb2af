//go:build !unix && !windows

package safefile

import (
	"io/fs"
	"os"
)

// openNoFollow opens path read-only. These systems have no O_NOFOLLOW, so a
// link swapped in after Open's look at the name is caught only by the
// check on the descriptor, which still refuses anything not regular.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }

func holdsData(fi fs.FileInfo) bool { return fi.Mode().IsRegular() }
