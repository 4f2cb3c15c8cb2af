package lessons

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"kidcoder/backend/safefile"
	"kidcoder/backend/text"
)

// MaxLessonSize is the largest file Open reads or Save writes: far beyond
// any child's program, small enough that the editor stays responsive.
const MaxLessonSize = 1 << 20

const (
	maxDepth   = 8     // group nesting shown in the tree
	maxEntries = 20000 // entries scanned per listing, so a mis-chosen folder (a whole home) stays cheap
)

// Library is one lessons folder. Paths in and out of its methods are
// relative to the folder and slash-separated ("第1周/star.py"), so the UI
// never handles, or can smuggle in, an absolute path.
type Library struct {
	root string

	mu    sync.Mutex // serialises writes with the watcher's look at the open lesson
	open  *openLesson
	w     *watcher
	aside string // the language of the names setAside gives; "" is English
	title Titler
}

// openLesson is what the UI has in its editor, so the watcher can tell an
// edit made elsewhere from our own saves and protect unsaved work.
type openLesson struct {
	rel      string
	version  string // what the editor's content is based on; "" if it did not exist
	dirty    bool
	reported bool // its deletion was already announced
	// id is the file on disk as last seen (read or saved), by which a
	// rename elsewhere is followed; hasID is false where there is none.
	id    fileID
	hasID bool
}

// fileID is a file's identity: its device and inode.
type fileID struct{ dev, ino uint64 }

// sameFile reports whether fi is the file last seen, as far as can be told.
func (o *openLesson) sameFile(fi fs.FileInfo) bool {
	id, ok := fileIDOf(fi)
	return !o.hasID || !ok || id == o.id
}

// seen notes the file as the lesson is on disk now: its version and identity.
func (o *openLesson) seen(version string, fi fs.FileInfo) {
	o.version = version
	o.id, o.hasID = fileIDOf(fi)
}

// NewLibrary opens the lessons folder at root, which must exist (see [Setup]
// to create it on first start).
func NewLibrary(root string) (*Library, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	l := &Library{root: abs}
	if err := l.checkRoot(); err != nil {
		return nil, err
	}
	return l, nil
}

// asideSuffix names the copy of a lesson kept from the disk, in the
// language the child reads ("NAME (from disk).py", "NAME（磁盘上的）.py").
var asideSuffix = map[string]string{"en": " (from disk)", "zh": "（磁盘上的）"}

// SetLang sets the language of the names given to copies kept aside
// ("zh" or "en"); the files already kept keep their names.
func (l *Library) SetLang(lang string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.aside = lang
}

// SetTitler sets where lesson titles come from; call it before Watch.
func (l *Library) SetTitler(f Titler) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.title = f
}

// Root is the folder's absolute path, for showing it to parents.
func (l *Library) Root() string { return l.root }

func (l *Library) checkRoot() error {
	fi, err := os.Stat(l.root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return newErr(CodeFolderMissing, "", err)
	case err != nil:
		return newErr(CodeFolderUnreadable, "", err)
	case !fi.IsDir():
		return newErr(CodeFolderMissing, "", errors.New("not a folder"))
	}
	d, err := os.Open(l.root)
	if err != nil {
		return newErr(CodeFolderUnreadable, "", err)
	}
	defer d.Close()
	if _, err := d.Readdirnames(1); err != nil && err != io.EOF {
		return newErr(CodeFolderUnreadable, "", err)
	}
	return nil
}

func (l *Library) realRoot() (string, error) {
	r, err := filepath.EvalSymlinks(l.root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", newErr(CodeFolderMissing, "", err)
		}
		return "", newErr(CodeFolderUnreadable, "", err)
	}
	return r, nil
}

