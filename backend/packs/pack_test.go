package packs

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kidcoder/backend/text"
)

func scaffoldDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pack")
	if err := New(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func builtScaffold(t *testing.T) []byte {
	t.Helper()
	b, err := Build(scaffoldDir(t))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestScaffoldValidates(t *testing.T) {
	dir := scaffoldDir(t)
	p, err := Load(dir)
	if err != nil {
		t.Fatalf("the scaffold must validate: %v", err)
	}
	if err := p.Manifest.Validate("pack.json", true); err != nil {
		t.Fatalf("the scaffold's built manifest must validate: %v", err)
	}
	types := map[string]bool{}
	for _, c := range p.Manifest.Exercises[0].Checks {
		types[c.Type] = true
	}
	for _, want := range []string{CheckOutput, CheckTurtle, CheckSource, CheckCode} {
		if !types[want] {
			t.Errorf("the scaffold shows no %s check", want)
		}
	}
	if err := New(dir); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("New over an existing pack: %v, want ErrNotEmpty", err)
	}
}

func TestBuildDeterministic(t *testing.T) {
	dir := scaffoldDir(t)
	a, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Touching files and adding unrelated ones changes nothing.
	later := filepath.Join(dir, "exercises", "square", "starter.py")
	if err := os.Chtimes(later, buildTime.AddDate(40, 0, 0), buildTime.AddDate(40, 0, 0)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("draft"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same pack differ")
	}
	zr, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if !f.Modified.Equal(buildTime) {
			t.Errorf("%s has time %v", f.Name, f.Modified)
		}
	}
	if names[0] != ManifestName {
		t.Errorf("first entry %q, want pack.json", names[0])
	}
	for i := 2; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("entries not sorted: %q before %q", names[i-1], names[i])
		}
	}
	// A change to content changes the bytes.
	if err := os.WriteFile(later, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c) {
		t.Fatal("build ignored a changed file")
	}
}

func TestBuiltPackRoundTrip(t *testing.T) {
	b := builtScaffold(t)
	p, err := ReadPack("x.kidpack", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Manifest.Files) != 5 {
		t.Errorf("files listed: %d, want 5", len(p.Manifest.Files))
	}
	if _, ok := p.File("exercises/square/solution.py"); !ok {
		t.Error("solution missing from the built pack")
	}
}

type entry struct {
	name   string
	data   []byte
	mode   fs.FileMode
	method uint16
	flags  uint16
}

func makeZip(t *testing.T, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: e.method, Flags: e.flags}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entriesOf unpacks a built pack so a test can tamper with it.
func entriesOf(t *testing.T, b []byte) []entry {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out []entry
	for _, f := range zr.File {
		rc, _ := f.Open()
		var data bytes.Buffer
		data.ReadFrom(rc)
		rc.Close()
		out = append(out, entry{name: f.Name, data: data.Bytes(), method: zip.Deflate})
	}
	return out
}

func manifestOf(t *testing.T, es []entry) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(es[0].data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func withManifest(t *testing.T, es []entry, m map[string]any) []entry {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]entry(nil), es...)
	out[0] = entry{name: ManifestName, data: b, method: zip.Deflate}
	return out
}

