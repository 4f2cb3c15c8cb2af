package settings

import (
	"kidcoder/backend/safefile/safefiletest"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestLoadMissingGivesDefaults(t *testing.T) {
	s := Load(filepath.Join(t.TempDir(), "nope.json"))
	if s != Defaults() {
		t.Fatalf("got %+v, want defaults", s)
	}
}

func TestBrokenFileIsReportedAndKept(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(p, []byte("{not json"), 0o644)
	s := Load(p)
	if s.Warning == "" || s.FontSize != Defaults().FontSize {
		t.Fatalf("broken file: got %+v", s)
	}
	if b, err := os.ReadFile(p + ".broken"); err != nil || string(b) != "{not json" {
		t.Fatalf("broken file not kept aside: %v %q", err, b)
	}
}

func TestSaveClampsAndRoundTrips(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "settings.json")
	tests := []struct {
		in, want Settings
	}{
		{Settings{Lang: "zh", FontSize: 99, TimeoutSeconds: 0}, Settings{Lang: "zh", FontSize: MaxFont, TimeoutSeconds: 10, Pace: 1}},
		{Settings{Lang: "fr", FontSize: 3, TimeoutSeconds: 500, Python: "/usr/bin/python3", Pace: 1000}, Settings{FontSize: MinFont, TimeoutSeconds: MaxTimeout, Python: "/usr/bin/python3", Pace: MaxPace}},
		{Settings{Lang: "en", FontSize: 20, TimeoutSeconds: 5, Warning: "x", Pace: 0.25}, Settings{Lang: "en", FontSize: 20, TimeoutSeconds: 5, Pace: 0.25}},
		{Settings{Lang: "en", FontSize: 20, TimeoutSeconds: 5, Pace: 0.01}, Settings{Lang: "en", FontSize: 20, TimeoutSeconds: 5, Pace: MinPace}},
		{Settings{Lang: "en", FontSize: 20, TimeoutSeconds: 5, Pace: math.NaN()}, Settings{Lang: "en", FontSize: 20, TimeoutSeconds: 5, Pace: 1}},
	}
	for _, tt := range tests {
		got, err := Save(p, tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Save(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
		if back := Load(p); back != tt.want {
			t.Errorf("Load after Save = %+v, want %+v", back, tt.want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

// TestNotAPlainFileIsBroken: a FIFO or a link to /dev/zero as the settings
// file gives the defaults at once, with a warning, and is moved aside.
func TestNotAPlainFileIsBroken(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero on Windows")
	}
	for _, tt := range []struct {
		name  string
		plant func(p string) error
	}{
		{"FIFO", func(p string) error { return mkfifo(p) }},
		{"link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"too large", func(p string) error { return os.WriteFile(p, make([]byte, maxFileBytes+1), 0o644) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "settings.json")
			if err := tt.plant(p); err != nil {
				t.Skip(err)
			}
			s := safefiletest.Promptly(t, "Load", func() Settings { return Load(p) })
			if s.Warning == "" || s.FontSize != Defaults().FontSize {
				t.Errorf("got %+v, want the defaults with a warning", s)
			}
			if _, err := os.Lstat(p + ".broken"); err != nil {
				t.Errorf("not moved aside: %v", err)
			}
		})
	}
}
