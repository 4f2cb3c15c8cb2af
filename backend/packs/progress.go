package packs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"kidcoder/backend/lessons"
	"kidcoder/backend/text"
)

// ExerciseProgress is how a child is doing on one exercise.
type ExerciseProgress struct {
	Solved      bool      `json:"solved"`
	Attempts    int       `json:"attempts"`
	Stars       int       `json:"stars"` // 0–3, the best reached; 0 until solved
	HintsShown  int       `json:"hints_shown"`
	LastAttempt time.Time `json:"last_attempt,omitzero"`
	SolvedAt    time.Time `json:"solved_at,omitzero"`
}

// progressFile is .kidpack/progress.json. It lives in the pack's folder so
// it moves and is backed up with the child's work.
type progressFile struct {
	Version   int                          `json:"version"`
	Exercises map[string]*ExerciseProgress `json:"exercises"`
}

// progressMu serialises read-modify-write of progress files in this process.
var progressMu sync.Mutex

const maxProgressBytes = 1 << 20

// LoadProgress reads a pack folder's progress; a missing file is no progress yet.
func LoadProgress(packDir string) (map[string]ExerciseProgress, error) {
	pf, err := readProgress(packDir)
	if err != nil {
		return nil, err
	}
	out := map[string]ExerciseProgress{}
	for id, p := range pf.Exercises {
		if p != nil {
			out[id] = *p
		}
	}
	return out, nil
}

func readProgress(packDir string) (*progressFile, error) {
	pf := &progressFile{Version: 1, Exercises: map[string]*ExerciseProgress{}}
	b, err := readPlain(filepath.Join(packDir, MetaDir), progressName, maxProgressBytes)
	if noFile(err) {
		// A FIFO or link in its place is no progress of ours; the next
		// attempt replaces it with a real file.
		return pf, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, pf); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(packDir, MetaDir, progressName), err)
	}
	if pf.Exercises == nil {
		pf.Exercises = map[string]*ExerciseProgress{}
	}
	return pf, nil
}

func updateProgress(packDir, id string, fn func(p *ExerciseProgress)) (ExerciseProgress, error) {
	progressMu.Lock()
	defer progressMu.Unlock()
	pf, err := readProgress(packDir)
	if err != nil {
		return ExerciseProgress{}, err
	}
	p := pf.Exercises[id]
	if p == nil {
		p = &ExerciseProgress{}
		pf.Exercises[id] = p
	}
	fn(p)
	b, err := json.MarshalIndent(pf, "", "  ")
	if err != nil {
		return ExerciseProgress{}, err
	}
	return *p, writeProgress(packDir, b)
}

// writeProgress replaces the pack's progress file through package lessons,
// the one writer of the lessons folder: atomically, and never through a
// link planted at .kidpack or at the file.
func writeProgress(packDir string, b []byte) error {
	w, err := lessons.OpenWriter(packDir)
	if err != nil {
		return fromLessons(packDir, err)
	}
	defer w.Close()
	meta, err := w.MetaDir(MetaDir)
	if err != nil {
		return fromLessons(packDir, err)
	}
	defer meta.Close()
	return fromLessons(packDir, meta.WriteFile(progressName, b))
}

// Stars for a solved exercise: three, one less for needing hints, one less
// for needing more than three tries; never below one.
func starsFor(p *ExerciseProgress) int {
	s := 3
	if p.HintsShown > 0 {
		s--
	}
	if p.Attempts > 3 {
		s--
	}
	return s
}

// RecordAttempt counts one checked attempt at exercise id of the pack in packDir.
func RecordAttempt(packDir, id string, passed bool, at time.Time) (ExerciseProgress, error) {
	return updateProgress(packDir, id, func(p *ExerciseProgress) {
		p.Attempts++
		p.LastAttempt = at.UTC().Truncate(time.Second)
		if passed {
			if !p.Solved {
				p.SolvedAt = p.LastAttempt
			}
			p.Solved = true
			p.Stars = max(p.Stars, starsFor(p))
		}
	})
}

// noFile reports whether err says a metadata file is missing or is not a
// plain file (a FIFO, device or link put in its place): none that import
// or progress wrote.
func noFile(err error) bool {
	var fe *FileError
	return errors.As(err, &fe) && (errors.Is(fe.Err, ErrMissing) || errors.Is(fe.Err, ErrNotRegular))
}

// Installed is a pack imported into a lessons folder.
type Installed struct {
	Dir      string   // the pack's folder
	Manifest Manifest // without reference solutions
	Lang     string   // language it was imported in
}