func within(root, p string) bool {
	if p == root {
		return true
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolve maps a relative path to the file to read or write. Symbolic links
// are followed only while they stay inside the folder; the returned path is
// the link's target so that saving rewrites the target instead of replacing
// the link with a plain file.
func (l *Library) resolve(rel string) (string, error) {
	if strings.ContainsRune(rel, 0) || strings.Contains(rel, `\`) && filepath.Separator == '\\' {
		return "", newErr(CodeBadName, rel, nil)
	}
	clean := path.Clean("/" + rel)[1:]
	if rel != "" && (clean == "" || clean != strings.TrimSuffix(rel, "/")) {
		return "", newErr(CodeOutsideFolder, rel, nil)
	}
	for _, el := range strings.Split(clean, "/") {
		if clean != "" && Ignored(el) {
			return "", newErr(CodeNotFound, rel, nil)
		}
	}
	root, err := l.realRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, filepath.FromSlash(clean))
	// Follow links in the deepest part of the path that exists; the rest
	// will be created inside it.
	existing, rest := p, ""
	for {
		r, err := filepath.EvalSymlinks(existing)
		if err == nil {
			if !within(root, r) {
				return "", newErr(CodeOutsideFolder, rel, nil)
			}
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", newErr(CodeNotFound, rel, err)
		}
		parent := filepath.Dir(existing)
		if parent == existing || !within(root, parent) {
			return "", newErr(CodeOutsideFolder, rel, nil)
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
}

func isLessonPath(rel string) bool { return isLessonName(path.Base(rel)) }

// Node is one entry of the lessons tree.
type Node struct {
	Name         string  `json:"name"` // shown to the child: a lesson without ".py"
	Path         string  `json:"path"` // relative and slash-separated; "" for the folder itself
	Kind         string  `json:"kind"` // KindGroup or KindLesson
	Instructions bool    `json:"instructions,omitempty"`
	Children     []*Node `json:"children,omitempty"`
	// Title is the lesson's title when it has one (an exercise from a pack:
	// "画正方形" for 01-square.py), or the group's (a pack's folder still
	// named as it was imported: "海龟入门", which an English window shows as
	// "Turtle basics"); the UI shows it instead of Name.
	Title *text.Text `json:"title,omitempty"`
}

// Titles are what a folder and its lessons show instead of their names.
type Titles struct {
	// Folder is the folder's own title (an imported pack's, in both
	// languages); nil: its name.
	Folder *text.Text
	// Lessons are its lessons' titles, by name without ".py".
	Lessons map[string]text.Text
}

// Titler gives the titles of folder dir (absolute) and of its lessons.
type Titler func(dir string) Titles

const (
	KindGroup  = "group"
	KindLesson = "lesson"
)

// List returns the lessons tree: groups (sub-folders) first, then lessons,
// each in natural order. Hidden, temporary and editor files, files that are
// not lessons, and symbolic links that leave the folder are not listed;
// links to folders are never followed, so a link loop can't hang the scan.
func (l *Library) List() (*Node, error) {
	tree, _, err := l.scan()
	return tree, err
}

// scan lists the tree and the absolute folders in it, which the watcher
// needs to watch.
func (l *Library) scan() (*Node, []string, error) {
	if err := l.checkRoot(); err != nil {
		return nil, nil, err
	}
	root, err := l.realRoot()
	if err != nil {
		return nil, nil, err
	}
	top := &Node{Name: filepath.Base(l.root), Path: "", Kind: KindGroup}
	dirs := []string{root}
	budget := maxEntries
	l.scanDir(root, root, top, 1, &dirs, &budget)
	return top, dirs, nil
}

func (l *Library) scanDir(root, dir string, n *Node, depth int, dirs *[]string, budget *int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[e.Name()] = true
	}
	var titles map[string]text.Text
	if l.title != nil {
		t := l.title(dir)
		titles = t.Lessons
		if dir != root {
			n.Title = t.Folder
		}
	}
	var groups, lessons []*Node
	for _, e := range entries {
		if *budget <= 0 {
			break
		}
		*budget--
		name := e.Name()
		if Ignored(name) {
			continue
		}
		full := filepath.Join(dir, name)
		rel := filepath.ToSlash(strings.TrimPrefix(full, root+string(filepath.Separator)))
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(full)
			if err != nil || !within(root, target) {
				continue
			}
			fi, err := os.Stat(target)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			mode = 0
		}
		switch {
		case mode.IsDir():
			g := &Node{Name: name, Path: rel, Kind: KindGroup}
			*dirs = append(*dirs, full)
			if depth < maxDepth {
				l.scanDir(root, full, g, depth+1, dirs, budget)
			}
			groups = append(groups, g)
		case mode.IsRegular() && isLessonName(name):
			stem := strings.TrimSuffix(name, LessonExt)
			node := &Node{Name: stem, Path: rel, Kind: KindLesson, Instructions: names[stem+InstructionsExt]}
			if t, ok := titles[stem]; ok {
				node.Title = &t
			}
			lessons = append(lessons, node)
		}
	}
	sortNodes(groups)
	sortNodes(lessons)
	n.Children = append(groups, lessons...)
}

func sortNodes(ns []*Node) {
	sortFunc(ns, func(a, b *Node) bool { return NaturalLess(a.Name, b.Name) })
}

// Lesson is an opened lesson.
type Lesson struct {
	Path    string `json:"path"`
	Name    string `json:"name"`
	Content string `json:"content"`
	// Version names the disk state Content came from; pass it back to Save.
	Version  string `json:"version"`
	Encoding string `json:"encoding"`
	// NeedsConversion is set when the file is not UTF-8 (GBK from a
	// Chinese Windows editor, say): the UI should ask before Save converts it.
	NeedsConversion bool `json:"needsConversion"`
	// Instructions is the raw NAME.md text; the UI sanitises when rendering.
	Instructions string `json:"instructions,omitempty"`
	// InstructionsProblem says why a NAME.md that is there was not read.
	InstructionsProblem *Problem `json:"instructionsProblem,omitempty"`
	// DataFiles are the names of files beside the lesson that the program
	// may open by relative path (see [DataFiles]).
	DataFiles []string `json:"dataFiles,omitempty"`
}

// readLimited reads a regular file of at most MaxLessonSize bytes. A FIFO,
// device or link swapped in for the file is refused, never waited on or
// followed (see package safefile).
func readLimited(p, rel string) ([]byte, fs.FileInfo, error) {
	f, fi, err := safefile.Open(p, MaxLessonSize)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, newErr(CodeNotFound, rel, err)
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, nil, newErr(CodeTooLarge, rel, nil)
	case errors.Is(err, safefile.ErrNotRegular), errors.Is(err, safefile.ErrSymlink):
		return nil, nil, newErr(CodeNotPlainFile, rel, err)
	default:
		return nil, nil, newErr(CodeUnreadable, rel, err)
	}
	defer f.Close()
	// The file may grow between the check and the read; never take more than the cap.
	b, err := safefile.ReadAll(f, MaxLessonSize)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fi, newErr(CodeTooLarge, rel, nil)
	}
	if err != nil {
		return nil, fi, newErr(CodeUnreadable, rel, err)
	}
	return b, fi, nil
}

// Open reads a lesson and makes it the one the UI has open: from now on
// the watcher reports when it changes on disk (see [EventLessonChanged]).
func (l *Library) Open(rel string) (*Lesson, error) {
	lesson, fi, err := l.read(rel)
	if err != nil {
		return nil, err
	}
	o := &openLesson{rel: rel}
	o.seen(lesson.Version, fi)
	l.mu.Lock()
	l.open = o
	l.mu.Unlock()
	return lesson, nil
}

func (l *Library) read(rel string) (*Lesson, fs.FileInfo, error) {
	if !isLessonPath(rel) {
		return nil, nil, newErr(CodeNotLesson, rel, nil)
	}
	p, err := l.resolve(rel)
	if err != nil {
		return nil, nil, err
	}
	b, fi, err := readLimited(p, rel)
	if err != nil {
		return nil, nil, err
	}
	lesson, err := l.lessonFrom(rel, p, fi, b)
	return lesson, fi, err
}

func (l *Library) lessonFrom(rel, p string, fi fs.FileInfo, b []byte) (*Lesson, error) {
	text, enc, err := decodeText(b)
	if err != nil {
		return nil, newErr(CodeBinary, rel, nil)
	}
	stem := strings.TrimSuffix(path.Base(rel), LessonExt)
	lesson := &Lesson{
		Path:            rel,
		Name:            stem,
		Content:         text,
		Version:         makeVersion(fi, b),
		Encoding:        enc,
		NeedsConversion: needsConversion(enc),
	}
	// The lesson's own folder, not the link target's, holds its companions.
	dir := filepath.Dir(filepath.Join(l.root, filepath.FromSlash(rel)))
	lesson.Instructions, lesson.InstructionsProblem = l.instructions(path.Join(path.Dir(rel), stem+InstructionsExt))
	for _, f := range DataFiles(filepath.Join(dir, stem+LessonExt)) {
		lesson.DataFiles = append(lesson.DataFiles, filepath.Base(f))
	}
	return lesson, nil
}

// instructions reads the lesson's NAME.md. One that can't be read (a FIFO,
// a link out of the folder, too big, not text) costs only the instructions:
// the lesson still opens, and the problem says why they are missing.
func (l *Library) instructions(mdRel string) (string, *Problem) {
	mp, err := l.resolve(mdRel)
	var mb []byte
	if err == nil {
		mb, _, err = readLimited(mp, mdRel)
	}
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", ProblemOf(err)
	}
	s, _, err := decodeText(mb)
	if err != nil {
		return "", ProblemOf(newErr(CodeBinary, mdRel, nil))
	}
	return s, nil
}

// SetDirty tells the library whether the editor holds edits to rel that
// are not saved yet. While dirty, a change on disk never replaces the
// editor's text: both versions are kept (see [LessonKeptBoth]). The UI
// clears it once the editor's text equals what Save wrote.
func (l *Library) SetDirty(rel string, dirty bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open != nil && l.open.rel == rel {
		l.open.dirty = dirty
	}
}

// Close forgets the open lesson and stops watching; the app calls it before
// switching to another folder.
func (l *Library) Close() error {
	l.mu.Lock()
	w := l.w
	l.w = nil
	l.open = nil
	l.mu.Unlock()
	if w != nil {
		return w.close()
	}
	return nil
}

// SaveOptions are the user's answers the caller passes to Save.
type SaveOptions struct {
	// ConvertToUTF8: the user agreed to store a non-UTF-8 file as UTF-8.
	// Without it the file keeps its encoding.
	ConvertToUTF8 bool `json:"convertToUtf8"`
}

// SaveResult is the new disk state after a save.
type SaveResult struct {
	Path     string `json:"path"`
	Version  string `json:"version"`
	Encoding string `json:"encoding"`
}

// Save writes content to the lesson atomically. baseVersion is the Version
// the editor's text started from ("" for a file the UI believes is new).
// If the file on disk has other content now, nothing is written and the
// error is a *ConflictError (errors.Is ErrConflict) carrying the disk
// version; [Library.KeepBoth] then keeps both. A file deleted on disk is
// simply written again; a new one's name must pass [CheckName].
func (l *Library) Save(rel, content, baseVersion string, opts SaveOptions) (SaveResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.saveLocked(rel, content, baseVersion, opts)
}

func (l *Library) saveLocked(rel, content, baseVersion string, opts SaveOptions) (SaveResult, error) {
	if !isLessonPath(rel) {
		return SaveResult{}, newErr(CodeNotLesson, rel, nil)
	}
	p, err := l.resolve(rel)
	if err != nil {
		return SaveResult{}, err
	}
	enc, perm := EncUTF8, fs.FileMode(0o644)
	disk, fi, err := readLimited(p, rel)
	switch {
	case err == nil:
		if dv := makeVersion(fi, disk); !sameContent(dv, baseVersion) {
			return SaveResult{}, &ConflictError{Path: rel, DiskVersion: dv}
		}
		if _, e, derr := decodeText(disk); derr == nil {
			enc = e
		}
		perm = fi.Mode().Perm()
	case errors.Is(err, ErrNotFound):
		// A new lesson's name keeps the rule every writer keeps. The lesson
		// the window follows had its name on disk when it was opened:
		// deleted there since, writing it again loses nothing.
		if l.open == nil || l.open.rel != rel {
			if err := CheckName(path.Base(rel)); err != nil {
				return SaveResult{}, err
			}
		}
	case errors.Is(err, ErrTooLarge):
		return SaveResult{}, &ConflictError{Path: rel, DiskVersion: ""}
	default:
		return SaveResult{}, err
	}
	b, err := encodeText(content, enc, opts.ConvertToUTF8)
	if err != nil {
		return SaveResult{}, newErr(CodeNeedsConversion, rel, nil)
	}
	if len(b) > MaxLessonSize {
		return SaveResult{}, newErr(CodeTooLarge, rel, nil)
	}
	if err := WriteFileAtomic(p, b, perm); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return SaveResult{}, newErr(CodeNotFound, rel, err)
		}
		return SaveResult{}, newErr(CodeWriteFailed, rel, err)
	}
	nfi, err := os.Stat(p)
	if err != nil {
		return SaveResult{}, newErr(CodeWriteFailed, rel, err)
	}
	if opts.ConvertToUTF8 {
		enc = EncUTF8
	}
	res := SaveResult{Path: rel, Version: makeVersion(nfi, b), Encoding: enc}
	if l.open != nil && l.open.rel == rel {
		// The save replaced the file: a new identity to follow.
		l.open.seen(res.Version, nfi)
		l.open.reported = false
	}
	return res, nil
}

// KeptBoth says where each version went.
type KeptBoth struct {
	SaveResult
	// AsidePath holds what was on disk: "NAME (from disk).py", numbered when
	// that name is taken. "" when there was nothing to keep.
	AsidePath string `json:"asidePath"`
}

// KeepBoth settles a conflict without losing anything: the file on disk is
// copied aside byte for byte, then content is saved under rel.
func (l *Library) KeepBoth(rel, content string, opts SaveOptions) (KeptBoth, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, err := l.resolve(rel)
	if err != nil {
		return KeptBoth{}, err
	}
	var kept KeptBoth
	base := ""
	if disk, fi, err := readLimited(p, rel); err == nil {
		aside, err := l.setAside(rel, disk)
		if err != nil {
			return KeptBoth{}, err
		}
		kept.AsidePath = aside
		base = makeVersion(fi, disk)
	} else if !errors.Is(err, ErrNotFound) {
		return KeptBoth{}, err
	}
	res, err := l.saveLocked(rel, content, base, opts)
	kept.SaveResult = res
	return kept, err
}

// setAside stores data next to rel as "NAME (from disk).py" (in the
// language set with SetLang).
func (l *Library) setAside(rel string, data []byte) (string, error) {
	dir := path.Dir(rel)
	stem := strings.TrimSuffix(path.Base(rel), LessonExt)
	suffix, ok := asideSuffix[l.aside]
	if !ok {
		suffix = asideSuffix["en"]
	}
	for n := 1; n < 1000; n++ {
		name := stem + suffix
		if n > 1 {
			name += " " + itoa(n)
		}
		asideRel := path.Join(dir, name+LessonExt)
		p, err := l.resolve(asideRel)
		if err != nil {
			return "", err
		}
		err = createNew(p, data, 0o644)
		if err == nil {
			return asideRel, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", newErr(CodeWriteFailed, asideRel, err)
		}
	}
	return "", newErr(CodeExists, rel, nil)
}
