package lessons

import (
	"os"
	"path/filepath"
)

func documentsDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", newErr(CodeNoDocumentsFolder, "", err)
	}
	config := os.Getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	if f, err := os.Open(filepath.Join(config, "user-dirs.dirs")); err == nil {
		defer f.Close()
		if d := parseUserDirs(f, home); d != "" {
			return d, nil
		}
	}
	return filepath.Join(home, "Documents"), nil
}
