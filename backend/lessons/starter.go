package lessons

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"time"
)

//go:embed starter
var starterFS embed.FS

// StarterLessons lists the names of the lessons (and their instructions)
// that a new lessons folder starts with, in order.
func StarterLessons() []string {
	entries, _ := fs.ReadDir(starterFS, "starter")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sortFunc(names, NaturalLess)
	return names
}

// starName is the starter lesson that is also the app's star demo.
const starName = "1 star.py"

// StarDemo returns the star demo program: a golden filled five-pointed star
// with dots around it and a friendly line in Chinese and English. The app's
// demo button and the starter lesson share this code.
func StarDemo() string {
	b, err := starterFS.ReadFile(path.Join("starter", starName))
	if err != nil {
		panic("lessons: star demo missing from the build: " + err.Error())
	}
	return string(b)
}

// Setup prepares the lessons folder at root on start: it creates the folder
// if needed and, the first time the folder is used, writes the starter
// lessons. Starters are written only into a folder that has no lessons or
// groups yet, and never over an existing file; once written they are not
// written again, so a parent who deletes them is not second-guessed.
// It also tidies up (see [Library.Tidy]) and returns the folder, opened.
func Setup(root string) (*Library, error) {
	if err := MakeFolder(root); err != nil {
		return nil, err
	}
	l, err := NewLibrary(root)
	if err != nil {
		return nil, err
	}
	if _, err := l.WriteStarters(); err != nil {
		return nil, err
	}
	l.Tidy(time.Now())
	return l, nil
}

// WriteStarters writes the starter lessons if this folder never had them and
// holds no lessons or groups. It returns the paths written.
func (l *Library) WriteStarters() ([]string, error) {
	st := l.State()
	if st.StartersWritten {
		return nil, nil
	}
	tree, err := l.List()
	if err != nil {
		return nil, err
	}
	var written []string
	if len(tree.Children) == 0 {
		for _, name := range StarterLessons() {
			b, err := starterFS.ReadFile(path.Join("starter", name))
			if err != nil {
				return written, err
			}
			err = createNew(filepath.Join(l.root, name), b, 0o644)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return written, mapFSErr(name, err)
			}
			written = append(written, name)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	st = l.State()
	st.StartersWritten = true
	// Remembering is a convenience: starters only ever go into an empty
	// folder, so if the state cannot be written (a .kidcoder that is a link,
	// say) the folder still opens, and the next start simply checks again.
	_ = l.writeState(st)
	return written, nil
}
