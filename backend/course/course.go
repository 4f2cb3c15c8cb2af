package course

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"

	"kidcoder/backend/packs"
)

// The sources are embedded rather than the built packs so that there is one
// copy of every exercise in the repository, and a pack always matches the
// code that checks it. `make packs` builds the same folders with
// `kidcoder pack build`; Build gives the same bytes (builds are
// deterministic).
//
//go:embed all:packs
var sources embed.FS

// order is the course's order: drawing first, then the language, then games.
var order = []string{"turtle-shapes", "first-steps", "little-games"}

// Names lists the course's packs by source folder name, in course order.
func Names() []string { return append([]string(nil), order...) }

// Sources is the source folder of the named pack.
func Sources(name string) (fs.FS, error) {
	if !fs.ValidPath(name) || path.Base(name) != name || name == "." {
		return nil, fmt.Errorf("course: no pack %q", name)
	}
	if _, err := fs.Stat(sources, path.Join("packs", name, packs.ManifestName)); err != nil {
		return nil, fmt.Errorf("course: no pack %q", name)
	}
	return fs.Sub(sources, path.Join("packs", name))
}

// Build builds the named pack into .kidpack bytes. The packs package reads
// source folders from disk (refusing links on the way), so the embedded
// folder is copied into a temporary one first.
func Build(name string) ([]byte, error) {
	src, err := Sources(name)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kidcoder-course-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, src); err != nil {
		return nil, err
	}
	return packs.Build(dir)
}

// Load builds the named pack and reads it back, as an import would, as
// Kid Coder's own: only it updates an import of its id (packs.Builtin).
func Load(name string) (*packs.Pack, error) {
	b, err := Build(name)
	if err != nil {
		return nil, err
	}
	return packs.ReadBuiltin(name+".kidpack", b)
}
