package packs

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"io"
	"io/fs"
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

// TestSignedBuild: BuildSigned writes the signature docs/packs.md
// describes (the same bytes as signZip), deterministically, and reading the
// pack gives the key's origin.
func TestSignedBuild(t *testing.T) {
	key := testKey(4)
	src := scaffoldDir(t)
	signed, err := BuildSigned(src, key)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := BuildSigned(src, key)
	plain, _ := Build(src)
	if !bytes.Equal(signed, again) || !bytes.Equal(signed, signZip(t, plain, key)) {
		t.Fatal("signed builds differ from each other or from the documented signature")
	}
	p, err := ReadPack("p.kidpack", signed)
	if err != nil {
		t.Fatal(err)
	}
	want := KeyOrigin(key.Public().(ed25519.PublicKey))
	if p.Origin() != want || want.Fingerprint() == "" || len(want.Fingerprint()) != 29 {
		t.Errorf("origin %q, fingerprint %q", p.Origin(), want.Fingerprint())
	}
	if q, _ := ReadPack("p.kidpack", plain); q.Origin() != Unsigned || Unsigned.Fingerprint() != "" || Unsigned.Signer() != "unsigned" {
		t.Errorf("an unsigned build reads as %q", q.Origin())
	}
	if Origin("").Signer() != "unsigned" || Builtin.Signer() != "built-in" || want.Signer() != "key "+want.Fingerprint() {
		t.Error("signers")
	}
}

// withComment is b with its archive comment replaced.
func withComment(t *testing.T, b []byte, comment string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	zw.SetComment(comment)
	zw.Close()
	return buf.Bytes()
}

func TestSignatureComments(t *testing.T) {
	src := scaffoldDir(t)
	plain, _ := Build(src)
	signed, _ := BuildSigned(src, testKey(5))
	zr, _ := zip.NewReader(bytes.NewReader(signed), int64(len(signed)))
	good := zr.Comment
	f := strings.Split(good, " ")
	otherKey := base64.StdEncoding.EncodeToString(testKey(6).Public().(ed25519.PublicKey))
	for comment, want := range map[string]error{
		"made with a zip tool": nil,
		good:                   nil,
		f[0] + " ed25519 " + otherKey + " " + f[3]:    ErrBadSignature,
		f[0] + " ed25519 " + f[2] + " AAAA":           ErrBadSignature,
		f[0] + " rsa " + f[2] + " " + f[3]:            ErrBadSignature,
		f[0] + " ed25519 " + f[2]:                     ErrBadSignature,
		"kidpack-sig-v2 ed25519 " + f[2] + " " + f[3]: ErrNewerFormat,
	} {
		p, err := ReadPack("p.kidpack", withComment(t, plain, comment))
		switch {
		case want == nil && err != nil:
			t.Errorf("%q: %v", comment, err)
		case want != nil && !errors.Is(err, want):
			t.Errorf("%q: %v, want %v", comment, err, want)
		case want == nil && comment != good && p.Origin() != Unsigned:
			t.Errorf("%q reads as %q", comment, p.Origin())
		}
	}
}

func TestKeyFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "teacher.key")
	o, err := GenerateKey(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v (%v)", fi.Mode(), err)
	}
	if _, err := GenerateKey(file); !errors.Is(err, fs.ErrExist) {
		t.Errorf("GenerateKey over an existing key: %v", err)
	}
	key, err := ReadKey(file)
	if err != nil {
		t.Fatal(err)
	}
	if KeyOrigin(key.Public().(ed25519.PublicKey)) != o {
		t.Error("the key read back is another")
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(other, []byte("not a key\n"), 0o600)
	if _, err := ReadKey(other); !errors.Is(err, ErrNotKey) {
		t.Errorf("ReadKey of a text file: %v", err)
	}
}

func TestUpdates(t *testing.T) {
	k1 := KeyOrigin(testKey(7).Public().(ed25519.PublicKey))
	k2 := KeyOrigin(testKey(8).Public().(ed25519.PublicKey))
	pack := func(id string, o Origin) *Pack {
		return &Pack{Manifest: Manifest{ID: id, Version: "1.0.0"}, origin: o}
	}
	for _, c := range []struct {
		p       *Pack
		from    Origin
		version string
		want    bool
	}{
		{pack("a", k1), k1, "2.0.0", true},
		{pack("a", k1), k2, "0.1.0", false},
		{pack("a", k1), Unsigned, "0.1.0", true}, // the author starts signing
		{pack("a", k1), "", "0.1.0", true},
		{pack("a", Unsigned), k1, "0.1.0", false},
		{pack("a", Unsigned), Unsigned, "0.1.0", true},
		{pack("a", Unsigned), "", "0.1.0", true},
		{pack("a", Unsigned), Builtin, "0.1.0", false},
		{pack("kidcoder.x", k1), k1, "0.1.0", false},
		{pack("kidcoder.x", Unsigned), "", "0.1.0", false},
		{pack("kidcoder.x", Builtin), Builtin, "9.9.9", true},
		{pack("kidcoder.x", Builtin), "", "1.0.0", true},  // imported by an older Kid Coder
		{pack("kidcoder.x", Builtin), "", "9.9.9", false}, // newer than the course ever was
		{pack("kidcoder.x", Builtin), Unsigned, "0.1.0", false},
		{pack("kidcoder.x", Builtin), k1, "0.1.0", false},
	} {
		if got := c.p.Updates(c.p.Manifest.ID, c.from, c.version); got != c.want {
			t.Errorf("%s from %q over %q at %s: %v, want %v", c.p.Manifest.ID, c.p.origin, c.from, c.version, got, c.want)
		}
	}
	if pack("a", k1).Updates("b", k1, "0.1.0") {
		t.Error("a pack updates another id")
	}
}

// TestSignedTakesOverUnsigned: an author who starts signing updates their
// unsigned import in place; from then on an unsigned pack of the id is
// refused, with ErrOtherAuthor, and nothing changes.
func TestSignedTakesOverUnsigned(t *testing.T) {
	key := testKey(9)
	lessonsDir := t.TempDir()
	pl, err := Import(packFile(t, "1.0.0", nil, nil), lessonsDir, "en")
	if err != nil {
		t.Fatal(err)
	}
	pl2, err := Import(packFile(t, "1.1.0", key, nil), lessonsDir, "en")
	if err != nil || pl2.Folder != pl.Folder || pl2.Previous != "1.0.0" || pl2.Origin != KeyOrigin(key.Public().(ed25519.PublicKey)) {
		t.Fatalf("signed update: %+v, %v", pl2, err)
	}
	if _, err := Import(packFile(t, "1.2.0", nil, hostile), lessonsDir, "en"); !errors.Is(err, ErrOtherAuthor) {
		t.Errorf("unsigned after signed: %v, want ErrOtherAuthor", err)
	}
	list, err := Summaries(lessonsDir)
	if err != nil || len(list) != 1 || list[0].Version != "1.1.0" || list[0].Origin != pl2.Origin || list[0].Signer != pl2.Origin.Signer() {
		t.Errorf("summaries %+v, %v", list, err)
	}
}
