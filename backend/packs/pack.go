package packs

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/safefile"
)

// Pack is a pack read fully into memory and verified: every file it names
// is present, within bounds and, for a built pack, matches its sha256.
type Pack struct {
	Source   string // the .kidpack file or folder it came from
	Manifest Manifest
	files    map[string][]byte
	origin   Origin
}

// Origin is who the pack comes from: the key it is signed with, Unsigned
// (a source folder, or a file without a signature) or Builtin.
func (p *Pack) Origin() Origin { return p.origin }

// Updates reports whether importing p updates an earlier import of pack id
// from origin from, at version: the same id from the same origin. A signed
// pack also takes over an unsigned import of its id (its author starting to
// sign; anyone could have updated that one anyway), and the built-in course
// an import of its id recorded before origins were (from == ""), unless
// that one is newer than the course has ever been. Nothing but the course
// updates a course id.
func (p *Pack) Updates(id string, from Origin, version string) bool {
	switch {
	case id != p.Manifest.ID:
		return false
	case p.origin == Builtin:
		return from == Builtin || from == "" && CompareVersions(version, p.Manifest.Version) <= 0
	case IsReservedID(id):
		return false
	case from == p.origin || from == "" && p.origin == Unsigned:
		return true
	}
	return p.origin != Unsigned && (from == "" || from == Unsigned)
}

// File returns the content of a file of the pack by its path in the manifest.
func (p *Pack) File(name string) ([]byte, bool) {
	b, ok := p.files[name]
	return b, ok
}

// Exercise returns the exercise with id.
func (p *Pack) Exercise(id string) (*Exercise, bool) {
	for i := range p.Manifest.Exercises {
		if p.Manifest.Exercises[i].ID == id {
			return &p.Manifest.Exercises[i], true
		}
	}
	return nil, false
}

// Load reads a pack from a source folder or a .kidpack file.
func Load(src string) (*Pack, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return loadDir(src)
	}
	return loadFile(src)
}

// loadDir reads a teacher's source folder. Only the files the manifest
// names are read, each refused if it or a folder on its way is a link, so a
// pack built from the folder holds nothing from elsewhere on the disk.
func loadDir(dir string) (*Pack, error) {
	mf := filepath.Join(dir, ManifestName)
	data, err := readPlain(dir, ManifestName, MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data, mf)
	if err != nil {
		return nil, err
	}
	m.Files = nil
	if err := m.Validate(mf, false); err != nil {
		return nil, err
	}
	p := &Pack{Source: dir, Manifest: *m, files: map[string][]byte{}, origin: Unsigned}
	var total int64
	for _, name := range m.ReferencedFiles() {
		b, err := readPlain(dir, name, MaxFileBytes)
		if err != nil {
			return nil, err
		}
		if total += int64(len(b)); total > MaxTotalBytes {
			return nil, fileErr(dir, name, fmt.Errorf("%w: the pack's files together pass %d bytes", ErrTooLarge, MaxTotalBytes))
		}
		p.files[name] = b
	}
	if err := p.crossCheck(mf); err != nil {
		return nil, err
	}
	p.Manifest.Files = p.fileList()
	return p, nil
}

// plainPath checks that name, a pack path under dir, is a regular file
// reached without following any link.
func plainPath(dir, name string) error {
	if err := CheckEntryName(name); err != nil {
		return fileErr(dir, name, err)
	}
	cur := dir
	elems := strings.Split(name, "/")
	for i, e := range elems {
		cur = filepath.Join(cur, e)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return fileErr(dir, name, ErrMissing)
		}
		if err != nil {
			return fileErr(dir, name, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 || (i == len(elems)-1 && !fi.Mode().IsRegular()) {
			return fileErr(dir, name, ErrNotRegular)
		}
	}
	return nil
}

// readPlain reads a pack path under dir after plainPath's checks; the read
// is from a descriptor that refuses a FIFO, device or link swapped in since.
func readPlain(dir, name string, max int64) ([]byte, error) {
	if err := plainPath(dir, name); err != nil {
		return nil, err
	}
	b, err := safefile.ReadFile(filepath.Join(dir, filepath.FromSlash(name)), max)
	if err != nil {
		return nil, fileErr(dir, name, plainErr(err, max))
	}
	return b, nil
}

// plainErr gives safefile's refusals this package's sentinels.
func plainErr(err error, max int64) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ErrMissing
	case errors.Is(err, safefile.ErrNotRegular), errors.Is(err, safefile.ErrSymlink):
		return ErrNotRegular
	case errors.Is(err, safefile.ErrTooLarge):
		return fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, max)
	}
	return err
}

