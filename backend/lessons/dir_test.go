package lessons

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseUserDirs(t *testing.T) {
	home := "/home/kid"
	tests := []struct{ file, want string }{
		{`XDG_DOCUMENTS_DIR="$HOME/文档"`, "/home/kid/文档"},
		{"# comment\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOCUMENTS_DIR=\"$HOME/Docs\"\n", "/home/kid/Docs"},
		{`XDG_DOCUMENTS_DIR="/data/docs"`, "/data/docs"},
		{`XDG_DOCUMENTS_DIR="$HOME/"`, ""}, // disabled
		{`XDG_DOCUMENTS_DIR="relative"`, ""},
		{`XDG_DESKTOP_DIR="$HOME/Desktop"`, ""},
	}
	for _, tt := range tests {
		if got := parseUserDirs(strings.NewReader(tt.file), home); got != filepath.FromSlash(tt.want) {
			t.Errorf("parseUserDirs(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
}

func TestResolveDir(t *testing.T) {
	flagDir := t.TempDir()
	envDir := t.TempDir()
	t.Setenv(EnvDir, envDir)
	if got, _ := ResolveDir(flagDir); got != flagDir {
		t.Errorf("flag: got %q, want %q", got, flagDir)
	}
	if got, _ := ResolveDir(""); got != envDir {
		t.Errorf("env: got %q, want %q", got, envDir)
	}
	t.Setenv(EnvDir, "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "nowhere"))
	got, err := ResolveDir("")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(got) != FolderName || !strings.HasPrefix(got, home) {
		t.Errorf("default: got %q, want %s under %s", got, FolderName, home)
	}
}
