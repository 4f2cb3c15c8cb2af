package lessons

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

func documentsDir() (string, error) {
	// The known-folder API follows a Documents folder that was moved or
	// redirected to OneDrive, which %USERPROFILE%\Documents does not.
	if d, err := windows.KnownFolderPath(windows.FOLDERID_Documents, 0); err == nil && d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", newErr(CodeNoDocumentsFolder, "", err)
	}
	return filepath.Join(home, "Documents"), nil
}
