package packs

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"
)

// buildTime is the timestamp of every entry, so that the same folder always
// builds the same bytes (the zip epoch; the real date says nothing useful).
var buildTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Build reads a pack's source folder, validates it and returns the .kidpack
// bytes. The output depends only on the files the manifest names: entries
// are sorted (pack.json first), timestamps and modes fixed, and compression
// is deflate at a fixed level.
func Build(dir string) ([]byte, error) {
	p, err := loadDir(dir)
	if err != nil {
		return nil, err
	}
	return p.zipBytes()
}

// BuildFile builds dir into out, replacing out atomically.
func BuildFile(dir, out string) error {
	b, err := Build(dir)
	if err != nil {
		return err
	}
	return writeFileAtomic(out, b, 0o644)
}

func (p *Pack) manifestBytes() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p.Manifest); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (p *Pack) zipBytes() ([]byte, error) {
	m := p.Manifest
	m.Files = p.fileList()
	p.Manifest = m
	mb, err := p.manifestBytes()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	add := func(name string, data []byte) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: buildTime}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	if err := add(ManifestName, mb); err != nil {
		return nil, err
	}
	for _, fe := range m.Files {
		if err := add(fe.Path, p.files[fe.Path]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeFileAtomic replaces path with data so that a crash leaves the old or
// the new content, never a mix: temporary file in the same folder, fsync,
// rename, then fsync of the folder so the rename itself is durable.
func writeFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // not every file system syncs folders; the rename already happened
		d.Close()
	}
	return nil
}
