package packs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"kidcoder/backend/lessons"
	"kidcoder/backend/safefile"
	"kidcoder/backend/text"
)

// MetaDir is the hidden folder beside an imported pack's lessons that holds
// its checks, hints and progress. The lessons tree hides dot-folders, so
// the child never sees them as lessons.
const MetaDir = ".kidpack"

const (
	installedName = "installed.json"
	progressName  = "progress.json"
	filesDir      = "files"
	maxFolders    = 10000 // entries of the lessons folder looked at when finding a pack
	maxFolderName = 60
)

// ErrNotInPack is returned by FindLesson for a lesson that no pack installed.
var ErrNotInPack = errors.New("this lesson does not come from an exercise pack")

// installed is .kidpack/installed.json: the pack's manifest (without
// reference solutions) and what import wrote, so a later import can tell
// the teacher's files it may replace from files the child changed.
type installed struct {
	Manifest Manifest          `json:"manifest"`
	Lang     string            `json:"lang"`
	Written  map[string]string `json:"written"` // file beside the lessons -> sha256 as written
	// Origin is who the pack comes from; "" in an import recorded before
	// origins were, which counts as unsigned (see Pack.Updates).
	Origin Origin `json:"origin,omitempty"`
}

// Plan is what an import adds or changes, computed before anything is written.
type Plan struct {
	ID          string            `json:"id"`
	Version     string            `json:"version"`
	Title       text.Text         `json:"title"`
	Description text.Text         `json:"description"`
	Author      string            `json:"author"`
	Origin      Origin            `json:"origin"`   // who the pack comes from: with ID, its identity
	Signer      string            `json:"signer"`   // Origin as shown: "unsigned", "built-in" or "key 1a2b …"
	Folder      string            `json:"folder"`   // folder inside the lessons folder
	Previous    string            `json:"previous"` // version already there; "" for a new pack
	Exercises   []PlannedExercise `json:"exercises"`
	Writes      []string          `json:"writes"` // files written or replaced, relative to the lessons folder
	Kept        []string          `json:"kept"`   // the child's files left untouched
}

// PlannedExercise is one exercise of a Plan.
type PlannedExercise struct {
	ID     string    `json:"id"`
	Title  text.Text `json:"title"`
	Lesson string    `json:"lesson"` // the lesson file, relative to the lessons folder
	New    bool      `json:"new"`    // false: the child's code is kept
}

// Preview loads and verifies a pack and says what Import would do, writing
// nothing. With lessonsDir "" it describes the pack alone.
func Preview(file, lessonsDir, lang string) (*Plan, error) {
	p, err := Load(file)
	if err != nil {
		return nil, err
	}
	pl, _, err := plan(p, lessonsDir, lang)
	return pl, err
}

// Import adds the pack to the lessons folder, or updates an earlier import
// of it: instructions, hints, checks and untouched data files are replaced,
// the child's own code never is. lang picks the language of the lesson
// folder's name and of the NAME.md instructions beside each lesson.
func Import(file, lessonsDir, lang string) (*Plan, error) {
	p, err := Load(file)
	if err != nil {
		return nil, err
	}
	return ImportPack(p, lessonsDir, lang)
}

