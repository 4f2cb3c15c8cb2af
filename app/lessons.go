package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"kidcoder/backend/kidrun"
	"os"
	"path"

	"kidcoder/backend/lessons"
	"kidcoder/backend/packs"
	"kidcoder/backend/settings"
	"kidcoder/backend/text"
)

// ProblemError is an error made for the child: its code and both texts,
// JSON {"code", "zh", "en"} like lessons.Problem. Its Error() is that JSON
// object, because the shell hands a bound method's error to the frontend as
// a string; the frontend parses it back.
type ProblemError struct {
	Code string `json:"code"`
	text.Text
}

func (e *ProblemError) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// problem turns a lessons error into a ProblemError; nil stays nil.
func problem(err error) error {
	if err == nil {
		return nil
	}
	p := lessons.ProblemOf(err)
	return &ProblemError{Code: string(p.Code), Text: p.Text}
}

// errNoFolder is returned by lesson methods while no lessons folder is usable.
var errNoFolder = &ProblemError{Code: string(lessons.CodeFolderMissing), Text: lessons.CodeFolderMissing.Text(nil)}

// LessonsView is what the sidebar shows: the folder, its tree, or the
// problem that keeps it from being shown, and where the child was.
type LessonsView struct {
	Root      string                      `json:"root"`
	Tree      *lessons.Node               `json:"tree"`
	Problem   *lessons.Problem            `json:"problem,omitempty"`
	Open      string                      `json:"open,omitempty"`
	Positions map[string]lessons.Position `json:"positions,omitempty"`
}

// SetLessonsFlag sets the folder given on the command line; it wins over
// the environment and the settings. Call it before Startup.
func SetLessonsFlag(a *App, dir string) { a.lessonsFlag = dir }

// lessonsRoot picks the folder: the flag, then $KIDCODER_LESSONS, then the
// one the family chose in the app, then Documents/Kid Coder.
func (a *App) lessonsRoot(s settings.Settings) (string, error) {
	switch {
	case a.lessonsFlag != "":
		return lessons.ResolveDir(a.lessonsFlag)
	case s.LessonsDir != "" && os.Getenv(lessons.EnvDir) == "":
		return lessons.ResolveDir(s.LessonsDir)
	}
	return lessons.ResolveDir("")
}

// openLessons sets up the folder at root and starts following it. A folder
// that can't be used is remembered as the problem the sidebar shows.
func (a *App) openLessons(root string) {
	a.mu.Lock()
	lang := uiLang(a.settings)
	a.mu.Unlock()
	lib, err := lessons.Setup(root, lang)
	if err == nil {
		lib.SetLang(lang)
		lib.SetTitler(packs.Titles)
		err = lib.Watch(emitterFunc(a.lessonEvent))
		if err != nil {
			lib.Close()
			lib = nil
		}
	}
	a.mu.Lock()
	old := a.lib
	a.lib, a.libRoot, a.libErr = lib, root, err
	a.draft = nil
	a.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

// closeLessons stops the watcher; Shutdown calls it after saving the draft.
func (a *App) closeLessons() {
	a.mu.Lock()
	lib := a.lib
	a.lib = nil
	a.mu.Unlock()
	if lib != nil {
		lib.Close()
	}
}

// uiLang is the language the window shows: the settings' choice, else the
// system's.
func uiLang(s settings.Settings) string {
	if s.Lang != "" {
		return s.Lang
	}
	return text.System()
}

// lessonEvent passes the lessons folder's events to the window. A rename
// of the open lesson made elsewhere is followed here too: the draft a
// closing window leaves and the lesson shown go by the new name, so nothing
// writes the old name again beside it.
func (a *App) lessonEvent(event string, data any) {
	if ev, ok := data.(lessons.LessonChangedEvent); ok && ev.Kind == lessons.LessonRenamed {
		a.mu.Lock()
		if a.draft != nil && a.draft.Path == ev.Path {
			a.draft.Path = ev.NewPath
		}
		if a.shown == ev.Path {
			a.shown = ev.NewPath
		}
		a.mu.Unlock()
	}
	a.emit(event, data)
}

type emitterFunc func(event string, data any)

func (f emitterFunc) Emit(event string, data any) { f(event, data) }

func (a *App) library() (*lessons.Library, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lib == nil {
		if a.libErr != nil {
			return nil, problem(a.libErr)
		}
		return nil, errNoFolder
	}
	return a.lib, nil
}

// Lessons returns the lessons folder as the sidebar shows it. A missing or
// unreadable folder is not an error: Problem says what is wrong, so the
// sidebar can offer to choose another folder.
func (a *App) Lessons() LessonsView {
	a.mu.Lock()
	lib, root, libErr := a.lib, a.libRoot, a.libErr
	a.mu.Unlock()
	v := LessonsView{Root: root}
	if lib == nil {
		if libErr == nil {
			libErr = lessons.ErrFolderMissing
		}
		v.Problem = lessons.ProblemOf(libErr)
		return v
	}
	tree, err := lib.List()
	if err != nil {
		v.Problem = lessons.ProblemOf(err)
		return v
	}
	st := lib.State()
	v.Tree, v.Open, v.Positions = tree, st.Open, st.Positions
	return v
}

// OpenLesson reads a lesson and makes it the one the watcher follows.
func (a *App) OpenLesson(rel string) (*lessons.Lesson, error) {
	lib, err := a.library()
	if err != nil {
		return nil, err
	}
	l, err := lib.Open(rel)
	if err != nil {
		return nil, problem(err)
	}
	a.mu.Lock()
	a.draft = nil
	a.shown = rel
	a.lessonMpl = kidrun.UsesMatplotlib([]byte(l.Content))
	a.mu.Unlock()
	a.preferNext()
	return l, nil
}

// SetLessonDirty tells the watcher whether the editor holds unsaved edits,
// so a change on disk then keeps both versions instead of reloading.
func (a *App) SetLessonDirty(rel string, dirty bool) error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	lib.SetDirty(rel, dirty)
	return nil
}