// OpenInstalled reads the pack imported into packDir.
func OpenInstalled(packDir string) (*Installed, error) {
	in, err := readInstalled(packDir)
	if err != nil {
		return nil, err
	}
	return &Installed{Dir: packDir, Manifest: in.Manifest, Lang: in.Lang}, nil
}

// Titles gives what the pack imported into dir shows instead of names: its
// exercises' titles by lesson name (the exercise id), and the folder's own
// title while the folder keeps the name the import gave it, from the pack's
// title in the language of that import ("海龟入门", "海龟入门 (2)"), so a
// window in the other language shows the folder in its own ("Turtle
// basics"). A folder renamed since keeps the name it was given. Empty for a
// folder that holds no pack. It is a lessons.Titler.
func Titles(dir string) lessons.Titles {
	in, err := readInstalled(dir)
	if err != nil {
		return lessons.Titles{}
	}
	out := lessons.Titles{Lessons: make(map[string]text.Text, len(in.Manifest.Exercises))}
	for _, ex := range in.Manifest.Exercises {
		out.Lessons[ex.ID] = ex.Title
	}
	name, suffix := filepath.Base(dir), ""
	if m := numberedFolder.FindStringSubmatch(name); m != nil {
		name, suffix = m[1], m[2]
	}
	title, id := in.Manifest.Title, in.Manifest.ID
	if name == FolderName(title.In(in.Lang), id) {
		out.Folder = &text.Text{Zh: FolderName(title.In(text.Zh), id) + suffix, En: FolderName(title.In(text.En), id) + suffix}
	}
	return out
}

// numberedFolder is a folder name freeFolder numbered: "NAME (2)".
var numberedFolder = regexp.MustCompile(`^(.+)( \([0-9]+\))$`)

// FindLesson returns the pack and exercise a lesson file belongs to, or ErrNotInPack.
func FindLesson(lessonFile string) (*Installed, *Exercise, error) {
	dir := filepath.Dir(lessonFile)
	id := strings.TrimSuffix(filepath.Base(lessonFile), ".py")
	in, err := OpenInstalled(dir)
	if noFile(err) {
		return nil, nil, ErrNotInPack
	}
	if err != nil {
		return nil, nil, err
	}
	for i := range in.Manifest.Exercises {
		if in.Manifest.Exercises[i].ID == id {
			return in, &in.Manifest.Exercises[i], nil
		}
	}
	return nil, nil, ErrNotInPack
}

// HostPath places data files beside the lessons and everything else in the metadata folder.
func (in *Installed) HostPath(p string) (string, error) {
	if err := CheckEntryName(p); err != nil {
		return "", fileErr(in.Dir, p, err)
	}
	root, rel := filepath.Join(in.Dir, MetaDir, filesDir), p
	for _, ex := range in.Manifest.Exercises {
		for _, d := range ex.Data {
			if d == p {
				root, rel = in.Dir, path.Base(p)
			}
		}
	}
	// The sandbox gets what it is given: a link planted in the lessons
	// folder, at the file or at a folder on the way, must not hand it a
	// file from elsewhere.
	for d := root; d != in.Dir; d = filepath.Dir(d) {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			return "", fileErr(in.Dir, p, ErrNotRegular)
		}
	}
	if err := plainPath(root, rel); err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(rel)), nil
}

// Instructions returns an exercise's instructions in lang (Markdown).
func (in *Installed) Instructions(id, lang string) (string, error) {
	for _, ex := range in.Manifest.Exercises {
		if ex.ID == id {
			b, err := readPlain(filepath.Join(in.Dir, MetaDir, filesDir), ex.Instructions.In(lang), MaxFileBytes)
			return string(b), err
		}
	}
	return "", fmt.Errorf("%s: %w", id, ErrNotInPack)
}

// Hint is one revealed hint.
type Hint struct {
	Index int    `json:"index"` // 0-based
	Total int    `json:"total"`
	Text  string `json:"text"`
}

// RevealHint shows the next hint of exercise id and remembers it, so hints
// come one at a time and stay revealed. Once all are shown it repeats the last.
func (in *Installed) RevealHint(id, lang string) (Hint, error) {
	ex, ok := in.exercise(id)
	if !ok {
		return Hint{}, fmt.Errorf("%s: %w", id, ErrNotInPack)
	}
	if len(ex.Hints) == 0 {
		return Hint{Index: -1}, nil
	}
	p, err := updateProgress(in.Dir, id, func(p *ExerciseProgress) {
		if p.HintsShown < len(ex.Hints) {
			p.HintsShown++
		}
	})
	if err != nil {
		return Hint{}, err
	}
	i := p.HintsShown - 1
	return Hint{Index: i, Total: len(ex.Hints), Text: ex.Hints[i].In(lang)}, nil
}