// loadFile reads a built .kidpack. Every bound is enforced on the bytes
// actually read, not on the sizes the archive claims.
func loadFile(file string) (*Pack, error) {
	// The family chose this file, perhaps through a link (a shortcut into
	// Downloads); what it points to must still be a plain file, opened
	// without waiting on a FIFO.
	target, err := filepath.EvalSymlinks(file)
	if err != nil {
		return nil, err
	}
	f, fi, err := safefile.Open(target, MaxPackBytes)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fileErr(file, "", fmt.Errorf("%w: the pack is larger than %d bytes", ErrTooLarge, MaxPackBytes))
	}
	if errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrSymlink) {
		return nil, fileErr(file, "", ErrNotRegular)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The zip reader reads only within the size checked on the descriptor.
	return readZip(file, f, fi.Size())
}

// ReadPack reads a built pack from memory; name labels errors.
func ReadPack(name string, data []byte) (*Pack, error) {
	if len(data) > MaxPackBytes {
		return nil, fileErr(name, "", fmt.Errorf("%w: the pack is larger than %d bytes", ErrTooLarge, MaxPackBytes))
	}
	return readZip(name, bytes.NewReader(data), int64(len(data)))
}

// ReadBuiltin reads a pack of Kid Coder's own course from memory: built by
// the program itself from the sources it carries, never from a file the
// family chose. Its origin is Builtin, which no pack file can have, and its
// id must be a reserved one (kidcoder.*).
func ReadBuiltin(name string, data []byte) (*Pack, error) {
	p, err := ReadPack(name, data)
	if err != nil {
		return nil, err
	}
	if !IsReservedID(p.Manifest.ID) || p.origin != Unsigned {
		return nil, fmt.Errorf("%s: a built-in pack has an id starting with %q and no signature", name, ReservedPrefix)
	}
	p.origin = Builtin
	return p, nil
}

func readZip(name string, r io.ReaderAt, size int64) (*Pack, error) {
	zr, err := zip.NewReader(r, size)
	// ErrInsecurePath still returns a usable reader; our own name rules
	// below reject those entries with a precise message.
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fileErr(name, "", fmt.Errorf("%w: %v", ErrNotZip, err))
	}
	if len(zr.File) > MaxEntries {
		return nil, fileErr(name, "", fmt.Errorf("%w: %d entries, at most %d", ErrTooManyFiles, len(zr.File), MaxEntries))
	}
	seen := map[string]string{}
	var entries []*zip.File
	for _, zf := range zr.File {
		n := zf.Name
		if strings.HasSuffix(n, "/") && zf.Mode().IsDir() && zf.UncompressedSize64 == 0 {
			if err := CheckEntryName(strings.TrimSuffix(n, "/")); err != nil {
				return nil, fileErr(name, n, err)
			}
			continue
		}
		if err := CheckEntryName(n); err != nil {
			return nil, fileErr(name, n, err)
		}
		if !zf.Mode().IsRegular() {
			return nil, fileErr(name, n, ErrNotRegular)
		}
		if zf.Flags&0x1 != 0 {
			return nil, fileErr(name, n, ErrEncrypted)
		}
		key := strings.ToLower(n)
		if prev, ok := seen[key]; ok {
			return nil, fileErr(name, n, fmt.Errorf("%w: also %q", ErrDuplicate, prev))
		}
		seen[key] = n
		entries = append(entries, zf)
	}
	files := map[string][]byte{}
	var total int64
	for _, zf := range entries {
		limit := int64(MaxFileBytes)
		if zf.Name == ManifestName {
			limit = MaxManifestBytes
		}
		b, err := readEntry(zf, limit)
		if err != nil {
			return nil, fileErr(name, zf.Name, err)
		}
		if total += int64(len(b)); total > MaxTotalBytes {
			return nil, fileErr(name, zf.Name, fmt.Errorf("%w: the pack's files together pass %d bytes", ErrTooLarge, MaxTotalBytes))
		}
		files[zf.Name] = b
	}
	mdata, ok := files[ManifestName]
	if !ok {
		return nil, fileErr(name, ManifestName, ErrMissing)
	}
	delete(files, ManifestName)
	label := name + ": " + ManifestName
	m, err := ParseManifest(mdata, label)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(label, true); err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for _, fe := range m.Files {
		listed[fe.Path] = true
		b, ok := files[fe.Path]
		if !ok {
			return nil, fileErr(name, fe.Path, ErrMissing)
		}
		sum := sha256.Sum256(b)
		if int64(len(b)) != fe.Size || hex.EncodeToString(sum[:]) != fe.SHA256 {
			return nil, fileErr(name, fe.Path, ErrChecksum)
		}
	}
	for _, n := range sortedKeys(files) {
		if !listed[n] {
			return nil, fileErr(name, n, ErrUnlisted)
		}
	}
	used := map[string]bool{}
	for _, p := range m.ReferencedFiles() {
		used[p] = true
	}
	for _, fe := range m.Files {
		if !used[fe.Path] {
			return nil, fileErr(name, fe.Path, fmt.Errorf("%w: listed but not used by any exercise", ErrUnlisted))
		}
	}
	origin, err := originOf(zr.Comment, mdata)
	if err != nil {
		return nil, fileErr(name, "", err)
	}
	p := &Pack{Source: name, Manifest: *m, files: files, origin: origin}
	if err := p.crossCheck(label); err != nil {
		return nil, err
	}
	return p, nil
}

