package app

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"kidcoder/backend/atomicfile"
	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
	"kidcoder/backend/settings"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// Shell is what the app needs from the desktop shell besides events.
type Shell interface {
	Emitter
	// SaveDialog asks where to save, starting in defaultDir ("" or a
	// folder that is gone: the dialog's own choice) with defaultName; ""
	// means cancelled.
	SaveDialog(defaultDir, defaultName string) (string, error)
	// DirectoryDialog asks for a folder, starting in defaultDir; "" means cancelled.
	DirectoryDialog(defaultDir string) (string, error)
	// OpenFileDialog asks for a file matching pattern ("*.kidpack"); "" means cancelled.
	OpenFileDialog(pattern string) (string, error)
}

// SandboxStatus says whether code can run, and if not why and how to fix it.
type SandboxStatus struct {
	Ready    bool `json:"ready"`
	Checking bool `json:"checking"`
	// Code names the reason for the window, which says it in the child's
	// language (sandbox.UnavailableError's codes, plus "python_missing" and
	// "python_setting": the Python chosen in the settings does not work);
	// "" for a reason only Reason describes. Reason is the technical detail,
	// in English.
	Code   string `json:"code"`
	Reason string `json:"reason"`
	Fix    string `json:"fix"`
	// FixOthers are other distributions' commands when Fix installs a
	// package, each runnable on its own.
	FixOthers []sandbox.InstallCommand `json:"fixOthers,omitempty"`
	Python    string                   `json:"python"`
	Sandbox   string                   `json:"sandbox"` // e.g. "bubblewrap"; "" until known
	Version   string                   `json:"version"` // the sandbox tool's version, when it has one
	// Containment says how a whole run is bounded here: mechanism
	// "cgroup2", "cgroup1" or "rlimits", what it bounds for the run as a
	// whole, and where the groups are or why there are none. Empty until known.
	Containment sandbox.Containment `json:"containment"`
	// Limits are the bounds each run gets; zero until Python is found.
	Limits SandboxLimits `json:"limits"`
	// DemoRunID is the id of the star demo the app started by itself, while
	// no Run has taken it over: a Run with this id shows that run from its
	// first output. "" once it is taken or ended, and before it started.
	DemoRunID string `json:"demoRunId,omitempty"`
}

// RunRequest is what the Run button sends.
type RunRequest struct {
	// RunID names the run in all its events and in SendInput and Stop. The
	// window chooses it, so it listens for the run's events before asking
	// for the run and none can come too early (checkRunID says which ids do).
	RunID string `json:"runId"`
	Code  string `json:"code"`
	Name  string `json:"name"`
	Lang  string `json:"lang"`
	// Lesson is the open lesson's path in the lessons folder, so its data
	// files are beside the program; "" for code that is not a lesson.
	Lesson string `json:"lesson,omitempty"`
	// Trace records the run step by step for the window to play back
	// (RunResult.trace, docs/contracts.md §5).
	Trace bool `json:"trace,omitempty"`
}

// App is bound to the frontend.
type App struct {
	ctx          context.Context
	shell        Shell
	settingsPath string
	cacheDir     string
	// runs owns every run of the window: ids, the star demo, the warm
	// sandbox, output batching; the app only checks and passes requests on.
	runs *kidrun.Session

	mu       sync.Mutex
	settings settings.Settings
	status   SandboxStatus

	lessonsFlag string           // --lessons
	lib         *lessons.Library // nil while the folder can't be used
	libRoot     string
	libErr      error  // why lib is nil
	draft       *Draft // unsaved editor text, saved on Shutdown
	shown       string // the lesson open in the editor, for the save dialog
	lessonMpl   bool   // the open lesson uses matplotlib

	closing closing   // asking the window for its last text before it closes
	checks  checkRuns // the checks going, which Stop and Shutdown end
}

// New makes the app; settingsPath "" means the user's config folder.
func New(settingsPath, cacheDir string) *App {
	if settingsPath == "" {
		settingsPath, _ = settings.DefaultPath()
	}
	a := &App{settingsPath: settingsPath, cacheDir: cacheDir, status: SandboxStatus{Checking: true}}
	// The runs end with Shutdown, not with the shell's context.
	a.runs = kidrun.NewSession(context.Background(), emitter{a}, a.preloaded)
	return a
}

