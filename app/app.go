package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
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
	// SaveDialog asks where to save; "" means cancelled.
	SaveDialog(defaultName string) (string, error)
	// DirectoryDialog asks for a folder, starting in defaultDir; "" means cancelled.
	DirectoryDialog(defaultDir string) (string, error)
	// OpenFileDialog asks for a file matching pattern ("*.kidpack"); "" means cancelled.
	OpenFileDialog(pattern string) (string, error)
}

// SandboxStatus says whether code can run, and if not why and how to fix it.
type SandboxStatus struct {
	Ready    bool   `json:"ready"`
	Checking bool   `json:"checking"`
	Reason   string `json:"reason"`
	Fix      string `json:"fix"`
	Python   string `json:"python"`
	Sandbox  string `json:"sandbox"` // e.g. "bubblewrap"; "" until known
	Version  string `json:"version"` // the sandbox tool's version, when it has one
	// Containment says how a whole run is bounded here: mechanism
	// "cgroup2", "cgroup1" or "rlimits", what it bounds for the run as a
	// whole, and where the groups are or why there are none. Empty until known.
	Containment sandbox.Containment `json:"containment"`
	// Limits are the bounds each run gets; zero until Python is found.
	Limits SandboxLimits `json:"limits"`
}

// RunRequest is what the Run button sends.
type RunRequest struct {
	Code string `json:"code"`
	Name string `json:"name"`
	Lang string `json:"lang"`
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

	mu       sync.Mutex
	settings settings.Settings
	engine   *kidrun.Engine
	status   SandboxStatus
	current  *active
	// demo is the star demo run waiting to be claimed (see demoRun);
	// demoStarted keeps it to the first start of the session.
	demo        *demoRun
	demoStarted bool

	lessonsFlag string           // --lessons
	lib         *lessons.Library // nil while the folder can't be used
	libRoot     string
	libErr      error  // why lib is nil
	draft       *Draft // unsaved editor text, saved on Shutdown
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
	return &App{settingsPath: settingsPath, cacheDir: cacheDir, status: SandboxStatus{Checking: true}}
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
			st.Fix = ue.Fix
		case errors.Is(err, kidrun.ErrNoPython):
			st.Fix = "sudo apt install python3"
		}
	} else {
		st.Ready = true
	}
	a.mu.Lock()
	if st.Ready {
		a.engine = eng
	}
	first := st.Ready && !a.demoStarted
	a.demoStarted = a.demoStarted || st.Ready
	a.status = st
	a.mu.Unlock()
	if first {
		a.startDemo(eng)
	}
	a.emit(EventStatus, st)
}

// Status tells whether code can run now.
func (a *App) Status() SandboxStatus {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status
}

// Run starts the child's program; a run already going is stopped first.
func (a *App) Run(req RunRequest) (string, error) {
	if len(req.Code) > 1<<20 {
		return "", errors.New("the program is larger than 1 MiB")
	}
	a.mu.Lock()
	eng, prev, set := a.engine, a.current, a.settings
	a.current = nil
	a.mu.Unlock()
	if prev != nil {
		prev.run.Stop()
		<-prev.run.Done()
	}
	if eng == nil {
		return "", fmt.Errorf("%w: %s", sandbox.ErrUnavailable, a.Status().Reason)
	}
	lang := req.Lang
	if lang == "" {
		lang = set.Lang
	}
	policy := eng.Policy()
	policy.WallTime = time.Duration(set.Clamp().TimeoutSeconds) * time.Second
	policy.CPUTime = max(policy.CPUTime, policy.WallTime)

	id := newID()
	if d := a.takeDemo(req.Code); d != nil {
		a.mu.Lock()
		a.current = &active{id: id, run: d.run}
		a.mu.Unlock()
		d.obs.claim(id)
		return id, nil
	}
	obs := &runObserver{app: a, id: id}
	run, err := eng.Start(a.ctx, kidrun.Request{
		Code: []byte(req.Code), Name: req.Name, Lang: lang, Interactive: true, Policy: &policy,
		DataFiles: a.lessonDataFiles(req.Lesson),
	}, obs)
	if err != nil {
		return "", err
	}
	a.mu.Lock()
	a.current = &active{id: id, run: run}
	a.mu.Unlock()
	go obs.finished(run)
	return id, nil
}