// ImportPack is Import for a pack already loaded. Package lessons does the
// writing: this package decides what goes where, lessons how it is written
// (atomically, never through a link, never over the child's code).
func ImportPack(p *Pack, lessonsDir, lang string) (*Plan, error) {
	if lessonsDir == "" {
		return nil, errors.New("no lessons folder")
	}
	if err := lessons.MakeFolder(lessonsDir); err != nil {
		return nil, fromLessons(lessonsDir, err)
	}
	// Planning and writing happen under one lock on the lessons folder,
	// shared with other processes (the window, `kidcoder pack import`): an
	// import plans from what the one before it finished writing, so two at
	// once leave one whole version, and one folder for a new pack.
	unlock, err := lockFolder(lessonsDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	pl, prev, err := plan(p, lessonsDir, lang)
	if err != nil {
		return nil, err
	}
	lw, err := lessons.OpenWriter(lessonsDir)
	if err != nil {
		return nil, fromLessons(lessonsDir, err)
	}
	defer lw.Close()
	pw, err := lw.MakeGroup(pl.Folder)
	if err != nil {
		return nil, fromLessons(lessonsDir, err)
	}
	defer pw.Close()
	meta, err := pw.MetaDir(MetaDir)
	if err != nil {
		return nil, fromLessons(lessonsDir, err)
	}
	defer meta.Close()
	if err := meta.ReplaceFolder(filesDir, metaFiles(p)); err != nil {
		return nil, fromLessons(lessonsDir, err)
	}
	kept := map[string]bool{}
	for _, k := range pl.Kept {
		kept[k] = true
	}
	inst := installed{Manifest: stripSolutions(p.Manifest), Lang: lang, Written: map[string]string{}, Origin: p.origin}
	files := lessonFiles(p, lang)
	for _, name := range sortedKeys(files) {
		data := files[name]
		rel := pl.Folder + "/" + name
		if kept[rel] {
			if prev != nil && prev.Written[name] != "" {
				inst.Written[name] = prev.Written[name]
			}
			continue
		}
		if strings.HasSuffix(name, ".py") {
			// The child's code is never replaced: a lesson that appeared
			// since the plan was made is theirs too.
			if err := pw.CreateFile(name, data); errors.Is(err, lessons.ErrExists) {
				pl.keptSince(rel)
			} else if err != nil {
				return nil, fromLessons(lessonsDir, err)
			}
			continue
		}
		if err := pw.WriteFile(name, data); err != nil {
			return nil, fromLessons(lessonsDir, err)
		}
		inst.Written[name] = sha(data)
	}
	b, err := json.MarshalIndent(inst, "", "  ")
	if err != nil {
		return nil, err
	}
	// Written last: until it is, a crashed import reads as the previous
	// version and simply runs again.
	if err := meta.WriteFile(installedName, b); err != nil {
		return nil, fromLessons(lessonsDir, err)
	}
	return pl, nil
}

// keptSince moves lesson rel from the plan's writes to what it keeps.
func (pl *Plan) keptSince(rel string) {
	pl.Writes = slices.DeleteFunc(pl.Writes, func(w string) bool { return w == rel })
	pl.Kept = append(pl.Kept, rel)
	sort.Strings(pl.Kept)
	for i := range pl.Exercises {
		if pl.Exercises[i].Lesson == rel {
			pl.Exercises[i].New = false
		}
	}
}

// fromLessons gives an error of the lessons folder's writer (dir is the
// folder it was opened on) the form import and progress have always
// returned: a link or a file where a folder belongs is named in full, and
// a failing file operation is its own *fs.PathError.
func fromLessons(dir string, err error) error {
	var le *lessons.Error
	if !errors.As(err, &le) {
		return err
	}
	where := filepath.Join(dir, filepath.FromSlash(le.Path))
	switch {
	case le.Code == lessons.CodeNotPlainFile:
		return fmt.Errorf("%s: %w", where, ErrNotRegular)
	case le.Code == lessons.CodeExists:
		return fmt.Errorf("%s: exists and is not a folder", where)
	case le.Err != nil:
		return le.Err
	}
	return err
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func stripSolutions(m Manifest) Manifest {
	m.Files = nil
	m.Exercises = append([]Exercise(nil), m.Exercises...)
	for i := range m.Exercises {
		m.Exercises[i].Solution = ""
	}
	return m
}

// lessonFiles are the files beside the lessons: starter code, instructions
// in lang, data files. Names come from validated ids and base names.
func lessonFiles(p *Pack, lang string) map[string][]byte {
	out := map[string][]byte{}
	for _, ex := range p.Manifest.Exercises {
		out[ex.ID+".py"] = p.files[ex.Starter]
		out[ex.ID+".md"] = p.files[ex.Instructions.In(lang)]
		for _, d := range ex.Data {
			out[path.Base(d)] = p.files[d]
		}
	}
	return out
}

// metaFiles are what goes in .kidpack/files: the pack's files minus the
// reference solutions, which must never reach the child's folder.
func metaFiles(p *Pack) map[string][]byte {
	solutions := map[string]bool{}
	for _, ex := range p.Manifest.Exercises {
		if ex.Solution != "" {
			solutions[ex.Solution] = true
		}
	}
	out := map[string][]byte{}
	for n, b := range p.files {
		if solutions[n] && !p.usedOtherwise(n) {
			continue
		}
		out[n] = b
	}
	return out
}

func (p *Pack) usedOtherwise(name string) bool {
	for field, f := range p.Manifest.referenced() {
		if f == name && !strings.HasSuffix(field, ".solution") {
			return true
		}
	}
	return false
}

func plan(p *Pack, lessonsDir, lang string) (*Plan, *installed, error) {
	m := &p.Manifest
	pl := &Plan{ID: m.ID, Version: m.Version, Title: m.Title, Description: m.Description, Author: m.Author,
		Origin: p.origin, Signer: p.origin.Signer(), Writes: []string{}, Kept: []string{}}
	if IsReservedID(m.ID) && p.origin != Builtin {
		return nil, nil, fileErr(p.Source, "", fmt.Errorf("%w (%s)", ErrReservedID, m.ID))
	}
	var prev *installed
	if lessonsDir != "" {
		folder, in, err := findInstalled(lessonsDir, p)
		if err != nil {
			return nil, nil, err
		}
		if in != nil {
			if CompareVersions(m.Version, in.Manifest.Version) < 0 {
				return nil, nil, fmt.Errorf("%s: %w (%s is there, this is %s)", folder, ErrOlderVersion, in.Manifest.Version, m.Version)
			}
			pl.Folder, pl.Previous, prev = folder, in.Manifest.Version, in
		} else {
			pl.Folder = freeFolder(lessonsDir, FolderName(m.Title.In(lang), m.ID))
		}
	} else {
		pl.Folder = FolderName(m.Title.In(lang), m.ID)
	}
	root := filepath.Join(lessonsDir, pl.Folder)
	files := lessonFiles(p, lang)
	for _, name := range sortedKeys(files) {
		rel := pl.Folder + "/" + name
		keep := false
		if lessonsDir != "" {
			cur, err := safefile.ReadFile(filepath.Join(root, name), MaxFileBytes)
			// Something there that is not a plain file we can read (a link,
			// a FIFO, too big) is not ours to judge: it counts as the child's.
			exists := !errors.Is(err, fs.ErrNotExist)
			switch {
			case strings.HasSuffix(name, ".py"):
				keep = exists // the child's code, whatever it holds
			case strings.HasSuffix(name, ".md") && isLessonID(m, strings.TrimSuffix(name, ".md")):
				keep = false // instructions belong to the teacher
			case err != nil:
				keep = exists
			default:
				// A data file the child changed stays; one still as imported is updated.
				keep = (prev == nil || prev.Written[name] != sha(cur)) && sha(cur) != sha(files[name])
			}
		}
		if keep {
			pl.Kept = append(pl.Kept, rel)
		} else {
			pl.Writes = append(pl.Writes, rel)
		}
	}
	for _, ex := range m.Exercises {
		rel := pl.Folder + "/" + ex.ID + ".py"
		isNew := true
		for _, k := range pl.Kept {
			if k == rel {
				isNew = false
			}
		}
		pl.Exercises = append(pl.Exercises, PlannedExercise{ID: ex.ID, Title: ex.Title, Lesson: rel, New: isNew})
	}
	return pl, prev, nil
}

func isLessonID(m *Manifest, id string) bool {
	for _, ex := range m.Exercises {
		if ex.ID == id {
			return true
		}
	}
	return false
}

// findInstalled looks for the earlier import p updates among the lessons
// folder's sub-folders, whatever they were renamed to since: one of the
// same id from the same origin first, else one p takes over
// ([Pack.Updates]). An import of p's id that p does not update is
// ErrOtherAuthor, except for the built-in course, which is never kept out
// by a pack of its id: it goes into a folder of its own beside it.
func findInstalled(lessonsDir string, p *Pack) (string, *installed, error) {
	f, err := os.Open(lessonsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	entries, err := f.ReadDir(maxFolders)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return "", nil, err
	}
	id := p.Manifest.ID
	var taken, other string
	var takenIn *installed
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		in, err := readInstalled(filepath.Join(lessonsDir, e.Name()))
		switch {
		case err != nil || in.Manifest.ID != id:
		case in.Origin == p.origin:
			return e.Name(), in, nil
		case p.Updates(id, in.Origin, in.Manifest.Version):
			if takenIn == nil {
				taken, takenIn = e.Name(), in
			}
		case other == "":
			other = e.Name()
		}
	}
	if takenIn != nil {
		return taken, takenIn, nil
	}
	if other != "" && p.origin != Builtin {
		return "", nil, fmt.Errorf("%s: %w", filepath.Join(lessonsDir, other), ErrOtherAuthor)
	}
	return "", nil, nil
}

// UpdatedIn picks, among the imported packs Summaries lists, the one an
// import of p would update, as Import finds it: of the same identity
// first, else one p takes over ([Pack.Updates]).
func (p *Pack) UpdatedIn(imported []PackSummary) (PackSummary, bool) {
	var taken *PackSummary
	for i, s := range imported {
		switch {
		case s.ID != p.Manifest.ID:
		case s.Origin == p.origin:
			return s, true
		case taken == nil && p.Updates(s.ID, s.Origin, s.Version):
			taken = &imported[i]
		}
	}
	if taken == nil {
		return PackSummary{}, false
	}
	return *taken, true
}

func readInstalled(packDir string) (*installed, error) {
	b, err := readPlain(filepath.Join(packDir, MetaDir), installedName, MaxManifestBytes+1<<20)
	if err != nil {
		return nil, err
	}
	var in installed
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", filepath.Join(packDir, MetaDir, installedName), ErrManifest, err)
	}
	if in.Written == nil {
		in.Written = map[string]string{}
	}
	return &in, nil
}