// Draft is the editor's unsaved text, which the window hands over when it
// closes (CloseReady), so that closing between a keystroke and the next
// autosave loses nothing.
type Draft struct {
	Path          string `json:"path"`
	Content       string `json:"content"`
	Version       string `json:"version"`
	ConvertToUTF8 bool   `json:"convertToUtf8"`
}

// SaveRequest is what autosave sends.
type SaveRequest struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	// Version is the lesson's version the content was edited from.
	Version       string `json:"version"`
	ConvertToUTF8 bool   `json:"convertToUtf8"`
}

// SaveLesson writes the lesson if the file on disk is still the version
// the editor started from. Otherwise it writes nothing and fails with code
// "conflict"; the frontend then calls KeepBothLesson.
func (a *App) SaveLesson(req SaveRequest) (lessons.SaveResult, error) {
	lib, err := a.library()
	if err != nil {
		return lessons.SaveResult{}, err
	}
	res, err := lib.Save(req.Path, req.Content, req.Version, lessons.SaveOptions{ConvertToUTF8: req.ConvertToUTF8})
	if err != nil {
		return res, problem(err)
	}
	a.clearDraft(req.Path, req.Content)
	return res, nil
}

// KeepBothLesson settles a save conflict without losing anything: what is
// on disk is kept as "NAME (from disk).py" and the editor's text is saved.
func (a *App) KeepBothLesson(req SaveRequest) (lessons.KeptBoth, error) {
	lib, err := a.library()
	if err != nil {
		return lessons.KeptBoth{}, err
	}
	res, err := lib.KeepBoth(req.Path, req.Content, lessons.SaveOptions{ConvertToUTF8: req.ConvertToUTF8})
	if err != nil {
		return res, problem(err)
	}
	a.clearDraft(req.Path, req.Content)
	return res, nil
}

// clearDraft drops the draft a save of rel made needless: one of the same
// text, or any while the window's answer is not final yet. The window saves
// only after it answered (it waits for its saves under way first), so that
// save holds newer text than the draft; written at shutdown from its older
// version, the draft would be taken for a change made elsewhere.
func (a *App) clearDraft(rel, content string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.draft != nil && a.draft.Path == rel && (a.draft.Content == content || !a.closing.final) {
		a.draft = nil
	}
}

// saveDraft writes the draft a closing window handed over; a conflict keeps both.
func (a *App) saveDraft() error {
	a.mu.Lock()
	d, lib := a.draft, a.lib
	a.draft = nil
	a.mu.Unlock()
	if d == nil || lib == nil {
		return nil
	}
	opts := lessons.SaveOptions{ConvertToUTF8: d.ConvertToUTF8}
	_, err := lib.Save(d.Path, d.Content, d.Version, opts)
	if errors.Is(err, lessons.ErrConflict) {
		_, err = lib.KeepBoth(d.Path, d.Content, opts)
	}
	if errors.Is(err, lessons.ErrNeedsConversion) {
		// Keeping the child's work matters more than the file's old encoding.
		_, err = lib.Save(d.Path, d.Content, d.Version, lessons.SaveOptions{ConvertToUTF8: true})
	}
	return err
}