// ShownHints returns the hints already revealed for exercise id.
func (in *Installed) ShownHints(id, lang string) ([]Hint, error) {
	ex, ok := in.exercise(id)
	if !ok {
		return nil, fmt.Errorf("%s: %w", id, ErrNotInPack)
	}
	prog, err := LoadProgress(in.Dir)
	if err != nil {
		return nil, err
	}
	var out []Hint
	for i := 0; i < min(prog[id].HintsShown, len(ex.Hints)); i++ {
		out = append(out, Hint{Index: i, Total: len(ex.Hints), Text: ex.Hints[i].In(lang)})
	}
	return out, nil
}

func (in *Installed) exercise(id string) (*Exercise, bool) {
	for i := range in.Manifest.Exercises {
		if in.Manifest.Exercises[i].ID == id {
			return &in.Manifest.Exercises[i], true
		}
	}
	return nil, false
}

// CheckLesson is Checker{Runner: r, Lang: lang}.Lesson.
func CheckLesson(ctx context.Context, r Runner, lessonFile string, code []byte, lang string, now time.Time) (*Report, ExerciseProgress, error) {
	return Checker{Runner: r, Lang: lang}.Lesson(ctx, lessonFile, code, now)
}

// Lesson checks the child's code for a lesson that came from a pack and
// records the attempt in the pack's progress. A check that was stopped is
// no attempt: the progress comes back as it was.
func (c Checker) Lesson(ctx context.Context, lessonFile string, code []byte, now time.Time) (*Report, ExerciseProgress, error) {
	in, ex, err := FindLesson(lessonFile)
	if err != nil {
		return nil, ExerciseProgress{}, err
	}
	rep, err := c.Exercise(ctx, in, ex, code)
	if err != nil {
		return nil, ExerciseProgress{}, err
	}
	if rep.Ended == EndedStopped {
		prog, err := LoadProgress(in.Dir)
		return rep, prog[ex.ID], err
	}
	p, err := RecordAttempt(in.Dir, ex.ID, rep.Passed, now)
	return rep, p, err
}

// PackSummary is one imported pack as a parent or teacher sees it.
type PackSummary struct {
	Folder      string                      `json:"folder"` // relative to the lessons folder
	ID          string                      `json:"id"`
	Version     string                      `json:"version"`
	Origin      Origin                      `json:"origin"` // as recorded: "" for an import from before origins were
	Signer      string                      `json:"signer"` // Origin as shown: "unsigned", "built-in" or "key 1a2b …"
	Title       text.Text                   `json:"title"`
	Exercises   int                         `json:"exercises"`
	Solved      int                         `json:"solved"`
	Attempts    int                         `json:"attempts"`
	Stars       int                         `json:"stars"`
	MaxStars    int                         `json:"max_stars"`
	HintsShown  int                         `json:"hints_shown"`
	LastAttempt time.Time                   `json:"last_attempt,omitzero"`
	Progress    map[string]ExerciseProgress `json:"progress"` // by exercise id
}

// Summaries lists every pack imported into the lessons folder with the
// child's progress, in the natural order of their folder names (as the
// lessons tree shows them).
func Summaries(lessonsDir string) ([]PackSummary, error) {
	f, err := os.Open(lessonsDir)
	if err != nil {
		return nil, err
	}
	entries, err := f.ReadDir(maxFolders)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	out := []PackSummary{}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(lessonsDir, e.Name())
		in, err := readInstalled(dir)
		if noFile(err) || errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		prog, err := LoadProgress(dir)
		if err != nil {
			return nil, err
		}
		s := PackSummary{Folder: e.Name(), ID: in.Manifest.ID, Version: in.Manifest.Version, Origin: in.Origin, Signer: in.Origin.Signer(), Title: in.Manifest.Title,
			Exercises: len(in.Manifest.Exercises), MaxStars: 3 * len(in.Manifest.Exercises), Progress: map[string]ExerciseProgress{}}
		for _, ex := range in.Manifest.Exercises {
			p := prog[ex.ID]
			s.Progress[ex.ID] = p
			if p.Solved {
				s.Solved++
			}
			s.Attempts += p.Attempts
			s.Stars += p.Stars
			s.HintsShown += p.HintsShown
			if p.LastAttempt.After(s.LastAttempt) {
				s.LastAttempt = p.LastAttempt
			}
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b PackSummary) int {
		switch {
		case lessons.NaturalLess(a.Folder, b.Folder):
			return -1
		case lessons.NaturalLess(b.Folder, a.Folder):
			return 1
		}
		return 0
	})
	return out, nil
}
