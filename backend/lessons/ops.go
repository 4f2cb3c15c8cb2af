package lessons

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"kidcoder/backend/safefile"
)

func stemOf(name string) string { return strings.TrimSuffix(name, LessonExt) }

// mapFSErr gives file-system errors from our operations their code.
func mapFSErr(rel string, err error) error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return err
	case errors.Is(err, fs.ErrExist):
		return newErr(CodeExists, rel, err)
	case errors.Is(err, fs.ErrNotExist):
		return newErr(CodeNotFound, rel, err)
	}
	return newErr(CodeWriteFailed, rel, err)
}

// groupDir resolves a group path ("" for the top) that must be a folder.
func (l *Library) groupDir(group string) (string, error) {
	p, err := l.resolve(group)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return "", newErr(CodeNotFound, group, err)
	}
	return p, nil
}

// New creates an empty lesson called name (".py" optional) in group and
// returns its path. It fails with ErrExists rather than replace a file.
// Invisible format characters are left out of the name (see
// [safefile.CleanName]), so the path returned may differ from name.
func (l *Library) New(group, name string) (string, error) {
	name = stemOf(safefile.CleanName(name))
	if err := CheckName(name + LessonExt); err != nil {
		return "", err
	}
	dir, err := l.groupDir(group)
	if err != nil {
		return "", err
	}
	rel := path.Join(group, name+LessonExt)
	return rel, mapFSErr(rel, createNew(filepath.Join(dir, name+LessonExt), nil, 0o644))
}

// NewGroup creates a sub-folder called name, cleaned like [Library.New]'s, in parent.
func (l *Library) NewGroup(parent, name string) (string, error) {
	name = safefile.CleanName(name)
	if err := CheckName(name); err != nil {
		return "", err
	}
	dir, err := l.groupDir(parent)
	if err != nil {
		return "", err
	}
	rel := path.Join(parent, name)
	return rel, mapFSErr(rel, os.Mkdir(filepath.Join(dir, name), 0o755))
}

// companions are the files that travel with a lesson when it is renamed,
// duplicated or deleted: its instructions.
func (l *Library) companions(rel string) []string {
	if !isLessonPath(rel) {
		return nil
	}
	md := path.Join(path.Dir(rel), stemOf(path.Base(rel))+InstructionsExt)
	p, err := l.resolve(md)
	if err != nil {
		return nil
	}
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
		return []string{md}
	}
	return nil
}

// Rename gives a lesson or group a new name in the same place and returns
// its new path, cleaned like [Library.New]'s. A lesson's instructions are renamed with it.
func (l *Library) Rename(rel, newName string) (string, error) {
	if rel == "" {
		return "", newErr(CodeBadName, rel, nil)
	}
	lesson := isLessonPath(rel)
	newName = safefile.CleanName(newName)
	check := newName
	if lesson {
		newName = stemOf(newName)
		check = newName + LessonExt
	}
	if err := CheckName(check); err != nil {
		return "", err
	}
	from, err := l.resolveNoFollow(rel)
	if err != nil {
		return "", err
	}
	newRel := path.Join(path.Dir(rel), newName)
	if lesson {
		newRel += LessonExt
	}
	to, err := l.resolveNoFollow(newRel)
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := renameNoReplace(from, to); err != nil {
		return "", mapFSErr(newRel, err)
	}
	for _, c := range l.companions(rel) {
		cFrom, _ := l.resolveNoFollow(c)
		cTo := filepath.Join(filepath.Dir(to), newName+InstructionsExt)
		_ = renameNoReplace(cFrom, cTo) // an instructions file already at the new name stays as it is
	}
	if l.open != nil {
		switch {
		case l.open.rel == rel:
			l.open.rel = newRel
		case !lesson && strings.HasPrefix(l.open.rel, rel+"/"):
			l.open.rel = newRel + strings.TrimPrefix(l.open.rel, rel)
		}
	}
	return newRel, nil
}

// resolveNoFollow is resolve for operations on the entry itself: a link
// inside the folder is renamed or deleted as a link, not its target.
func (l *Library) resolveNoFollow(rel string) (string, error) {
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	parent, err := l.resolve(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, path.Base(rel)), nil
}

// Duplicate copies a lesson (and its instructions) to "NAME (2).py", the
// first free number, and returns the copy's path.
func (l *Library) Duplicate(rel string) (string, error) {
	if !isLessonPath(rel) {
		return "", newErr(CodeNotLesson, rel, nil)
	}
	p, err := l.resolve(rel)
	if err != nil {
		return "", err
	}
	data, _, err := readLimited(p, rel)
	if err != nil {
		return "", err
	}
	stem := stemOf(path.Base(rel))
	// "star (2)" duplicates as "star (3)", not "star (2) (2)".
	if i := strings.LastIndex(stem, " ("); i > 0 && strings.HasSuffix(stem, ")") {
		if _, err := fmt.Sscanf(stem[i:], " (%d)", new(int)); err == nil {
			stem = stem[:i]
		}
	}
	dir := filepath.Dir(p)
	for n := 2; n < 1000; n++ {
		name := fmt.Sprintf("%s (%d)", stem, n)
		newRel := path.Join(path.Dir(rel), name+LessonExt)
		err := createNew(filepath.Join(dir, name+LessonExt), data, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", mapFSErr(newRel, err)
		}
		for _, c := range l.companions(rel) {
			if cp, err := l.resolve(c); err == nil {
				if md, _, err := readLimited(cp, c); err == nil {
					_ = createNew(filepath.Join(dir, name+InstructionsExt), md, 0o644)
				}
			}
		}
		return newRel, nil
	}
	return "", newErr(CodeExists, rel, nil)
}