// Startup is called by the shell once the window exists. It loads the
// settings and proves the sandbox in the background; the result arrives as
// EventStatus, so the window never waits for it. Lifecycle calls are
// functions, not methods, so the shell does not bind them for the frontend.
func Startup(a *App, ctx context.Context, shell Shell) {
	a.ctx = ctx
	a.shell = shell
	a.mu.Lock()
	a.settings = settings.Load(a.settingsPath)
	set := a.settings
	a.mu.Unlock()
	go a.prepare()
	if root, err := a.lessonsRoot(set); err != nil {
		a.mu.Lock()
		a.libErr = err
		a.mu.Unlock()
	} else {
		a.openLessons(root)
	}
}

// prepare finds Python, unpacks the Python layer and runs the self-test;
// the first time it succeeds, the star demo starts.
func (a *App) prepare() {
	a.mu.Lock()
	py := a.settings.Python
	lang := a.settings.Lang
	a.mu.Unlock()
	st := SandboxStatus{}
	eng, err := kidrun.New(kidrun.Options{Python: py, CacheDir: a.cacheDir})
	if err == nil {
		st.Python = eng.Python()
		var rep sandbox.Report
		rep, err = eng.Check(a.ctx)
		st.Sandbox, st.Version = rep.Info.Kind, rep.Info.Version
		st.Containment = rep.Info.Containment
		st.Limits = limitsInForce(eng.Policy())
	}
	if err != nil {
		st.Reason = err.Error()
		var ue *sandbox.UnavailableError
		switch {
		case errors.As(err, &ue):
			st.Code, st.Fix, st.FixOthers = ue.Code, ue.Fix, ue.FixOthers
		case errors.Is(err, kidrun.ErrNoPython) && py != "":
			// Installing Python would not help: the path in the settings
			// is what is wrong.
			st.Code = "python_setting"
		case errors.Is(err, kidrun.ErrNoPython):
			st.Code = "python_missing"
			st.Fix, st.FixOthers = sandbox.InstallCommands("python3")
		}
	} else {
		st.Ready = true
		// The demo is in place before the status says ready, so every
		// ready status names it and the window's first run can take it over.
		a.runs.SetEngine(eng)
		a.runs.StartDemo([]byte(lessons.StarDemo()), lang)
	}
	a.mu.Lock()
	a.status = st
	st = a.statusLocked()
	a.mu.Unlock()
	a.emit(EventStatus, st)
	if st.Ready {
		a.preferNext()
	}
}

// preloaded puts what the warm sandbox holds in memory into the status, so
// "About the sandbox" shows how much of the memory limit a program has.
func (a *App) preloaded(bytes int64) {
	a.mu.Lock()
	if !a.status.Ready {
		a.mu.Unlock()
		return
	}
	a.status.Limits.PreloadedBytes = bytes
	st := a.statusLocked()
	a.mu.Unlock()
	a.emit(EventStatus, st)
}

// Status tells whether code can run now.
func (a *App) Status() SandboxStatus {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.statusLocked()
}

func (a *App) statusLocked() SandboxStatus {
	st := a.status
	if a.runs != nil {
		st.DemoRunID = a.runs.DemoID()
	}
	return st
}

// Run starts the child's program under req.RunID; a run already going is
// stopped first. A RunID of the waiting star demo (Status().DemoRunID) takes
// that run over instead, with all it did so far; any other run ends the demo
// unseen.
func (a *App) Run(req RunRequest) error {
	if err := kidrun.CheckRunID(req.RunID); err != nil {
		return err
	}
	if len(req.Code) > kidrun.MaxCode {
		return errors.New("the program is larger than 1 MiB")
	}
	a.mu.Lock()
	set := a.settings
	a.mu.Unlock()
	lang := req.Lang
	if lang == "" {
		lang = set.Lang
	}
	err := a.runs.Run(kidrun.SessionRequest{
		RunID: req.RunID, Code: []byte(req.Code), Name: req.Name, Lang: lang,
		DataFiles: a.lessonDataFiles(req.Lesson), Policy: a.runPolicy(set), Trace: req.Trace,
	})
	if errors.Is(err, sandbox.ErrUnavailable) && a.runs.Engine() == nil {
		return fmt.Errorf("%w: %s", sandbox.ErrUnavailable, a.Status().Reason)
	}
	return err
}

// runPolicy is the limits of the window's runs and checks: the engine's,
// with the settings' time limit.
func (a *App) runPolicy(set settings.Settings) sandbox.Policy {
	base := sandbox.DefaultPolicy()
	if eng := a.runs.Engine(); eng != nil {
		base = eng.Policy()
	}
	return kidrun.PolicyFor(base, kidrun.SettingsTimeout(set))
}