func TestHostilePacks(t *testing.T) {
	good := entriesOf(t, builtScaffold(t))
	plus := func(extra ...entry) []entry { return append(append([]entry(nil), good...), extra...) }
	small := []byte("print(1)\n")
	tamperedSha := append([]entry(nil), good...)
	for i := range tamperedSha {
		if strings.HasSuffix(tamperedSha[i].name, "check_square.py") {
			tamperedSha[i].data = []byte("assert True\n")
		}
	}
	missing := []entry{}
	for _, e := range good {
		if !strings.HasSuffix(e.name, "starter.py") {
			missing = append(missing, e)
		}
	}
	newer := manifestOf(t, good)
	newer["format"] = 2
	unknown := manifestOf(t, good)
	unknown["colour"] = "red"
	badMatch := manifestOf(t, good)
	badMatch["exercises"].([]any)[0].(map[string]any)["checks"].([]any)[0].(map[string]any)["match"] = "fuzzy"
	slipRef := manifestOf(t, good)
	slipRef["exercises"].([]any)[0].(map[string]any)["starter"] = "../../starter.py"
	many := make([]entry, MaxEntries+1)
	for i := range many {
		many[i] = entry{name: "f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "/" + strings.Repeat("y", i/26+1) + ".txt", data: nil, method: zip.Store}
	}

	tests := []struct {
		name      string
		entries   []entry
		raw       []byte
		want      error
		wantField string
		wantFile  string
	}{
		{name: "zip slip", entries: plus(entry{name: "../evil.py", data: small}), want: ErrUnsafePath, wantFile: "../evil.py"},
		{name: "deep zip slip", entries: plus(entry{name: "exercises/../../evil.py", data: small}), want: ErrUnsafePath, wantFile: "exercises/../../evil.py"},
		{name: "absolute", entries: plus(entry{name: "/etc/cron.d/evil", data: small}), want: ErrUnsafePath, wantFile: "/etc/cron.d/evil"},
		{name: "backslash", entries: plus(entry{name: `..\evil.py`, data: small}), want: ErrUnsafePath},
		{name: "drive letter", entries: plus(entry{name: "C:/Windows/evil.py", data: small}), want: ErrUnsafePath},
		{name: "hidden", entries: plus(entry{name: ".kidpack/progress.json", data: small}), want: ErrUnsafePath},
		{name: "symlink", entries: plus(entry{name: "link", data: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777}), want: ErrNotRegular, wantFile: "link"},
		{name: "bad utf8 name", entries: plus(entry{name: "bad\xff.py", data: small}), want: ErrBadName},
		{name: "control char name", entries: plus(entry{name: "bad\x01.py", data: small}), want: ErrBadName},
		{name: "duplicate", entries: plus(entry{name: "exercises/square/starter.py", data: small}), want: ErrDuplicate},
		{name: "duplicate case", entries: plus(entry{name: "Exercises/square/starter.py", data: small}), want: ErrDuplicate},
		{name: "zip bomb ratio", entries: plus(entry{name: "bomb.txt", data: make([]byte, 4<<20), method: zip.Deflate}), want: ErrCompressionRatio, wantFile: "bomb.txt"},
		{name: "file too large", entries: plus(entry{name: "big.txt", data: make([]byte, MaxFileBytes+1), method: zip.Store}), want: ErrTooLarge, wantFile: "big.txt"},
		{name: "huge manifest", entries: append([]entry{{name: ManifestName, data: bytes.Repeat([]byte(" "), MaxManifestBytes+1), method: zip.Store}}, good[1:]...), want: ErrTooLarge, wantFile: ManifestName},
		{name: "too many files", entries: many, want: ErrTooManyFiles},
		{name: "encrypted", entries: plus(entry{name: "secret.txt", data: small, flags: 0x1}), want: ErrEncrypted},
		{name: "sha mismatch", entries: tamperedSha, want: ErrChecksum, wantFile: "exercises/square/check_square.py"},
		{name: "unlisted", entries: plus(entry{name: "extra.txt", data: small}), want: ErrUnlisted, wantFile: "extra.txt"},
		{name: "missing", entries: missing, want: ErrMissing, wantFile: "exercises/square/starter.py"},
		{name: "no manifest", entries: good[1:], want: ErrMissing, wantFile: ManifestName},
		{name: "newer format", entries: withManifest(t, good, newer), want: ErrNewerFormat},
		{name: "unknown field", entries: withManifest(t, good, unknown), want: ErrManifest},
		{name: "bad match mode", entries: withManifest(t, good, badMatch), want: ErrManifest, wantField: "exercises[0].checks[0].match"},
		{name: "manifest names an unsafe path", entries: withManifest(t, good, slipRef), want: ErrManifest, wantField: "exercises[0].starter"},
		{name: "not a zip", raw: []byte("this is not a zip"), want: ErrNotZip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := tt.raw
			if raw == nil {
				raw = makeZip(t, tt.entries)
			}
			file := filepath.Join(t.TempDir(), "hostile.kidpack")
			if err := os.WriteFile(file, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(file)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Load: %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), "hostile.kidpack") {
				t.Errorf("error %q does not name the pack", err)
			}
			if tt.wantFile != "" && !strings.Contains(err.Error(), tt.wantFile) {
				t.Errorf("error %q does not name %s", err, tt.wantFile)
			}
			if tt.wantField != "" && !strings.Contains(err.Error(), tt.wantField) {
				t.Errorf("error %q does not name field %s", err, tt.wantField)
			}
			lessons := t.TempDir()
			if _, err := Import(file, lessons, "en"); err == nil {
				t.Fatal("Import accepted a hostile pack")
			}
			if left, _ := os.ReadDir(lessons); len(left) != 0 {
				t.Errorf("a rejected import wrote %d entries", len(left))
			}
		})
	}
}

