//go:build !linux && !windows

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
	return filepath.Join(home, "Documents"), nil
}
