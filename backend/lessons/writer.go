package lessons

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"kidcoder/backend/atomicfile"
	"kidcoder/backend/safefile"
)

// Writer writes into a lessons folder, or into one folder of it, for code
// outside this package that decides what to write (an exercise pack's
// import, its progress): this package is the one that writes the lessons
// folder, so its rules hold for every write.
//
// Paths are relative to the Writer's folder and slash-separated. Every
// folder on the way must already be a real folder: a symbolic link is
// refused even when it points inside the lessons folder, so a link planted
// there can never redirect a write. Existing entries are addressed by their
// exact names; a new entry's name must be portable, not hidden (hidden
// folders are made with [Writer.MetaDir]) and unchanged by
// [safefile.CleanName] — a name that is not is refused rather than
// changed, so what is written is exactly what the caller planned, and
// perhaps showed. Files are written atomically, as by [WriteFileAtomic].
//
// A Writer holds its folder open: if the folder is moved meanwhile, writes
// follow it. Close it when done.
type Writer struct {
	root *os.Root
	dir  string // absolute, for errors
	rel  string // from the folder OpenWriter opened; "" for that folder
	// meta: the folder is a metadata folder or inside one, which the
	// lessons tree never lists, so its entries' names need only be portable.
	meta bool
}

// filePerm and dirPerm are what the lessons folder's own files and folders get.
const (
	filePerm = 0o644
	dirPerm  = 0o755
)

// MakeFolder creates the lessons folder at dir, and any missing parents, as
// [Setup] does but without starter lessons or tidying: for writers that run
// without the app, such as `kidcoder pack import`.
func MakeFolder(dir string) error {
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return newErr(CodeFolderUnreadable, "", err)
		}
		return newErr(CodeFolderMissing, "", err)
	}
	return nil
}

// OpenWriter opens dir, an existing folder (the lessons folder, or a group
// in it), for writing. Errors' paths are relative to dir.
func OpenWriter(dir string) (*Writer, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, newErr(CodeFolderMissing, "", err)
	}
	r, err := os.OpenRoot(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, newErr(CodeFolderMissing, "", err)
	case err != nil:
		return nil, newErr(CodeFolderUnreadable, "", err)
	}
	return &Writer{root: r, dir: abs}, nil
}

// Close releases the folder.
func (w *Writer) Close() error { return w.root.Close() }

// Dir is the folder's absolute path as it was when opened.
func (w *Writer) Dir() string { return w.dir }

// MakeGroup makes the group (sub-folder) rel if it is missing and returns a
// Writer for it. An existing folder is used as it is; a link at rel is
// refused with ErrNotPlainFile, a file with ErrExists.
func (w *Writer) MakeGroup(rel string) (*Writer, error) {
	els, code := splitPath(rel)
	if code != "" {
		return nil, newErr(code, w.relOf(rel), whyBadPath(code, rel))
	}
	return w.makeDir(els, false)
}

