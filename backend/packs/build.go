package packs

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"time"

	"kidcoder/backend/atomicfile"
)

// buildTime is the timestamp of every entry, so that the same folder always
// builds the same bytes (the zip epoch; the real date says nothing useful).
var buildTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Build reads a pack's source folder, validates it and returns the .kidpack
// bytes. The output depends only on the files the manifest names: entries
// are sorted (pack.json first), timestamps and modes fixed, and compression
// is deflate at a fixed level.
func Build(dir string) ([]byte, error) { return BuildSigned(dir, nil) }

// BuildSigned is Build with the pack signed with key (nil: unsigned), so
// that only packs signed with the same key update it once imported
// (docs/packs.md). ed25519 signatures are deterministic: the same folder
// and key still give the same bytes.
func BuildSigned(dir string, key ed25519.PrivateKey) ([]byte, error) {
	p, err := loadDir(dir)
	if err != nil {
		return nil, err
	}
	return p.zipBytes(key)
}

// BuildFile builds dir into out, replacing out atomically.
func BuildFile(dir, out string) error {
	b, err := Build(dir)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(out, b, 0o644)
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

func (p *Pack) zipBytes(key ed25519.PrivateKey) ([]byte, error) {
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
	if key != nil {
		if err := zw.SetComment(signatureComment(mb, key)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