// Deleted is a deletion that Undo can reverse.
type Deleted struct {
	ID    string    `json:"id"`
	Paths []string  `json:"paths"` // what was moved, as relative paths
	When  time.Time `json:"when"`
}

const manifestName = "deleted.json"

// Delete moves a lesson (with its instructions) or a whole group into the
// folder's .trash, where parents can still find it and Undo can restore it.
// Nothing is erased.
func (l *Library) Delete(rel string) (Deleted, error) {
	if rel == "" {
		return Deleted{}, newErr(CodeBadName, rel, nil)
	}
	src, err := l.resolveNoFollow(rel)
	if err != nil {
		return Deleted{}, err
	}
	if _, err := os.Lstat(src); err != nil {
		return Deleted{}, mapFSErr(rel, err)
	}
	root, err := l.realRoot()
	if err != nil {
		return Deleted{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	trash := filepath.Join(root, trashDir)
	if err := os.MkdirAll(trash, 0o755); err != nil {
		return Deleted{}, mapFSErr(rel, err)
	}
	id, slot := "", ""
	for n := 1; ; n++ {
		id = now.Format("20060102-150405")
		if n > 1 {
			id += fmt.Sprintf("-%d", n)
		}
		slot = filepath.Join(trash, id)
		if err := os.Mkdir(slot, 0o755); err == nil {
			break
		} else if !errors.Is(err, fs.ErrExist) || n > 1000 {
			return Deleted{}, mapFSErr(rel, err)
		}
	}
	d := Deleted{ID: id, When: now}
	for _, r := range append([]string{rel}, l.companions(rel)...) {
		from, err := l.resolveNoFollow(r)
		if err != nil {
			continue
		}
		to := filepath.Join(slot, "files", filepath.FromSlash(r))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return d, mapFSErr(r, err)
		}
		if err := os.Rename(from, to); err != nil {
			if r == rel {
				os.RemoveAll(slot)
				return Deleted{}, mapFSErr(r, err)
			}
			continue
		}
		d.Paths = append(d.Paths, r)
	}
	m, _ := json.Marshal(d)
	if err := WriteFileAtomic(filepath.Join(slot, manifestName), m, 0o644); err != nil {
		return d, mapFSErr(rel, err)
	}
	if l.open != nil && (l.open.rel == rel || strings.HasPrefix(l.open.rel, rel+"/")) {
		l.open = nil
	}
	return d, nil
}

// Undo restores the deletion with the given id, or the latest one when id
// is "". It returns the restored paths. Nothing is put back over a file
// that has since taken the same name (ErrExists).
func (l *Library) Undo(id string) ([]string, error) {
	root, err := l.realRoot()
	if err != nil {
		return nil, err
	}
	trash := filepath.Join(root, trashDir)
	if id == "" {
		ids := l.trashIDs(trash)
		if len(ids) == 0 {
			return nil, newErr(CodeNothingToUndo, "", nil)
		}
		id = ids[len(ids)-1]
	}
	if strings.ContainsAny(id, `/\`) || Ignored(id) {
		return nil, newErr(CodeNothingToUndo, id, nil)
	}
	slot := filepath.Join(trash, id)
	fi, err := os.Lstat(slot)
	if err != nil {
		return nil, newErr(CodeNothingToUndo, id, err)
	}
	d, ok := readDeleted(trash, fs.FileInfoToDirEntry(fi))
	if !ok || len(d.Paths) == 0 {
		return nil, newErr(CodeNothingToUndo, id, nil)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range d.Paths {
		if _, err := l.resolveNoFollow(r); err != nil {
			return nil, err
		}
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(r))); err == nil {
			return nil, newErr(CodeExists, r, nil)
		}
	}
	var restored []string
	for _, r := range d.Paths {
		to := filepath.Join(root, filepath.FromSlash(r))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return restored, mapFSErr(r, err)
		}
		if err := renameNoReplace(filepath.Join(slot, "files", filepath.FromSlash(r)), to); err != nil {
			return restored, mapFSErr(r, err)
		}
		restored = append(restored, r)
	}
	os.RemoveAll(slot)
	return restored, nil
}

// readDeleted reads the manifest of the deletion in trash entry e. Only a
// real folder counts: a link planted in .trash could otherwise have Undo
// move files in from anywhere. A manifest that is missing, damaged or not a
// plain file (a FIFO, or a link to /dev/zero) leaves that one deletion out.
func readDeleted(trash string, e fs.DirEntry) (Deleted, bool) {
	var d Deleted
	if !e.IsDir() {
		return d, false
	}
	b, err := safefile.ReadFile(filepath.Join(trash, e.Name(), manifestName), maxMetaBytes)
	if err != nil || json.Unmarshal(b, &d) != nil {
		return Deleted{}, false
	}
	return d, true
}

// trashIDs lists restorable deletions, oldest first.
func (l *Library) trashIDs(trash string) []string {
	entries, err := os.ReadDir(trash)
	if err != nil {
		return nil
	}
	type item struct {
		id   string
		when time.Time
	}
	var items []item
	for _, e := range entries {
		if d, ok := readDeleted(trash, e); ok {
			items = append(items, item{e.Name(), d.When})
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		if !items[i].when.Equal(items[j].when) {
			return items[i].when.Before(items[j].when)
		}
		return NaturalLess(items[i].id, items[j].id)
	})
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.id
	}
	return ids
}