// preferNext tells the session what the next run probably needs: the open
// lesson's data files and matplotlib, under the settings' limits.
func (a *App) preferNext() {
	a.mu.Lock()
	set, shown, mpl := a.settings, a.shown, a.lessonMpl
	a.mu.Unlock()
	a.runs.Prefer(a.lessonDataFiles(shown), mpl, a.runPolicy(set))
}

// ErrRunIDInUse is returned by Run for the id of a run whose end has not
// been reported yet.
var ErrRunIDInUse = kidrun.ErrRunIDInUse

// SendInput gives the waiting program one line the child typed.
func (a *App) SendInput(runID, line string) error {
	return a.runs.Input(runID, line)
}

// SendEvent gives the running program a key, pointer, close or dialog
// answer event (docs/runner-protocol.md, "Control lines"). An event the
// program is too busy to take is dropped, as a flood of key repeats is.
func (a *App) SendEvent(runID string, ev kidrun.Event) error {
	return a.runs.Send(runID, ev)
}

// Stop ends the run, or the check, at once.
func (a *App) Stop(runID string) error {
	a.runs.Stop(runID)
	a.checks.stop(runID)
	return nil
}

// StarDemo is the program that runs when the app opens.
func (a *App) StarDemo() string { return lessons.StarDemo() }

// GetSettings returns the settings in force.
func (a *App) GetSettings() settings.Settings {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.settings
}

// SaveSettings stores the settings and returns what was kept after clamping.
// A new Python takes effect by proving the sandbox again.
func (a *App) SaveSettings(s settings.Settings) (settings.Settings, error) {
	a.mu.Lock()
	// A window holding settings read before the shelf was offered does not
	// offer it again.
	s.CoursesOffered = s.CoursesOffered || a.settings.CoursesOffered
	a.mu.Unlock()
	stored, err := settings.Save(a.settingsPath, s)
	if err != nil {
		return stored, err
	}
	a.mu.Lock()
	oldPy := a.settings.Python
	a.settings = stored
	if a.lib != nil {
		a.lib.SetLang(uiLang(stored))
	}
	if stored.Python != oldPy {
		a.status = SandboxStatus{Checking: true}
	}
	a.mu.Unlock()
	if stored.Python != oldPy {
		a.runs.SetEngine(nil) // its warm sandbox has the old Python
		go a.prepare()
	} else {
		a.preferNext() // new limits: a new warm sandbox
	}
	return stored, nil
}

// SystemLanguage is "zh" or "en" from the system locale.
func (a *App) SystemLanguage() string { return text.System() }

// SaveFile asks where to save and writes the base64 data there.
func (a *App) SaveFile(name, data string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", fmt.Errorf("bad file data: %w", err)
	}
	if a.shell == nil {
		return "", errors.New("no window to ask where to save")
	}
	dir, name := a.saveTarget(name)
	path, err := a.shell.SaveDialog(dir, name)
	if err != nil || path == "" {
		return "", err
	}
	if err := atomicfile.WriteFile(path, raw, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// saveTarget is where the save dialog starts: the open lesson's folder and
// the lesson's name ("1 star.png" for the window's "drawing.png", "1 star
// chart-1.png" for "chart-1.png"), else the lessons folder and name as given.
func (a *App) saveTarget(name string) (dir, file string) {
	a.mu.Lock()
	lib, shown := a.lib, a.shown
	a.mu.Unlock()
	if lib == nil {
		return "", name
	}
	dir = lib.Root()
	if shown == "" {
		return dir, name
	}
	if abs, err := lib.AbsPath(shown); err == nil {
		dir = filepath.Dir(abs)
	}
	stem := strings.TrimSuffix(path.Base(shown), lessons.LessonExt)
	if rest, ok := strings.CutPrefix(name, "drawing."); ok {
		return dir, stem + "." + rest
	}
	return dir, stem + " " + name
}

// Shutdown saves the editor's unsaved text the closing window handed over
// (BeforeClose), stops following the lessons folder and stops a run still
// going. The text is on disk when Shutdown returns.
func Shutdown(a *App) {
	_ = a.saveDraft() // the window is gone: there is no one left to tell of a failure
	a.closeLessons()
	a.checks.close()
	a.runs.Close()
}

func (a *App) emit(event string, data any) {
	if a.shell != nil {
		a.shell.Emit(event, data)
	}
}

// emitter sends the session's events to the window.
type emitter struct{ a *App }

func (e emitter) Emit(event string, data any) { e.a.emit(event, data) }