func TestSourceFolderRefusesLinks(t *testing.T) {
	dir := scaffoldDir(t)
	outside := filepath.Join(t.TempDir(), "secret.py")
	if err := os.WriteFile(outside, []byte("secret = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	starter := filepath.Join(dir, "exercises", "square", "starter.py")
	os.Remove(starter)
	if err := os.Symlink(outside, starter); err != nil {
		t.Skip("no symlinks here")
	}
	if _, err := Build(dir); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "starter.py") {
		t.Fatalf("Build followed a link: %v", err)
	}
}

func TestValidateRules(t *testing.T) {
	base := func() *Manifest {
		p, err := Load(scaffoldDir(t))
		if err != nil {
			t.Fatal(err)
		}
		return &p.Manifest
	}
	tests := []struct {
		name  string
		edit  func(m *Manifest)
		field string
	}{
		{"id", func(m *Manifest) { m.ID = "Bad ID" }, "id"},
		{"version", func(m *Manifest) { m.Version = "1.0" }, "version"},
		{"title zh", func(m *Manifest) { m.Title.Zh = "" }, "title.zh"},
		{"no exercises", func(m *Manifest) { m.Exercises = nil }, "exercises"},
		{"exercise id", func(m *Manifest) { m.Exercises[0].ID = "con" }, "exercises[0].id"},
		{"duplicate exercise", func(m *Manifest) { m.Exercises = append(m.Exercises, m.Exercises[0]) }, "exercises[1].id"},
		{"starter ext", func(m *Manifest) { m.Exercises[0].Starter = "a.txt" }, "exercises[0].starter"},
		{"hint en", func(m *Manifest) { m.Exercises[0].Hints[1].En = " " }, "exercises[0].hints[1].en"},
		{"regex", func(m *Manifest) { m.Exercises[0].Checks[0].Match = MatchRegex; m.Exercises[0].Checks[0].Expect = "(" }, "exercises[0].checks[0].expect"},
		{"turtle rule", func(m *Manifest) { m.Exercises[0].Checks[2].Rule = "spiral" }, "exercises[0].checks[2].rule"},
		{"polygon sides", func(m *Manifest) { m.Exercises[0].Checks[2].Sides = 2 }, "exercises[0].checks[2].sides"},
		{"colour", func(m *Manifest) {
			m.Exercises[0].Checks[2] = Check{Type: CheckTurtle, Rule: TurtleColorsUsed, Colors: []string{"red"}, Message: text.Text{Zh: "a", En: "b"}}
		}, "exercises[0].checks[2].colors[0]"},
		{"calls name", func(m *Manifest) {
			m.Exercises[0].Checks[4] = Check{Type: CheckSource, Rule: SourceCalls, Name: "os.system()", Message: text.Text{Zh: "a", En: "b"}}
		}, "exercises[0].checks[4].name"},
		{"check type", func(m *Manifest) { m.Exercises[0].Checks[0].Type = "magic" }, "exercises[0].checks[0].type"},
		{"negative tolerance", func(m *Manifest) { m.Exercises[0].Checks[3].Tolerance = -1 }, "exercises[0].checks[3].tolerance"},
		{"check message", func(m *Manifest) { m.Exercises[0].Checks[5].Message.Zh = "" }, "exercises[0].checks[5].message.zh"},
		{"files sha", func(m *Manifest) { m.Files = []FileEntry{{Path: "a.py", SHA256: "nothex"}} }, "files[0].sha256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base()
			if err := m.Validate("pack.json", false); err != nil {
				t.Fatalf("base manifest invalid: %v", err)
			}
			tt.edit(m)
			err := m.Validate("pack.json", false)
			var fe *FieldError
			if !errors.As(err, &fe) || !errors.Is(err, ErrManifest) {
				t.Fatalf("Validate: %v, want a FieldError", err)
			}
			if !strings.Contains(err.Error(), "pack.json: "+tt.field+": ") {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
		})
	}
}

func TestCheckEntryName(t *testing.T) {
	ok := []string{"a.py", "exercises/square/starter.py", "数据/单词.txt", "my file.txt"}
	bad := []string{"", "/a", "a/../b", "..", "a//b", "./a", "a\\b", "C:a", "c:/a", ".hidden", "a/.git/config", "nul.txt", "COM1", "a:b", "a ", "a.", "x\x00y", strings.Repeat("a/", 10) + "b"}
	for _, n := range ok {
		if err := CheckEntryName(n); err != nil {
			t.Errorf("CheckEntryName(%q) = %v", n, err)
		}
	}
	for _, n := range bad {
		if err := CheckEntryName(n); err == nil {
			t.Errorf("CheckEntryName(%q) accepted", n)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"1.0.0", "1.0.0", 0}, {"1.2.0", "1.10.0", -1}, {"2.0.0", "1.99.99", 1}} {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%s, %s) = %d", tt.a, tt.b, got)
		}
	}
}