// FolderName turns a pack title into a folder name that keeps the lessons
// folder's one name rule ([lessons.CheckName]: valid on every OS the folder
// may be synced to, and shown by the lessons tree) and shows what it is:
// invisible format characters such as a right-to-left override are left
// out (see [safefile.CleanName]). fallback (the pack's id) is used when what
// is left of the title breaks the rule (nothing, "__pycache__",
// "desktop.ini", "COM¹"), and "pack" when the id breaks it too.
func FolderName(title, fallback string) string {
	var b strings.Builder
	for _, r := range safefile.CleanName(title) {
		switch {
		case r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	if utf8.RuneCountInString(s) > maxFolderName {
		s = strings.TrimSpace(string([]rune(s)[:maxFolderName]))
	}
	s = strings.TrimLeft(strings.TrimRight(s, ". "), ".")
	for _, name := range []string{s, fallback} {
		if lessons.CheckName(name) == nil {
			return name
		}
	}
	return "pack"
}

func freeFolder(lessonsDir, name string) string {
	candidate := name
	for i := 2; i < 1000; i++ {
		if _, err := os.Lstat(filepath.Join(lessonsDir, candidate)); errors.Is(err, fs.ErrNotExist) {
			return candidate
		}
		candidate = name + " (" + strconv.Itoa(i) + ")"
	}
	return name + " (" + strconv.FormatInt(time.Now().Unix(), 10) + ")"
}