// demoRun is the star demo, started as soon as the sandbox is proven so the
// first picture does not wait for the window to finish loading. The
// frontend's first Run of that very program takes it over; any other first
// Run ends it unseen.
type demoRun struct {
	code string
	obs  *runObserver
	run  *kidrun.Run
}

// startDemo runs the star demo, unclaimed, through the real sandbox.
func (a *App) startDemo(eng *kidrun.Engine) {
	a.mu.Lock()
	set := a.settings
	a.mu.Unlock()
	code := lessons.StarDemo()
	obs := &runObserver{app: a}
	run, err := eng.Start(a.ctx, kidrun.Request{Code: []byte(code), Name: "star.py", Lang: set.Lang, Interactive: true}, obs)
	if err != nil {
		return
	}
	a.mu.Lock()
	a.demo = &demoRun{code: code, obs: obs, run: run}
	a.mu.Unlock()
	go obs.finished(run)
}

// takeDemo hands over the waiting demo run if code is its program; otherwise
// the demo is no longer wanted and is stopped.
func (a *App) takeDemo(code string) *demoRun {
	a.mu.Lock()
	d := a.demo
	a.demo = nil
	a.mu.Unlock()
	if d == nil || d.code == code {
		return d
	}
	go d.run.Stop()
	return nil
}

// SendInput gives the waiting program one line the child typed.
func (a *App) SendInput(runID, line string) error {
	r, err := a.find(runID)
	if err != nil {
		return err
	}
	return r.Input(line)
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
	stored, err := settings.Save(a.settingsPath, s)
	if err != nil {
		return stored, err
	}
	a.mu.Lock()
	oldPy := a.settings.Python
	a.settings = stored
	if stored.Python != oldPy {
		a.engine = nil
		a.status = SandboxStatus{Checking: true}
	}
	a.mu.Unlock()
	if stored.Python != oldPy {
		go a.prepare()
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
	path, err := a.shell.SaveDialog(name)
	if err != nil || path == "" {
		return "", err
	}
	if err := atomicfile.WriteFile(path, raw, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// Shutdown saves the editor's unsaved text, stops following the lessons
// folder and stops a run still going when the window closes.
func Shutdown(a *App) {
	_ = a.saveDraft() // the window is gone: there is no one left to tell of a failure
	a.closeLessons()
	a.mu.Lock()
	cur := a.current
	a.mu.Unlock()
	if d := a.takeDemo(""); d != nil {
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

// runObserver forwards a run's events under its run id. A run started before
// anyone asked for it (the star demo) has no id yet: its events are held, in
// order, until Run claims it, and then replayed.
type runObserver struct {
	app  *App
	mu   sync.Mutex
	id   string
	held []func(id string)
}

func (o *runObserver) send(f func(id string)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.id == "" {
		o.held = append(o.held, f)
		return
	}
	f(o.id)
}

// claim names the run and replays what it did before being claimed.
func (o *runObserver) claim(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.id = id
	for _, f := range o.held {
		f(id)
	}
	o.held = nil
}

func (o *runObserver) Output(stream, text string) {
	o.send(func(id string) { o.app.emit(EventRunOutput, OutputEvent{RunID: id, Stream: stream, Text: text}) })
}
func (o *runObserver) Waiting(prompt string) {
	o.send(func(id string) { o.app.emit(EventRunWaiting, WaitingEvent{RunID: id, Prompt: prompt}) })
}
func (o *runObserver) InputDone() {
	o.send(func(id string) { o.app.emit(EventRunInputDone, RunEvent{RunID: id}) })
}

// finished reports the result once the run is claimed, and forgets the run.
func (o *runObserver) finished(run *kidrun.Run) {
	res := run.Wait()
	o.send(func(id string) {
		o.app.mu.Lock()
		if o.app.current != nil && o.app.current.id == id {
			o.app.current = nil
		}
		o.app.mu.Unlock()
		o.app.emit(EventRunDone, DoneEvent{RunID: id, Result: res})
	})
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
