// Package settings loads and stores the classroom's settings file, atomically, surviving a broken file.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"kidcoder/backend/atomicfile"
	"kidcoder/backend/safefile"
	"kidcoder/backend/text"
)

// Settings are what a family can change.
type Settings struct {
	Lang           string `json:"lang"` // "zh" or "en"; "" follows the system
	FontSize       int    `json:"fontSize"`
	TimeoutSeconds int    `json:"timeoutSeconds"`
	Python         string `json:"python"` // "" finds one
	LessonsDir     string `json:"lessonsDir,omitempty"`
	// Pace is the speed dial of live drawings: how many times CPython's own
	// pace the turtle draws at (1, the default, is CPython's own timing).
	Pace float64 `json:"pace,omitempty"`
	// CoursesOffered is set once the course shelf was shown by itself, so
	// it opens on a first start and never again unasked.
	CoursesOffered bool `json:"coursesOffered,omitempty"`
	// Warning is set (never stored) when a broken file was replaced by defaults.
	Warning string `json:"warning,omitempty"`
}

// Bounds the settings are clamped to.
const (
	MinFont, MaxFont       = 10, 40
	MinTimeout, MaxTimeout = 1, 60
	// MinPace and MaxPace bound the speed dial, and what a live run's pace
	// event may ask for (the runner holds to the same: python/kidlive.py).
	MinPace, MaxPace float64 = 0.1, 100
)

// Defaults are the settings of a first start.
func Defaults() Settings {
	return Settings{FontSize: 18, TimeoutSeconds: 10, Pace: 1}
}

// Clamp brings every field within its bounds.
func (s Settings) Clamp() Settings {
	if s.Lang != text.Zh && s.Lang != text.En {
		s.Lang = ""
	}
	if s.FontSize == 0 {
		s.FontSize = Defaults().FontSize
	}
	s.FontSize = min(max(s.FontSize, MinFont), MaxFont)
	if s.TimeoutSeconds == 0 {
		s.TimeoutSeconds = Defaults().TimeoutSeconds
	}
	s.TimeoutSeconds = min(max(s.TimeoutSeconds, MinTimeout), MaxTimeout)
	if s.Pace == 0 || math.IsNaN(s.Pace) {
		s.Pace = Defaults().Pace
	}
	s.Pace = min(max(s.Pace, MinPace), MaxPace)
	s.Warning = ""
	return s
}

// DefaultPath is the settings file in the user's config folder.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config folder: %w", err)
	}
	return filepath.Join(dir, "kidcoder", "settings.json"), nil
}

// maxFileBytes bounds the settings file read: a real one is a few hundred bytes.
const maxFileBytes = 1 << 20

// Load reads the settings at path. A missing file gives the defaults; a
// broken one gives the defaults with Warning set, and is moved aside as
// path.broken so the family can look at it, never a failure. Broken
// includes what is not a plain file of sensible size (a FIFO, a device, a
// symbolic link): it is never waited on or read without end, and moving it
// aside moves the link itself, not what it points to.
func Load(path string) Settings {
	data, err := safefile.ReadFile(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults()
	}
	var s Settings
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		_ = os.Rename(path, path+".broken")
		d := Defaults()
		d.Warning = fmt.Sprintf("the settings file %s could not be read (%v); defaults are used and the old file was kept as %s.broken", path, err, path)
		return d
	}
	return s.Clamp()
}

// Save clamps s and writes it atomically: a crash leaves the old file or the new one, never half of one.
func Save(path string, s Settings) (Settings, error) {
	s = s.Clamp()
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return s, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return s, fmt.Errorf("saving settings: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return s, fmt.Errorf("saving settings: %w", err)
	}
	return s, nil
}
