package python

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExtractWritesEveryFileAndReuses(t *testing.T) {
	root := t.TempDir()
	dir, err := Extract(root)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if !strings.HasPrefix(filepath.Base(dir), "py-") {
		t.Fatalf("dir %q does not start with py-", dir)
	}
	names, err := fileNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kidrunner.py", "kidturtle.py", "kidsvg.py", "kiderrors.py", "messages.json"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("%s is not embedded", want)
		}
	}
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		want, _ := Files.ReadFile(name)
		if string(got) != string(want) {
			t.Errorf("%s differs from the embedded copy", name)
		}
		info, _ := os.Stat(filepath.Join(dir, name))
		if info.Mode().Perm() != 0o644 {
			t.Errorf("%s mode %v, want 0644", name, info.Mode().Perm())
		}
	}
	if info, _ := os.Stat(dir); info.Mode().Perm() != 0o755 {
		t.Errorf("dir mode %v, want 0755", info.Mode().Perm())
	}

	// A second call reuses the directory and does not rewrite a file.
	marker := filepath.Join(dir, "kidrunner.py")
	if err := os.WriteFile(marker, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Extract(root)
	if err != nil || again != dir {
		t.Fatalf("second Extract = %q, %v; want %q", again, err, dir)
	}
	if b, _ := os.ReadFile(marker); string(b) != "changed" {
		t.Errorf("a complete directory was rewritten")
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, ".py-tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary directories left behind: %v", leftovers)
	}
}

func TestExtractReplacesIncompleteDirectory(t *testing.T) {
	root := t.TempDir()
	names, _ := fileNames()
	sum, err := contentHash(names)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(root, "py-"+sum)
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "kidrunner.py"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := Extract(root)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "kidrunner.py"))
	if string(b) == "half" {
		t.Errorf("incomplete directory was reused")
	}
}

func TestMessagesHaveBothLanguages(t *testing.T) {
	m, err := Messages()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"limit.timeout", "limit.memory", "limit.output", "limit.killed", "limit.stopped", "limit.cpu", "limit.idle", "limit.files"} {
		if _, ok := m[key]; !ok {
			t.Errorf("missing %s", key)
		}
	}
	placeholders := map[string]string{"limit.timeout": "{seconds}", "limit.memory": "{memory}", "limit.output": "{size}"}
	for key, entry := range m {
		if entry["zh"] == "" || entry["en"] == "" {
			t.Errorf("%s lacks zh or en", key)
		}
		if p, ok := placeholders[key]; ok && (!strings.Contains(entry["zh"], p) || !strings.Contains(entry["en"], p)) {
			t.Errorf("%s lacks %s", key, p)
		}
	}
}
