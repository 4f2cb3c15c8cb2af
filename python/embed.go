package python

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Files holds the Python layer as mounted read-only at /kid/py in the sandbox.
//
//go:embed *.py messages.json
var Files embed.FS

// completeMarker is written last, so a directory holding it is known to be whole.
const completeMarker = ".complete"

// Extract writes the embedded files into root/py-<hash>/ and returns that
// directory. The hash covers every file's name and content, so a new build
// gets a new directory and an existing complete one is reused as is. The
// files are written into a temporary directory that is renamed into place,
// so a concurrent or interrupted Extract never leaves a half-written
// directory under the final name.
func Extract(root string) (string, error) {
	names, err := fileNames()
	if err != nil {
		return "", err
	}
	sum, err := contentHash(names)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "py-"+sum)
	if _, err := os.Stat(filepath.Join(dir, completeMarker)); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("python: create %s: %w", root, err)
	}
	tmp, err := os.MkdirTemp(root, ".py-tmp-")
	if err != nil {
		return "", fmt.Errorf("python: temp dir: %w", err)
	}
	defer os.RemoveAll(tmp) // no-op once renamed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("python: chmod %s: %w", tmp, err)
	}
	for _, name := range names {
		data, err := Files.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("python: read embedded %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", fmt.Errorf("python: write %s: %w", name, err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, completeMarker), nil, 0o644); err != nil {
		return "", fmt.Errorf("python: write marker: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have won the race with identical content.
		if _, statErr := os.Stat(filepath.Join(dir, completeMarker)); statErr == nil {
			return dir, nil
		}
		// An incomplete leftover under the final name: replace it.
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			return "", fmt.Errorf("python: remove stale %s: %w", dir, rmErr)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return "", fmt.Errorf("python: rename into %s: %w", dir, err)
		}
	}
	return dir, nil
}

// Messages returns the shared user-facing texts: key -> language ("zh", "en") -> text.
// Host-side limit messages (limit.timeout, limit.memory, ...) live here too.
func Messages() (map[string]map[string]string, error) {
	data, err := Files.ReadFile("messages.json")
	if err != nil {
		return nil, fmt.Errorf("python: read messages.json: %w", err)
	}
	var m map[string]map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("python: parse messages.json: %w", err)
	}
	if len(m) == 0 {
		return nil, errors.New("python: messages.json is empty")
	}
	return m, nil
}

func fileNames() ([]string, error) {
	entries, err := fs.ReadDir(Files, ".")
	if err != nil {
		return nil, fmt.Errorf("python: list embedded files: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

func contentHash(names []string) (string, error) {
	h := sha256.New()
	for _, name := range names {
		data, err := Files.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("python: read embedded %s: %w", name, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}
