package lessons

import (
	"io"
	"os"
	"path/filepath"

	"kidcoder/backend/safefile"
)

// maxUserDirs bounds what is read of user-dirs.dirs, a file of a dozen lines.
const maxUserDirs = 64 << 10

func documentsDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", newErr(CodeNoDocumentsFolder, "", err)
	}
	config := os.Getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	// The user's own file, often a link from a dotfiles folder, so links
	// are followed; what they lead to must still be a plain file, or a FIFO
	// or a link to /dev/urandom there would stall every start.
	if p, err := filepath.EvalSymlinks(filepath.Join(config, "user-dirs.dirs")); err == nil {
		if f, _, err := safefile.Open(p, maxUserDirs); err == nil {
			defer f.Close()
			if d := parseUserDirs(io.LimitReader(f, maxUserDirs), home); d != "" {
				return d, nil
			}
		}
	}
	return filepath.Join(home, "Documents"), nil
}
