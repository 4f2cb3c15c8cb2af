package packs

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed all:scaffold
var scaffoldFS embed.FS

// ErrNotEmpty is returned by New when the folder already holds files.
var ErrNotEmpty = errors.New("folder is not empty")

// New writes an example pack with one exercise into dir, which must be
// missing or empty: a teacher's files are never overwritten.
func New(dir string) error {
	entries, err := os.ReadDir(dir)
	if err == nil && len(entries) > 0 {
		return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	sub, err := fs.Sub(scaffoldFS, "scaffold")
	if err != nil {
		return err
	}
	return fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
