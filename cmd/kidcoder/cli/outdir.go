package cli

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"kidcoder/backend/kidrun"
)

// errNotOurs is returned by writeImages and writeTrace for a name held by
// something other than a plain file (a link, folder, FIFO, device, socket):
// kidcoder only ever replaces the pictures and traces it writes itself.
var errNotOurs = errors.New("not a plain file: left as it is")

// writeImages writes the pictures into dir as turtle.svg, figure-1.png, ...
// dir is opened once (made if missing) and every step is taken relative to
// that handle: each picture goes to a fresh hidden name created exclusively
// and is then renamed over its own name. A rename replaces the name itself,
// so a link planted there is never written through, and nothing opens an
// existing entry, so a FIFO cannot block the run. A picture that cannot be
// written does not stop the others.
func writeImages(dir string, images []kidrun.Image) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	var errs []error
	fig := 0
	for _, im := range images {
		data, err := base64.StdEncoding.DecodeString(im.Data)
		if err != nil {
			continue
		}
		name := "turtle.svg"
		if im.Mime == "image/png" {
			fig++
			name = fmt.Sprintf("figure-%d.png", fig)
		}
		if err := replaceOwn(root, name, data); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(dir, name), err))
		}
	}
	return errors.Join(errs...)
}

// writeTrace writes the run's trace as JSONL to path (docs/contracts.md §5),
// replacing a plain file there as writeImages does, never writing through
// a link.
func writeTrace(path string, t *kidrun.Trace) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := replaceOwnWith(root, name, t.WriteJSONL); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// replaceOwn puts data at name in root, replacing a plain file left there
// by an earlier run and refusing anything else.
func replaceOwn(root *os.Root, name string, data []byte) error {
	return replaceOwnWith(root, name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// replaceOwnWith is replaceOwn with the file's bytes written by write.
func replaceOwnWith(root *os.Root, name string, write func(io.Writer) error) (err error) {
	// The refusal is for a clear message; safety comes from the rename,
	// which also holds if the entry changes between this look and it.
	if fi, err := root.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%w (%s)", errNotOurs, kindOf(fi.Mode()))
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var f *os.File
	var tmp string
	for range 5 {
		tmp = "." + name + "." + rand.Text()[:10] + ".tmp"
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			root.Remove(tmp)
		}
	}()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return root.Rename(tmp, name)
}

func kindOf(m fs.FileMode) string {
	switch m.Type() {
	case fs.ModeSymlink:
		return "a link"
	case fs.ModeDir:
		return "a folder"
	case fs.ModeNamedPipe:
		return "a FIFO"
	case fs.ModeSocket:
		return "a socket"
	case fs.ModeDevice, fs.ModeDevice | fs.ModeCharDevice:
		return "a device"
	}
	return "not a plain file"
}
