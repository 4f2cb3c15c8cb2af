package lessons

import (
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// TrashKeep is how long deleted lessons stay restorable in .trash.
const TrashKeep = 30 * 24 * time.Hour

// staleTemp matches the temporary files WriteAtomic and createNew make
// (".NAME.123456.tmp"): one is left behind only when a save was killed.
var staleTemp = regexp.MustCompile(`^\..+\.[0-9]+\.tmp$`)

// tempGrace keeps a cleanup from removing the temporary file of a save
// that another running copy of the app is making right now.
const tempGrace = 10 * time.Minute

// Tidy removes what interrupted saves left behind and deletions older than
// TrashKeep. It returns how many entries it removed. Setup calls it; it
// only ever touches names this package itself creates.
func (l *Library) Tidy(now time.Time) int {
	removed := 0
	_, dirs, err := l.scan()
	if err != nil {
		return 0
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !staleTemp.MatchString(e.Name()) {
				continue
			}
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > tempGrace {
				if os.Remove(filepath.Join(dir, e.Name())) == nil {
					removed++
				}
			}
		}
	}
	root, err := l.realRoot()
	if err != nil {
		return removed
	}
	trash := filepath.Join(root, trashDir)
	entries, _ := os.ReadDir(trash)
	for _, e := range entries {
		d, ok := readDeleted(trash, e)
		if !ok || d.When.IsZero() {
			continue // not ours, or damaged: leave it for a person to look at
		}
		if now.Sub(d.When) > TrashKeep && os.RemoveAll(filepath.Join(trash, e.Name())) == nil {
			removed++
		}
	}
	return removed
}