// NewLesson creates an empty lesson in group ("" for the top) and returns its path.
func (a *App) NewLesson(group, name string) (string, error) {
	lib, err := a.library()
	if err != nil {
		return "", err
	}
	rel, err := lib.New(group, name)
	return rel, problem(err)
}

// NewGroup creates a folder of lessons in parent and returns its path.
func (a *App) NewGroup(parent, name string) (string, error) {
	lib, err := a.library()
	if err != nil {
		return "", err
	}
	rel, err := lib.NewGroup(parent, name)
	return rel, problem(err)
}

// RenameLesson renames a lesson or group in place and returns its new path.
func (a *App) RenameLesson(rel, newName string) (string, error) {
	lib, err := a.library()
	if err != nil {
		return "", err
	}
	newRel, err := lib.Rename(rel, newName)
	if err == nil {
		a.mu.Lock()
		if a.draft != nil && a.draft.Path == rel {
			a.draft.Path = newRel
		}
		a.mu.Unlock()
	}
	return newRel, problem(err)
}

// DuplicateLesson copies a lesson as "NAME (2).py" and returns the copy's path.
func (a *App) DuplicateLesson(rel string) (string, error) {
	lib, err := a.library()
	if err != nil {
		return "", err
	}
	newRel, err := lib.Duplicate(rel)
	return newRel, problem(err)
}

// DeleteLesson moves a lesson or group to the folder's .trash; UndoDelete
// with the returned id puts it back.
func (a *App) DeleteLesson(rel string) (lessons.Deleted, error) {
	lib, err := a.library()
	if err != nil {
		return lessons.Deleted{}, err
	}
	d, err := lib.Delete(rel)
	if err == nil {
		a.mu.Lock()
		if a.draft != nil && (a.draft.Path == rel || len(a.draft.Path) > len(rel) && a.draft.Path[:len(rel)+1] == rel+"/") {
			a.draft = nil
		}
		a.mu.Unlock()
	}
	return d, problem(err)
}

// UndoDelete restores a deletion ("" for the latest) and returns the restored paths.
func (a *App) UndoDelete(id string) ([]string, error) {
	lib, err := a.library()
	if err != nil {
		return nil, err
	}
	paths, err := lib.Undo(id)
	return paths, problem(err)
}

// RememberLesson stores the open lesson and where the child was in it.
func (a *App) RememberLesson(rel string, pos lessons.Position) error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	return problem(lib.Remember(rel, pos))
}

// ChooseLessonsFolder asks for another lessons folder, switches to it and
// keeps the choice in the settings. It returns the settings as stored, or
// nil when the child cancelled.
func (a *App) ChooseLessonsFolder() (*settings.Settings, error) {
	if a.shell == nil {
		return nil, errors.New("no window to ask for a folder")
	}
	a.mu.Lock()
	cur := a.libRoot
	a.mu.Unlock()
	dir, err := a.shell.DirectoryDialog(cur)
	if err != nil || dir == "" {
		return nil, err
	}
	return a.useLessonsFolder(dir)
}

// useLessonsFolder switches to dir and stores it in the settings.
func (a *App) useLessonsFolder(dir string) (*settings.Settings, error) {
	root, err := lessons.ResolveDir(dir)
	if err != nil {
		return nil, err
	}
	if err := a.saveDraft(); err != nil {
		return nil, fmt.Errorf("saving the open lesson first: %w", problem(err))
	}
	a.openLessons(root)
	a.mu.Lock()
	s := a.settings
	a.mu.Unlock()
	s.LessonsDir = root
	stored, err := settings.Save(a.settingsPath, s)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.settings = stored
	a.mu.Unlock()
	return &stored, nil
}

// lessonDataFiles are the files beside the lesson rel that its program may
// open; a run of code that is not a saved lesson gets none.
func (a *App) lessonDataFiles(rel string) []string {
	if rel == "" || path.Ext(rel) != lessons.LessonExt {
		return nil
	}
	lib, err := a.library()
	if err != nil {
		return nil
	}
	files, err := lib.LessonDataFiles(rel)
	if err != nil {
		return nil
	}
	return files
}
