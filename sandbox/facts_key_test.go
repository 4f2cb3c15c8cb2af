//go:build linux || darwin

package sandbox

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// sealWith writes v as a sealed cache file whose MAC was made with key on
// host, as a copy from elsewhere or a forger would.
func sealWith(t *testing.T, dir, name string, key []byte, host string, v any) {
	t.Helper()
	data, _ := json.Marshal(v)
	b, _ := json.Marshal(sealed{MAC: hex.EncodeToString(cacheMAC(key, host, name, data)), Data: data})
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// someoneElse is a uid other than the test's (nobody).
const someoneElse = 65534

func believed(dir string) bool {
	var v map[string]string
	return readSealed(dir, "probe.json", &v) && v["a"] == "b"
}

func TestCacheKeyMadePrivate(t *testing.T) {
	dir := t.TempDir()
	if _, err := cacheKey(dir, false); err == nil {
		t.Fatal("a key before any was made")
	}
	key, err := cacheKey(dir, true)
	if err != nil || len(key) != keyBytes {
		t.Fatalf("key %x, %v", key, err)
	}
	for path, want := range map[string]os.FileMode{filepath.Join(dir, keyDir): os.ModeDir | 0o700, filepath.Join(dir, keyDir, keyName): 0o600} {
		if fi, err := os.Lstat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v %v, want %v", path, fi.Mode(), err, want)
		}
	}
	again, err := cacheKey(dir, false)
	if err != nil || !bytes.Equal(again, key) {
		t.Errorf("the key read back differs: %x %v", again, err)
	}
	writeSealed(dir, "probe.json", map[string]string{"a": "b"})
	if !believed(dir) {
		t.Fatal("a file this install sealed is not believed")
	}
}

// Several processes sealing at once for the first time agree on one key.
func TestCacheKeyMadeOnce(t *testing.T) {
	dir := t.TempDir()
	keys := make([][]byte, 16)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[i], _ = cacheKey(dir, true)
		}()
	}
	wg.Wait()
	for i, k := range keys {
		if len(k) != keyBytes || !bytes.Equal(k, keys[0]) {
			t.Fatalf("key %d is %x, key 0 %x", i, k, keys[0])
		}
	}
	ents, _ := os.ReadDir(filepath.Join(dir, keyDir))
	if len(ents) != 1 {
		t.Errorf("the key folder holds %d entries, want the key alone", len(ents))
	}
}

// A cache sealed with the right key for another machine or boot (a copied
// home folder brings the key along) is not believed, nor one sealed with
// another key for this machine.
func TestCacheSealBoundToHostAndKey(t *testing.T) {
	dir := t.TempDir()
	key, err := cacheKey(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	v := map[string]string{"a": "b"}
	sealWith(t, dir, "probe.json", key, hostIdentity(), v)
	if !believed(dir) {
		t.Fatal("the control, sealed here with the key, is not believed")
	}
	sealWith(t, dir, "probe.json", key, "another-machine/another-boot", v)
	if believed(dir) {
		t.Error("a cache sealed on another machine was believed")
	}
	sealWith(t, dir, "probe.json", bytes.Repeat([]byte{7}, keyBytes), hostIdentity(), v)
	if believed(dir) {
		t.Error("a cache sealed with another key was believed")
	}
	// The facts' seal does not pass for the verdicts'.
	sealWith(t, dir, "other.json", key, hostIdentity(), v)
	os.Rename(filepath.Join(dir, "other.json"), filepath.Join(dir, "probe.json"))
	if believed(dir) {
		t.Error("one cache file's seal passed for another's")
	}
}

// A key that another program could have read or written is not used, and
// the next seal replaces it, so nothing sealed with it is believed again.
func TestCacheKeyNotPrivateRefused(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(t *testing.T, kdir string)
		root  bool // needs root to make
	}{
		{"key open to others", func(t *testing.T, kdir string) { os.Chmod(filepath.Join(kdir, keyName), 0o644) }, false},
		{"folder open to others", func(t *testing.T, kdir string) { os.Chmod(kdir, 0o755) }, false},
		{"key a link", func(t *testing.T, kdir string) {
			known := filepath.Join(t.TempDir(), "known")
			os.WriteFile(known, bytes.Repeat([]byte{1}, keyBytes), 0o600)
			os.Remove(filepath.Join(kdir, keyName))
			os.Symlink(known, filepath.Join(kdir, keyName))
		}, false},
		{"key of the wrong size", func(t *testing.T, kdir string) {
			os.WriteFile(filepath.Join(kdir, keyName), []byte("short"), 0o600)
		}, false},
		{"key another user's", func(t *testing.T, kdir string) { os.Lchown(filepath.Join(kdir, keyName), someoneElse, someoneElse) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file away")
			}
			dir := t.TempDir()
			kdir := filepath.Join(dir, keyDir)
			writeSealed(dir, "probe.json", map[string]string{"a": "b"})
			old, _ := cacheKey(dir, false)
			c.spoil(t, kdir)
			if k, err := cacheKey(dir, false); err == nil {
				t.Fatalf("key %x used", k)
			}
			if believed(dir) {
				t.Fatal("a cache sealed under a spoilt key was believed")
			}
			fresh, err := cacheKey(dir, true)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(fresh, old) {
				t.Error("the spoilt key was kept")
			}
			if believed(dir) {
				t.Error("a cache sealed under the spoilt key was believed after the key was replaced")
			}
			if fi, err := os.Lstat(kdir); err != nil || fi.Mode() != os.ModeDir|0o700 {
				t.Errorf("key folder %v, %v", fi.Mode(), err)
			}
		})
	}
}

// A key folder that is a link, or another user's, is never used, not even
// to write a new key in.
func TestCacheKeyFolderNotOursRefused(t *testing.T) {
	t.Run("link", func(t *testing.T) {
		dir := t.TempDir()
		elsewhere := filepath.Join(t.TempDir(), "keys")
		if _, err := cacheKey(filepath.Dir(elsewhere), true); err != nil {
			t.Fatal(err)
		}
		os.Symlink(filepath.Join(filepath.Dir(elsewhere), keyDir), filepath.Join(dir, keyDir))
		for _, create := range []bool{false, true} {
			if k, err := cacheKey(dir, create); err == nil {
				t.Errorf("create=%v: key %x through a link", create, k)
			}
		}
	})
	t.Run("another user's", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give a folder away")
		}
		dir := t.TempDir()
		if _, err := cacheKey(dir, true); err != nil {
			t.Fatal(err)
		}
		os.Chown(filepath.Join(dir, keyDir), someoneElse, someoneElse)
		for _, create := range []bool{false, true} {
			if k, err := cacheKey(dir, create); err == nil {
				t.Errorf("create=%v: key %x in a folder another user owns", create, k)
			}
		}
	})
}
