package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

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
}

// App is bound to the frontend.
type App struct {
	ctx          context.Context
	shell        Shell
	settingsPath string
	cacheDir     string

	runMu sync.Mutex // held by Run from start to finish: one Run at a time

	mu       sync.Mutex
	settings settings.Settings
	engine   *kidrun.Engine
	status   SandboxStatus
	current  *active
	// live holds the ids of runs whose EventRunDone is not sent yet: a new
	// run may not take one, or the window could not tell the two apart.
	live map[string]bool
	// demo is the star demo run waiting to be taken over (see demoRun);
	// demoStarted keeps it to the first start of the session.
	demo        *demoRun
	demoStarted bool

	lessonsFlag string           // --lessons
	lib         *lessons.Library // nil while the folder can't be used
	libRoot     string
	libErr      error  // why lib is nil
	draft       *Draft // unsaved editor text, saved on Shutdown
	shown       string // the lesson open in the editor, for the save dialog
	// What the warm sandbox is kept for: the open lesson, and whether it or
	// the last run uses matplotlib.
	warmLesson         string
	lastMpl, lessonMpl bool
	measuring          bool // a goroutine waits to measure the warm sandbox
}

type active struct {
	id  string
	run *kidrun.Run
}

// New makes the app; settingsPath "" means the user's config folder.
func New(settingsPath, cacheDir string) *App {
	if settingsPath == "" {
		settingsPath, _ = settings.DefaultPath()
	}
	return &App{settingsPath: settingsPath, cacheDir: cacheDir, status: SandboxStatus{Checking: true}, live: map[string]bool{}}
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

// prepare finds Python, unpacks the Python layer and runs the self-test.
func (a *App) prepare() {
	a.mu.Lock()
	py := a.settings.Python
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
	}
	a.mu.Lock()
	first := st.Ready && !a.demoStarted
	a.demoStarted = a.demoStarted || st.Ready
	a.mu.Unlock()
	// The demo is in place before the status says ready, so every ready
	// status names it and the window's first run can take it over.
	var demo *demoRun
	if first {
		demo = a.startDemo(eng)
	}
	a.mu.Lock()
	if st.Ready {
		a.engine = eng
	}
	if demo != nil {
		a.demo = demo
		a.live[demo.id] = true
	}
	a.status = st
	st = a.statusLocked()
	a.mu.Unlock()
	a.emit(EventStatus, st)
	if st.Ready {
		a.keepWarm()
	}
}

// Status tells whether code can run now.
func (a *App) Status() SandboxStatus {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.statusLocked()
}

func (a *App) statusLocked() SandboxStatus {
	st := a.status
	if a.demo != nil {
		st.DemoRunID = a.demo.id
	}
	return st
}

// Run starts the child's program under req.RunID; a run already going is
// stopped first. A RunID of the waiting star demo (Status().DemoRunID) takes
// that run over instead, with all it did so far; any other run ends the demo
// unseen.
func (a *App) Run(req RunRequest) error {
	if err := checkRunID(req.RunID); err != nil {
		return err
	}
	// One Run at a time from here on: two at once would each see no run
	// going, and the one that started first could never be stopped.
	a.runMu.Lock()
	defer a.runMu.Unlock()
	if len(req.Code) > 1<<20 {
		return errors.New("the program is larger than 1 MiB")
	}
	id := req.RunID
	a.mu.Lock()
	if d := a.demo; d != nil && d.id == id {
		prev := a.current
		a.demo = nil
		a.current = &active{id: id, run: d.run}
		a.mu.Unlock()
		if prev != nil {
			prev.run.Stop()
		}
		d.claim()
		return nil
	}
	if a.live[id] {
		a.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrRunIDInUse, id)
	}
	eng, prev, set, demo := a.engine, a.current, a.settings, a.demo
	a.current, a.demo = nil, nil
	if demo != nil {
		delete(a.live, demo.id) // its events stay held: nobody sees them
	}
	a.live[id] = true
	a.mu.Unlock()
	if demo != nil {
		go demo.run.Stop()
	}
	if prev != nil {
		prev.run.Stop()
		<-prev.run.Done()
	}
	if eng == nil {
		a.release(id)
		return fmt.Errorf("%w: %s", sandbox.ErrUnavailable, a.Status().Reason)
	}
	lang := req.Lang
	if lang == "" {
		lang = set.Lang
	}
	policy := runPolicy(eng, set)
	obs := newRunObserver(a, id, nil)
	run, err := eng.Start(a.ctx, kidrun.Request{
		Code: []byte(req.Code), Name: req.Name, Lang: lang, Interactive: true, Live: true, Policy: &policy,
		DataFiles: a.lessonDataFiles(req.Lesson),
	}, obs)
	if err != nil {
		a.release(id)
		return err
	}
	a.mu.Lock()
	a.current = &active{id: id, run: run}
	a.lastMpl = kidrun.UsesMatplotlib([]byte(req.Code))
	a.warmLesson = req.Lesson
	a.mu.Unlock()
	a.keepWarm()
	go obs.finished(run)
	return nil
}