// readEntry decompresses one entry, refusing it as soon as it passes its
// bound or expands more than a text file plausibly can.
func readEntry(zf *zip.File, limit int64) ([]byte, error) {
	if zf.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, zf.UncompressedSize64, limit)
	}
	if zf.UncompressedSize64 > ratioFloor && zf.UncompressedSize64 > MaxRatio*zf.CompressedSize64 {
		return nil, fmt.Errorf("%w: expands %d bytes to %d", ErrCompressionRatio, zf.CompressedSize64, zf.UncompressedSize64)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(zf.UncompressedSize64)+1))
	if err != nil {
		return nil, err
	}
	if uint64(len(b)) != zf.UncompressedSize64 {
		return nil, fmt.Errorf("%w: declares %d bytes but holds more", ErrCompressionRatio, zf.UncompressedSize64)
	}
	return b, nil
}

// crossCheck enforces the rules that need the files' content.
func (p *Pack) crossCheck(label string) error {
	var errs []error
	dataSum := map[string]string{} // base name -> sha, across the pack: data lands in one folder
	for i, ex := range p.Manifest.Exercises {
		for j, d := range ex.Data {
			base := path.Base(d)
			sum := sha256.Sum256(p.files[d])
			s := hex.EncodeToString(sum[:])
			if prev, ok := dataSum[strings.ToLower(base)]; ok && prev != s {
				errs = append(errs, &FieldError{File: label, Field: fmt.Sprintf("exercises[%d].data[%d]", i, j),
					Msg: fmt.Sprintf("another exercise has a different data file named %q; all exercises share one folder", base)})
			}
			dataSum[strings.ToLower(base)] = s
		}
	}
	ids := map[string]bool{}
	for _, ex := range p.Manifest.Exercises {
		ids[strings.ToLower(ex.ID)+".md"] = true
		ids[strings.ToLower(ex.ID)+".py"] = true
	}
	for i, ex := range p.Manifest.Exercises {
		for j, d := range ex.Data {
			if ids[strings.ToLower(path.Base(d))] {
				errs = append(errs, &FieldError{File: label, Field: fmt.Sprintf("exercises[%d].data[%d]", i, j),
					Msg: fmt.Sprintf("%q has the name of an exercise's file; rename it", path.Base(d))})
			}
		}
	}
	for i, ex := range p.Manifest.Exercises {
		for j, c := range ex.Checks {
			if c.Events == "" {
				continue
			}
			if _, err := kidrun.ParseTimeline(p.files[c.Events]); err != nil {
				errs = append(errs, &FieldError{File: label, Field: fmt.Sprintf("exercises[%d].checks[%d].events", i, j),
					Msg: fmt.Sprintf("%q: %v", c.Events, err)})
			}
		}
	}
	errs = append(errs, p.eventsRule(label)...)
	for _, n := range p.Manifest.ReferencedFiles() {
		if strings.HasSuffix(n, ".py") || strings.HasSuffix(n, ".md") || strings.HasSuffix(n, ".jsonl") {
			if !isUTF8(p.files[n]) {
				errs = append(errs, fileErr(p.Source, n, errors.New("must be UTF-8 text")))
			}
		}
	}
	return errors.Join(errs...)
}

func (p *Pack) fileList() []FileEntry {
	out := make([]FileEntry, 0, len(p.files))
	for _, n := range sortedKeys(p.files) {
		sum := sha256.Sum256(p.files[n])
		out = append(out, FileEntry{Path: n, Size: int64(len(p.files[n])), SHA256: hex.EncodeToString(sum[:])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
