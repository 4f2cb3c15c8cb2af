package packs

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testKey is a fixed ed25519 key, so signed test packs are the same bytes every run.
func testKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

// signZip signs a built pack as docs/packs.md describes, independently of
// the package's own signing code: the archive comment names the key and
// holds the signature of "kidpack-sig-v1\x00" followed by pack.json.
func signZip(t *testing.T, b []byte, key ed25519.PrivateKey) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []byte
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name == ManifestName {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			manifest, err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	sig := ed25519.Sign(key, append([]byte("kidpack-sig-v1\x00"), manifest...))
	pub := key.Public().(ed25519.PublicKey)
	if err := zw.SetComment("kidpack-sig-v1 ed25519 " + base64.StdEncoding.EncodeToString(pub) + " " + base64.StdEncoding.EncodeToString(sig)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// packFile builds the scaffold at version with fn's edits, signed with key
// unless it is nil, and returns the .kidpack's path.
func packFile(t *testing.T, version string, key ed25519.PrivateKey, fn func(dir string, m *Manifest)) string {
	t.Helper()
	src := scaffoldDir(t)
	editManifest(t, src, func(m *Manifest) {
		m.Version = version
		if fn != nil {
			fn(src, m)
		}
	})
	b, err := Build(src)
	if err != nil {
		t.Fatal(err)
	}
	if key != nil {
		b = signZip(t, b, key)
	}
	out := filepath.Join(t.TempDir(), "p.kidpack")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// hostile rewrites the scaffold's English instructions into a stranger's.
func hostile(dir string, m *Manifest) {
	os.WriteFile(filepath.Join(dir, "exercises/square/instructions.en.md"), []byte("# Type your parent's password\n"), 0o644)
}

// packFolders lists the lessons folder's sub-folders that hold a pack.
func packFolders(t *testing.T, lessonsDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(lessonsDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(lessonsDir, e.Name(), MetaDir, installedName)); err == nil {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestStrangerCannotUpdateSignedPack: a pack signed by its author is
// updated only by packs signed with the same key. A stranger reusing its
// id at 9.9.9, signed with another key or not at all, or carrying the
// author's key with a signature that does not match, is refused and leaves
// the instructions, checks and version as they were.
func TestStrangerCannotUpdateSignedPack(t *testing.T) {
	teacher, stranger := testKey(1), testKey(2)
	lessonsDir := t.TempDir()
	pl, err := Import(packFile(t, "1.0.0", teacher, nil), lessonsDir, "en")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(lessonsDir, pl.Folder)
	want := readFile(t, filepath.Join(root, "01-square.md"))

	forged := packFile(t, "9.9.9", teacher, hostile)
	b, _ := os.ReadFile(forged)
	// The teacher's key and signature over their own 1.0.0 manifest, on the stranger's archive.
	genuine, _ := os.ReadFile(packFile(t, "9.9.9", teacher, nil))
	zr, _ := zip.NewReader(bytes.NewReader(genuine), int64(len(genuine)))
	zf, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zf.File {
		zw.Copy(f)
	}
	zw.SetComment(zr.Comment)
	zw.Close()
	replayed := filepath.Join(t.TempDir(), "replayed.kidpack")
	os.WriteFile(replayed, buf.Bytes(), 0o644)

	for name, file := range map[string]string{
		"another key":        packFile(t, "9.9.9", stranger, hostile),
		"unsigned":           packFile(t, "9.9.9", nil, hostile),
		"replayed signature": replayed,
	} {
		if _, err := Import(file, lessonsDir, "en"); err == nil {
			t.Errorf("%s: the stranger's 9.9.9 was imported over the teacher's signed pack", name)
		}
		if _, err := Preview(file, lessonsDir, "en"); err == nil {
			t.Errorf("%s: the preview offers the stranger's 9.9.9 as an update", name)
		}
		if got := readFile(t, filepath.Join(root, "01-square.md")); got != want {
			t.Fatalf("%s: the instructions were replaced with %q", name, got)
		}
		if in, err := readInstalled(root); err != nil || in.Manifest.Version != "1.0.0" {
			t.Fatalf("%s: installed %+v, %v", name, in, err)
		}
		if f := packFolders(t, lessonsDir); len(f) != 1 {
			t.Fatalf("%s: pack folders %v", name, f)
		}
	}

	// The author's own update still goes through.
	if _, err := Import(packFile(t, "1.1.0", teacher, nil), lessonsDir, "en"); err != nil {
		t.Fatalf("the author's signed update: %v", err)
	}
	if in, err := readInstalled(root); err != nil || in.Manifest.Version != "1.1.0" {
		t.Fatalf("after the author's update: %+v, %v", in, err)
	}
}

// TestStrangerCannotClaimReservedID: ids of Kid Coder's own course
// (kidcoder.*) are refused from any file, signed or not, before anything
// is written.
func TestStrangerCannotClaimReservedID(t *testing.T) {
	for name, key := range map[string]ed25519.PrivateKey{"unsigned": nil, "signed": testKey(3)} {
		lessonsDir := t.TempDir()
		file := packFile(t, "9.9.9", key, func(dir string, m *Manifest) {
			hostile(dir, m)
			m.ID = "kidcoder.turtle-shapes"
		})
		if _, err := Preview(file, lessonsDir, "en"); err == nil {
			t.Errorf("%s: a pack with the course's id previews as importable", name)
		}
		if _, err := Import(file, lessonsDir, "en"); err == nil {
			t.Errorf("%s: a pack with the course's id was imported", name)
		}
		if f := packFolders(t, lessonsDir); len(f) != 0 {
			t.Errorf("%s: it wrote %v", name, f)
		}
		if entries, _ := os.ReadDir(lessonsDir); len(entries) != 0 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%s: the refused import left %s", name, strings.Join(names, ", "))
		}
	}
}
