package lessons

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FolderName is the lessons folder's name inside the user's Documents.
const FolderName = "Kid Coder"

// EnvDir names the environment variable that overrides the default folder;
// the --lessons flag overrides both.
const EnvDir = "KIDCODER_LESSONS"

// ResolveDir picks the lessons folder: the --lessons flag if given, else
// $KIDCODER_LESSONS, else Documents/Kid Coder. The result is absolute and
// cleaned; the folder need not exist yet (see [Setup]).
func ResolveDir(flag string) (string, error) {
	dir := flag
	if dir == "" {
		dir = os.Getenv(EnvDir)
	}
	if dir == "" {
		docs, err := documentsDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(docs, FolderName)
	}
	dir = expandHome(dir)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return abs, nil
}

func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, `~\`) {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, p[1:])
}

// parseUserDirs reads XDG_DOCUMENTS_DIR from the user-dirs.dirs format
// (shell-style: XDG_DOCUMENTS_DIR="$HOME/Documents"). Only "$HOME/..." and
// absolute paths are valid there, per xdg-user-dirs. It returns "" when the
// entry is absent or names the home folder itself, which xdg-user-dirs uses
// to mean "disabled".
func parseUserDirs(r io.Reader, home string) string {
	sc := bufio.NewScanner(r)
	found := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(name) != "XDG_DOCUMENTS_DIR" {
			continue
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
			val = val[1 : len(val)-1]
		}
		val = strings.ReplaceAll(val, `\"`, `"`)
		switch {
		case val == "$HOME" || val == "$HOME/":
			found = ""
		case strings.HasPrefix(val, "$HOME/"):
			found = filepath.Join(home, val[len("$HOME/"):])
		case filepath.IsAbs(val):
			found = filepath.Clean(val)
		default:
			found = ""
		}
	}
	return found
}