// runPolicy is the limits of the window's runs: the engine's, with the
// settings' time limit.
func runPolicy(eng *kidrun.Engine, set settings.Settings) sandbox.Policy {
	policy := eng.Policy()
	policy.WallTime = time.Duration(set.Clamp().TimeoutSeconds) * time.Second
	policy.CPUTime = max(policy.CPUTime, policy.WallTime)
	return policy
}

// keepWarm keeps a sandbox started ahead for the next Run
// (docs/runner-protocol.md, "Warm runs"): live, under the settings'
// limits, with the open lesson's data files, and with matplotlib loaded
// when the open lesson or the last run uses it.
func (a *App) keepWarm() {
	a.mu.Lock()
	eng, set, rel, mpl := a.engine, a.settings, a.warmLesson, a.lastMpl || a.lessonMpl
	a.mu.Unlock()
	if eng == nil {
		return
	}
	eng.KeepWarm(kidrun.Warmth{Live: true, Matplotlib: mpl, DataFiles: a.lessonDataFiles(rel), Policy: runPolicy(eng, set)})
	a.mu.Lock()
	start := !a.measuring
	a.measuring = true
	a.mu.Unlock()
	if start {
		go a.measureWarm(eng)
	}
}

// measureWarm waits (a while at most) for the warm sandbox to be ready and
// puts what it holds in memory into the status, so "About the sandbox"
// shows how much of the memory limit the child's program has.
func (a *App) measureWarm(eng *kidrun.Engine) {
	defer func() {
		a.mu.Lock()
		a.measuring = false
		a.mu.Unlock()
	}()
	var got int64
	for range 300 {
		if got = eng.WarmMemory(); got > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got == 0 {
		return
	}
	a.mu.Lock()
	if a.engine != eng || !a.status.Ready {
		a.mu.Unlock()
		return
	}
	a.status.Limits.PreloadedBytes = got
	st := a.statusLocked()
	a.mu.Unlock()
	a.emit(EventStatus, st)
}

// ErrRunIDInUse is returned by Run for the id of a run whose end has not
// been reported yet.
var ErrRunIDInUse = errors.New("that run id is in use")

// maxRunIDLen bounds a run id; a UUID is 36 characters.
const maxRunIDLen = 64

// checkRunID accepts ids of 1 to maxRunIDLen letters, digits, '-' and '_':
// an id comes back in every event and in logs, so it carries nothing else.
func checkRunID(id string) error {
	if id == "" || len(id) > maxRunIDLen {
		return fmt.Errorf("a run id has 1 to %d characters, not %d", maxRunIDLen, len(id))
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("a run id has only letters, digits, '-' and '_': %q", id)
		}
	}
	return nil
}

// release frees a run id once its end is reported, or when it never started.
func (a *App) release(id string) {
	a.mu.Lock()
	delete(a.live, id)
	a.mu.Unlock()
}

// demoRun is the star demo, started under DemoRunID as soon as the sandbox
// is proven, so the first picture does not wait for the window to finish
// loading. The window may not be listening yet: what the run does is held,
// in order, until a Run with its id takes it over, and then sent.
type demoRun struct {
	id  string
	run *kidrun.Run

	mu      sync.Mutex
	claimed bool
	held    []func()
}

// startDemo starts the star demo through the real sandbox; nil if it could not start.
func (a *App) startDemo(eng *kidrun.Engine) *demoRun {
	a.mu.Lock()
	set := a.settings
	a.mu.Unlock()
	d := &demoRun{id: DemoRunID}
	obs := newRunObserver(a, d.id, d)
	run, err := eng.Start(a.ctx, kidrun.Request{Code: []byte(lessons.StarDemo()), Name: "star.py", Lang: set.Lang, Interactive: true, Live: true}, obs)
	if err != nil {
		return nil
	}
	d.run = run
	go obs.finished(run)
	return d
}

func (d *demoRun) send(f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.claimed {
		d.held = append(d.held, f)
		return
	}
	f()
}

// claim sends what the demo did so far; later events go out as they happen.
func (d *demoRun) claim() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.claimed = true
	for _, f := range d.held {
		f()
	}
	d.held = nil
}