// MetaDir makes the hidden folder name (".kidpack", say) in the Writer's
// folder if it is missing and returns a Writer for it: where a program
// keeps what travels with the lessons but is never listed as one. The
// names this package keeps for itself (.trash, .kidcoder) are refused
// with ErrBadName; a link is refused like [Writer.MakeGroup]'s.
func (w *Writer) MetaDir(name string) (*Writer, error) {
	if !strings.HasPrefix(name, ".") || name == "." || name == ".." || strings.ContainsAny(name, `/\`) ||
		strings.EqualFold(name, trashDir) || strings.EqualFold(name, stateDir) {
		return nil, newErr(CodeBadName, w.relOf(name), nil)
	}
	return w.makeDir([]string{name}, true)
}

// WriteFile replaces the file rel with data, atomically. Whatever else is
// at rel (a link, a FIFO) is replaced by the file, never written through;
// a folder there is refused with ErrNotPlainFile.
func (w *Writer) WriteFile(rel string, data []byte) error {
	parent, name, err := w.parentOf(rel)
	if err != nil {
		return err
	}
	defer parent.Close()
	fi, err := parent.Lstat(name)
	switch {
	case err == nil && fi.IsDir():
		return newErr(CodeNotPlainFile, w.relOf(rel), nil)
	case errors.Is(err, fs.ErrNotExist):
		if err := w.checkNewName(name, false); err != nil {
			return newErr(CodeBadName, w.relOf(rel), err)
		}
	case err != nil:
		return w.fail(rel, "lstat", err)
	}
	if err := replaceIn(parent, name, data, filePerm); err != nil {
		return w.fail(rel, "write", err)
	}
	return nil
}

// CreateFile writes data to the new file rel, atomically where the file
// system has hard links. It never replaces anything: when rel exists, or
// appears meanwhile, it fails with ErrExists and rel is left as it is.
func (w *Writer) CreateFile(rel string, data []byte) error {
	parent, name, err := w.parentOf(rel)
	if err != nil {
		return err
	}
	defer parent.Close()
	if _, err := parent.Lstat(name); err == nil {
		return newErr(CodeExists, w.relOf(rel), fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return w.fail(rel, "lstat", err)
	}
	if err := w.checkNewName(name, false); err != nil {
		return newErr(CodeBadName, w.relOf(rel), err)
	}
	if err := createIn(parent, name, data, filePerm); err != nil {
		return w.fail(rel, "create", err)
	}
	return nil
}

// ReplaceFolder replaces the folder rel with one holding exactly files (by
// slash-separated path inside it). The new folder is written in full beside
// rel under a hidden name and then renamed into place, so rel holds the old
// set of files or the new, never a mix. What was at rel is removed after;
// a file there is replaced too, but a link is refused with ErrNotPlainFile.
func (w *Writer) ReplaceFolder(rel string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for n := range files {
		els, code := splitPath(n)
		cause := whyBadPath(code, n)
		if code == "" {
			for _, el := range els {
				if err := w.checkNewName(el, false); err != nil && cause == nil {
					code, cause = CodeBadName, err
				}
			}
		}
		if code != "" {
			return newErr(code, w.relOf(rel+"/"+n), cause)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	parent, name, err := w.parentOf(rel)
	if err != nil {
		return err
	}
	defer parent.Close()
	fi, err := parent.Lstat(name)
	exists := err == nil
	switch {
	case exists && fi.Mode()&fs.ModeSymlink != 0:
		return newErr(CodeNotPlainFile, w.relOf(rel), nil)
	case errors.Is(err, fs.ErrNotExist):
		if err := w.checkNewName(name, false); err != nil {
			return newErr(CodeBadName, w.relOf(rel), err)
		}
	case err != nil:
		return w.fail(rel, "lstat", err)
	}
	stage, err := mkdirTempIn(parent, name)
	if err != nil {
		return w.fail(rel, "mkdir", err)
	}
	published := false
	defer func() {
		if !published {
			parent.RemoveAll(stage)
		}
	}()
	if err := w.writeTree(parent, path.Join(path.Dir(rel), stage), names, files); err != nil {
		return err
	}
	aside := ""
	if exists {
		aside = tempName(name)
		if err := parent.Rename(name, aside); err != nil {
			return w.fail(rel, "rename", err)
		}
	}
	if err := parent.Rename(stage, name); err != nil {
		if aside != "" {
			parent.Rename(aside, name)
		}
		return w.fail(rel, "rename", err)
	}
	published = true
	if aside != "" {
		// The new files are in place; an old folder that can't be removed
		// now is hidden and harms nothing.
		parent.RemoveAll(aside)
	}
	if err := atomicfile.SyncRoot(parent); err != nil {
		return w.fail(rel, "sync", err)
	}
	return nil
}

// writeTree fills the new folder stage (at stageRel) with files: folders
// made as needed, each file created and synced, then every folder synced,
// so that the rename which publishes the folder publishes whole content.
func (w *Writer) writeTree(parent *os.Root, stageRel string, names []string, files map[string][]byte) error {
	root, err := w.walk(parent, path.Dir(stageRel), []string{path.Base(stageRel)}, false)
	if err != nil {
		return err
	}
	defer root.Close()
	dirs := map[string]bool{".": true}
	for _, n := range names {
		els := strings.Split(n, "/")
		dir, err := w.walk(root, stageRel, els[:len(els)-1], true)
		if err != nil {
			return err
		}
		err = writeNewIn(dir, els[len(els)-1], files[n], filePerm)
		dir.Close()
		if err != nil {
			return w.fail(stageRel+"/"+n, "write", err)
		}
		for d := path.Dir(n); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		var els []string
		if d != "." {
			els = strings.Split(d, "/")
		}
		dir, err := w.walk(root, stageRel, els, false)
		if err != nil {
			return err
		}
		err = atomicfile.SyncRoot(dir)
		dir.Close()
		if err != nil {
			return w.fail(path.Join(stageRel, d), "sync", err)
		}
	}
	return nil
}

// makeDir makes the folder els names if it is missing and opens it.
func (w *Writer) makeDir(els []string, hidden bool) (*Writer, error) {
	rel := path.Join(els...)
	parent, err := w.walk(w.root, "", els[:len(els)-1], false)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	name := els[len(els)-1]
	if _, err := parent.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		if err := w.checkNewName(name, hidden); err != nil {
			return nil, newErr(CodeBadName, w.relOf(rel), err)
		}
		if err := parent.Mkdir(name, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, w.fail(rel, "mkdir", err)
		}
		if err := atomicfile.SyncRoot(parent); err != nil {
			return nil, w.fail(rel, "sync", err)
		}
	}
	sub, err := w.enter(parent, rel, name, true)
	if err != nil {
		return nil, err
	}
	return &Writer{root: sub, dir: filepath.Join(w.dir, filepath.FromSlash(rel)), rel: w.relOf(rel), meta: w.meta || hidden}, nil
}

// parentOf opens the folder that holds rel and returns rel's last element.
func (w *Writer) parentOf(rel string) (*os.Root, string, error) {
	els, code := splitPath(rel)
	if code != "" {
		return nil, "", newErr(code, w.relOf(rel), whyBadPath(code, rel))
	}
	parent, err := w.walk(w.root, "", els[:len(els)-1], false)
	return parent, els[len(els)-1], err
}

// walk opens the folder els names under from (at base, for errors), one
// element at a time (see [Writer.enter]); with create, missing folders are
// made. The caller closes the result.
func (w *Writer) walk(from *os.Root, base string, els []string, create bool) (*os.Root, error) {
	cur, err := from.OpenRoot(".")
	if err != nil {
		return nil, w.fail(base, "open", err)
	}
	for i, el := range els {
		rel := path.Join(base, path.Join(els[:i+1]...))
		if create {
			if err := cur.Mkdir(el, dirPerm); err != nil && !errors.Is(err, fs.ErrExist) {
				cur.Close()
				return nil, w.fail(rel, "mkdir", err)
			}
		}
		next, err := w.enter(cur, rel, el, create)
		cur.Close()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// enter opens the folder name in parent (at rel). A link there is refused,
// and so is a link swapped in while it is opened (the folder opened must be
// the one looked at), because os.Root follows links that stay inside it.
// Something else there is ErrExists when the caller was making the folder
// (made), else ErrNotFound.
func (w *Writer) enter(parent *os.Root, rel, name string, made bool) (*os.Root, error) {
	fi, err := parent.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, newErr(CodeNotFound, w.relOf(rel), err)
	case err != nil:
		return nil, w.fail(rel, "lstat", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, newErr(CodeNotPlainFile, w.relOf(rel), nil)
	case !fi.IsDir() && made:
		return nil, newErr(CodeExists, w.relOf(rel), nil)
	case !fi.IsDir():
		return nil, newErr(CodeNotFound, w.relOf(rel), nil)
	}
	sub, err := parent.OpenRoot(name)
	if err != nil {
		return nil, w.fail(rel, "open", err)
	}
	st, err := sub.Stat(".")
	if err != nil || !os.SameFile(fi, st) {
		sub.Close()
		return nil, newErr(CodeNotPlainFile, w.relOf(rel), err)
	}
	return sub, nil
}

// whyBadPath is the cause of splitPath's bad_name: the first element's
// broken rule, so the message says what to change.
func whyBadPath(code Code, p string) error {
	if code != CodeBadName {
		return nil
	}
	for _, el := range strings.Split(p, "/") {
		if ne := nameProblem(el); ne != nil {
			return ne
		}
	}
	return nil
}

// splitPath checks p, a slash-separated path inside a Writer's folder, and
// returns its elements, or the code of the error to return. Hidden
// elements are refused: hidden folders are reached only through MetaDir,
// which keeps this package's own .trash and .kidcoder out of reach.
func splitPath(p string) ([]string, Code) {
	if p == "" || strings.ContainsRune(p, 0) || strings.Contains(p, `\`) {
		return nil, CodeBadName
	}
	if path.IsAbs(p) || path.Clean(p) != p || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return nil, CodeOutsideFolder
	}
	els := strings.Split(p, "/")
	for _, el := range els {
		switch {
		case el == "." || el == "..":
			return nil, CodeOutsideFolder
		case strings.HasPrefix(el, "."):
			return nil, CodeBadName
		}
	}
	return els, ""
}

func (w *Writer) relOf(rel string) string { return path.Join(w.rel, rel) }

// fail classifies a file-system error at rel, giving its path in full so
// the cause can be shown on its own.
func (w *Writer) fail(rel, op string, err error) error {
	cause := err
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		cause = pe.Err
	case errors.As(err, &le):
		cause = le.Err
	}
	return mapFSErr(w.relOf(rel), &fs.PathError{Op: op, Path: filepath.Join(w.dir, filepath.FromSlash(rel)), Err: cause})
}

// checkNewName says whether name may be given to a new entry. An entry is
// hidden exactly when it is a metadata folder, so no program can make a
// lesson the child won't see, nor a folder the tree would list by mistake;
// outside metadata, a name follows [CheckName], the rule every writer of
// the lessons folder keeps.
func (w *Writer) checkNewName(name string, hidden bool) error {
	if !w.meta && !hidden {
		if ne := nameProblem(name); ne != nil {
			return ne
		}
	}
	if !portable(name) || safefile.CleanName(name) != name || strings.HasPrefix(name, ".") != hidden || name == "." || name == ".." {
		return errNotPortable
	}
	return nil
}

// errNotPortable is the cause of a metadata name refused.
var errNotPortable = errors.New("not a portable name for metadata")
