package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackSignedUpdates: keygen, build --key, import and list show who
// signed a pack, and a build of the same folder with another key, or
// none, is refused as its update.
func TestPackSignedUpdates(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "pack")
	if code, _, stderr := runCLI(t, "pack", "new", dir); code != 0 {
		t.Fatalf("pack new: %d %s", code, stderr)
	}
	key, other := filepath.Join(tmp, "teacher.key"), filepath.Join(tmp, "stranger.key")
	code, stdout, stderr := runCLI(t, "pack", "keygen", key)
	if code != 0 || !strings.Contains(stdout, "(key ") {
		t.Fatalf("keygen: %d %s %s", code, stdout, stderr)
	}
	fp := stdout[strings.Index(stdout, "(key ")+5 : strings.Index(stdout, ").")]
	if code, _, _ := runCLI(t, "pack", "keygen", key); code != 1 {
		t.Errorf("keygen over an existing key exited %d, want 1", code)
	}
	if code, _, _ := runCLI(t, "pack", "keygen", other); code != 0 {
		t.Fatal("keygen")
	}
	signed, stranger, unsigned := filepath.Join(tmp, "s.kidpack"), filepath.Join(tmp, "x.kidpack"), filepath.Join(tmp, "u.kidpack")
	if code, stdout, stderr := runCLI(t, "pack", "build", dir, "--key", key, "-o", signed); code != 0 || !strings.Contains(stdout, "signed, key "+fp) {
		t.Fatalf("build --key: %d %s %s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI(t, "pack", "build", dir, "--key", other, "-o", stranger); code != 0 {
		t.Fatal(stderr)
	}
	if code, stdout, _ := runCLI(t, "pack", "build", dir, "-o", unsigned); code != 0 || !strings.Contains(stdout, "unsigned") {
		t.Fatal(stdout)
	}
	if code, _, stderr := runCLI(t, "pack", "build", dir, "--key", filepath.Join(dir, "pack.json"), "-o", unsigned); code != 1 || !strings.Contains(stderr, "signing key") {
		t.Errorf("build with a manifest as the key: %d %s", code, stderr)
	}

	lessonsDir := filepath.Join(tmp, "lessons")
	code, stdout, stderr = runCLI(t, "pack", "import", "--lessons", lessonsDir, "--lang", "en", signed)
	if code != 0 || !strings.Contains(stdout, "key "+fp) {
		t.Fatalf("import: %d %s %s", code, stdout, stderr)
	}
	for _, f := range []string{stranger, unsigned} {
		code, stdout, stderr := runCLI(t, "pack", "import", "--lessons", lessonsDir, "--lang", "en", f)
		if code != 1 || !strings.Contains(stderr, "another author") {
			t.Errorf("import of %s over the signed pack: %d %s %s", filepath.Base(f), code, stdout, stderr)
		}
	}
	code, stdout, _ = runCLI(t, "pack", "list", "--lessons", lessonsDir, "--lang", "en")
	if code != 0 || !strings.Contains(stdout, "example.first-pack 1.0.0\tkey "+fp) {
		t.Errorf("list: %d %q", code, stdout)
	}
	code, stdout, _ = runCLI(t, "pack", "list", "--lessons", lessonsDir, "--json")
	var list []struct{ Origin, Signer string }
	if code != 0 || json.Unmarshal([]byte(stdout), &list) != nil || len(list) != 1 || !strings.HasPrefix(list[0].Origin, "ed25519:") {
		t.Errorf("list --json: %d %s", code, stdout)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file is %v", fi.Mode())
	}
}