// dropDemo takes the waiting demo away, for the caller to stop: no one will
// see it now.
func (a *App) dropDemo() *demoRun {
	a.mu.Lock()
	defer a.mu.Unlock()
	d := a.demo
	if d != nil {
		a.demo = nil
		delete(a.live, d.id)
	}
	return d
}

// SendInput gives the waiting program one line the child typed.
func (a *App) SendInput(runID, line string) error {
	r, err := a.find(runID)
	if err != nil {
		return err
	}
	return r.Input(line)
}

// SendEvent gives the running program a key, pointer, close or dialog
// answer event (docs/runner-protocol.md, "Control lines"). An event the
// program is too busy to take is dropped, as a flood of key repeats is.
func (a *App) SendEvent(runID string, ev kidrun.Event) error {
	r, err := a.find(runID)
	if err != nil {
		return err
	}
	if err := r.Send(ev); err != nil && !errors.Is(err, sandbox.ErrControlFull) {
		return err
	}
	return nil
}

// Stop ends the run at once.
func (a *App) Stop(runID string) error {
	r, err := a.find(runID)
	if err != nil {
		return nil // already over: stopping is done
	}
	r.Stop()
	return nil
}

func (a *App) find(runID string) (*kidrun.Run, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.current == nil || a.current.id != runID {
		return nil, fmt.Errorf("run %q is not running", runID)
	}
	return a.current.run, nil
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
	oldPy, old := a.settings.Python, a.engine
	a.settings = stored
	if a.lib != nil {
		a.lib.SetLang(uiLang(stored))
	}
	if stored.Python != oldPy {
		a.engine = nil
		a.status = SandboxStatus{Checking: true}
	}
	a.mu.Unlock()
	if stored.Python != oldPy {
		if old != nil {
			old.Close() // its warm sandbox has the old Python
		}
		go a.prepare()
	} else {
		a.keepWarm() // new limits: a new warm sandbox
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

// Shutdown saves the editor's unsaved text, stops following the lessons
// folder and stops a run still going when the window closes.
func Shutdown(a *App) {
	_ = a.saveDraft() // the window is gone: there is no one left to tell of a failure
	a.closeLessons()
	a.mu.Lock()
	cur, eng := a.current, a.engine
	a.mu.Unlock()
	if eng != nil {
		eng.Close()
	}
	if d := a.dropDemo(); d != nil {
		d.run.Stop()
		<-d.run.Done()
	}
	if cur != nil {
		cur.run.Stop()
		<-cur.run.Done()
	}
}

func (a *App) emit(event string, data any) {
	if a.shell != nil {
		a.shell.Emit(event, data)
	}
}

// runObserver sends a run's events under its run id, as they happen, or
// through demo while that is the unclaimed star demo. Output goes through
// out, which sends what waits before any other event.
type runObserver struct {
	app  *App
	id   string
	demo *demoRun
	out  *outputThrottle
}

func newRunObserver(a *App, id string, demo *demoRun) *runObserver {
	o := &runObserver{app: a, id: id, demo: demo}
	o.out = newOutputThrottle(func(stream, text string) {
		o.send(func() { o.app.emit(EventRunOutput, OutputEvent{RunID: o.id, Stream: stream, Text: text}) })
	})
	return o
}

func (o *runObserver) send(f func()) {
	if o.demo != nil {
		o.demo.send(f)
		return
	}
	f()
}

func (o *runObserver) Output(stream, text string) { o.out.Output(stream, text) }
func (o *runObserver) Waiting(prompt string) {
	o.out.Flush()
	o.send(func() { o.app.emit(EventRunWaiting, WaitingEvent{RunID: o.id, Prompt: prompt}) })
}
func (o *runObserver) InputDone() {
	o.out.Flush()
	o.send(func() { o.app.emit(EventRunInputDone, RunEvent{RunID: o.id}) })
}
func (o *runObserver) Live(frame json.RawMessage) {
	o.out.Flush()
	o.send(func() { o.app.emit(EventRunLive, LiveEvent{RunID: o.id, Frame: frame}) })
}

// finished reports the result and forgets the run; only then may its id be
// used again.
func (o *runObserver) finished(run *kidrun.Run) {
	res := run.Wait()
	o.out.Flush()
	o.send(func() {
		o.app.mu.Lock()
		if o.app.current != nil && o.app.current.id == o.id {
			o.app.current = nil
		}
		delete(o.app.live, o.id)
		o.app.mu.Unlock()
		o.app.emit(EventRunDone, DoneEvent{RunID: o.id, Result: res})
	})
}
