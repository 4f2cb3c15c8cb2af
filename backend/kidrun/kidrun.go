package kidrun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"kidcoder/backend/buildinfo"
	"kidcoder/backend/safefile"
	"kidcoder/backend/text"
	"kidcoder/python"
	"kidcoder/sandbox"
)

// Sandbox paths of the Python layer and the font cache (docs/runner-protocol.md).
const (
	layerDir    = "/kid/py"
	bytecodeDir = "/kid/pyc"
	mplCacheDir = "/kid/mpl"
	checkDir    = "/kid/check" // teacher check scripts of exercise packs (docs/packs.md)
)

// MaxCheckFiles bounds Request.CheckFiles.
const MaxCheckFiles = 50

// Options configure an Engine.
type Options struct {
	Python   string         // interpreter chosen in settings; "" finds one
	CacheDir string         // the Python layer, font cache and self-test verdict live here
	Policy   sandbox.Policy // limits for every run unless a Request overrides them
}

// Engine runs children's programs. One Engine serves many runs, one after another or at once.
type Engine struct {
	python   string
	pyDir    string
	cacheDir string
	policy   sandbox.Policy

	checkOnce sync.Once
	checkRep  sandbox.Report
	checkErr  error
	bytecode  string // host folder of the layer's compiled bytecode; "" for none

	mplMu sync.Mutex
	warm  warmPool
	// The warm probe runs once per engine before its first warm sandbox.
	warmProbeOnce sync.Once
	warmProbeErr  error
}

// ErrNoPython is returned by New when no usable Python 3 was found.
var ErrNoPython = errors.New("no usable Python 3 found")

// New finds Python and unpacks the Python layer. It does not prove the
// sandbox: Check does, once, before the first run.
func New(opts Options) (*Engine, error) {
	if opts.CacheDir == "" {
		dir, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		opts.CacheDir = dir
	}
	if opts.Policy == (sandbox.Policy{}) {
		opts.Policy = sandbox.DefaultPolicy()
	}
	sandbox.UseCache(opts.CacheDir)
	py, err := sandbox.FindPython(opts.Python)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoPython, err)
	}
	if err := os.MkdirAll(opts.CacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("cache folder: %w", err)
	}
	pyDir, err := python.Extract(opts.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("unpacking the Python layer: %w", err)
	}
	return &Engine{python: py, pyDir: pyDir, cacheDir: opts.CacheDir, policy: opts.Policy}, nil
}

// DefaultCacheDir is the user's cache folder for Kid Coder. For root on
// Linux it is /var/cache/kidcoder: the sandbox then runs as an unprivileged
// user who cannot enter /root, and a folder it can read saves copying the
// Python layer into every run.
func DefaultCacheDir() (string, error) {
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		return "/var/cache/kidcoder", nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder: %w", err)
	}
	return filepath.Join(dir, "kidcoder"), nil
}

// Python is the interpreter every run uses.
func (e *Engine) Python() string { return e.python }

// Policy is the default policy of this engine's runs.
func (e *Engine) Policy() sandbox.Policy { return e.policy }

// Check proves the sandbox with the self-test probes. The verdict is kept on
// disk (keyed by this build, the sandbox version and the kernel) and for the
// life of the process, so runs do not pay for it again.
func (e *Engine) Check(ctx context.Context) (sandbox.Report, error) {
	e.checkOnce.Do(func() {
		e.checkRep, e.checkErr = sandbox.SelfTestCached(ctx, e.python, e.cacheDir, buildinfo.ID())
		if e.checkErr == nil {
			e.bytecode = e.precompile(ctx)
		}
	})
	return e.checkRep, e.checkErr
}

// precompile returns the host folder of the Python layer's bytecode, making
// it once per layer and interpreter. Python compiles a file from source at
// every start unless it finds bytecode, and the layer is several thousand
// lines: the turtle alone costs about 20 ms. Without it runs are only slower.
func (e *Engine) precompile(ctx context.Context) string {
	sum := sha256.Sum256([]byte(e.python))
	// unchecked-hash: the layer folder is named by its content and never
	// changes, so the bytecode needs no check against the sources.
	return e.setUp(ctx, e.pyDir+"-pyc-"+hex.EncodeToString(sum[:4]), bytecodeDir,
		[]string{"-I", "-X", "pycache_prefix=" + bytecodeDir, "-m", "compileall", "-q", "--invalidation-mode", "unchecked-hash", layerDir})
}

// setUp makes a cache folder with a trusted set-up run in the sandbox (the
// only runs that get a writable mount): the run writes into a fresh folder
// mounted at sandboxDir, which becomes dir by a rename only if the run
// succeeded, so no run ever sees half of it. It returns dir, or "" when the
// folder could not be made.
func (e *Engine) setUp(ctx context.Context, dir, sandboxDir string, args []string) string {
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".setup-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(tmp)
	policy := e.policy
	policy.WallTime, policy.CPUTime = 60*time.Second, 60*time.Second
	proc, err := sandbox.Start(ctx, sandbox.Spec{
		Policy:   policy,
		Python:   e.python,
		Args:     args,
		ReadOnly: []sandbox.Mount{{Host: e.pyDir, Sandbox: layerDir}},
		Writable: []sandbox.Mount{{Host: tmp, Sandbox: sandboxDir}},
	}, nil) // nothing a set-up run prints is shown
	if err != nil {
		return ""
	}
	proc.CloseInput()
	if out := proc.Wait(); out.Status != sandbox.StatusOK {
		return ""
	}
	if os.Chmod(tmp, 0o755) != nil || os.Rename(tmp, dir) != nil {
		if _, err := os.Stat(dir); err != nil { // another process may have made it first
			return ""
		}
	}
	return dir
}

// SelfTest runs every probe now, ignoring any cached verdict, and then
// the warm probe: a run on a warm sandbox finds nothing an earlier one left.
func (e *Engine) SelfTest(ctx context.Context) (sandbox.Report, error) {
	rep, err := sandbox.SelfTest(ctx, e.python)
	if err != nil {
		return rep, err
	}
	p := e.warmProbe(ctx)
	rep.Probes = append(rep.Probes, p)
	if !p.OK {
		return rep, &sandbox.UnavailableError{Reason: "warm probe: " + p.Detail}
	}
	return rep, nil
}

// Request is one program to run.
type Request struct {
	Code      []byte
	Name      string   // file name shown in tracebacks, e.g. "star.py"
	Lang      string   // "zh" or "en"
	DataFiles []string // host paths of the lesson's data files, readable by relative path
	// Stdin, when not nil, is everything the program will read; stdin is then
	// closed. When nil and Interactive is false, stdin is closed at once so
	// input() raises EOFError. When Interactive, lines come through Run.Input.
	Stdin       []byte
	Interactive bool
	Policy      *sandbox.Policy // nil: the engine's
	// CheckFiles are host paths of an exercise pack's check scripts. Each
	// runs after the program in the same sandbox (kidrunner.py --check) and
	// its verdict comes back in Result.Checks, in this order.
	CheckFiles []string
	// ReplaySteps bounds the bytes of drawing steps the result carries for
	// replay (Result.Drawing); 0, or steps that do not fit, carry none and
	// the SVG alone stands. A live window run gets its steps as they are
	// drawn and needs none; a reader that did not see the run asks for up
	// to MaxReplaySteps.
	ReplaySteps int
	// Live runs the program live (docs/runner-protocol.md, "Live runs"): the
	// turtle keeps CPython's time, takes events through Run.Send and sends
	// live frames to an Observer that is a LiveObserver.
	Live bool
	// Timeline makes the run scripted (docs/contracts.md §3): live, with
	// these events played on the program's own clock, which moves only
	// while it waits, so the game is the same on any machine.
	Timeline Timeline
	// Trace records the child's own file step by step (docs/contracts.md
	// §5) into Result.Trace, bounded and checked by the host.
	Trace bool
}

// Observer hears a run as it happens. Calls come in order and never
// overlap. Output is batched: at most every 33 ms or per 64 KiB, a finished
// line soon after it was printed, and always before the run's next other call.
type Observer interface {
	Output(stream, text string) // stream is "stdout" or "stderr"
	Waiting(prompt string)      // the program waits in input()
	InputDone()
}

// Run is a program running in the sandbox.
type Run struct {
	proc    *sandbox.Process
	coll    *collector
	trace   *traceCollector // nil for a run without a trace
	policy  sandbox.Policy
	lang    string
	staging string
	live    bool
	replay  int       // the bytes of drawing steps its result may carry (Request.ReplaySteps)
	started time.Time // when the sandbox started: duration_ms counts from here
	done    chan struct{}
	result  *Result
}

// ErrBadName is returned by Start for a file name that is not a plain NAME.py.
var ErrBadName = errors.New("the program's name must be a plain file name ending in .py")

// Start proves the sandbox (once) and starts the program. It never runs code
// when the sandbox is unavailable: the error then wraps sandbox.ErrUnavailable.
func (e *Engine) Start(ctx context.Context, req Request, obs Observer) (*Run, error) {
	name := req.Name
	if name == "" {
		name = "main.py"
	}
	if name != filepath.Base(name) || !strings.HasSuffix(name, ".py") || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("%w: %q", ErrBadName, name)
	}
	if _, err := e.Check(ctx); err != nil {
		return nil, err
	}
	if req.Timeline != nil {
		req.Live = true
	}
	policy := e.policy
	if req.Policy != nil {
		policy = *req.Policy
	}
	lang := text.Lang(req.Lang)

	if w := e.takeWarm(req, policy, name); w != nil {
		if run, err := e.startOnWarm(w, req, obs, policy, name, lang); err == nil {
			return run, nil
		}
	}
	if len(req.CheckFiles) > MaxCheckFiles {
		return nil, fmt.Errorf("at most %d check files", MaxCheckFiles)
	}
	// The program goes in as bytes; only a lesson's data files need a
	// staging folder, for the copies taken now.
	var staging string
	var files []sandbox.Mount
	if len(req.DataFiles) > 0 {
		var err error
		if staging, err = os.MkdirTemp("", "kidcoder-prog-"); err != nil {
			return nil, fmt.Errorf("staging the data files: %w", err)
		}
		files = e.dataMounts(staging, name, req.DataFiles)
	}
	args, ro := e.runnerArgs(lang, req.Live, req.Timeline != nil, req.CheckFiles)
	if req.Trace {
		args = append(args, "--trace")
	}
	if req.ReplaySteps > 0 {
		args = append(args, "--replay-steps", strconv.Itoa(min(req.ReplaySteps, MaxDrawingSteps)))
	}
	if UsesMatplotlib(req.Code) {
		if dir := e.fontCacheDir(ctx); dir != "" {
			args = append(args, "--mpl-cache", mplCacheDir)
			ro = append(ro, sandbox.Mount{Host: dir, Sandbox: mplCacheDir})
		}
	}
	args = append(args, "--", sandbox.ScratchDir+"/"+name)

	coll, trace := newCollector(obs), newTrace(req)
	spec := sandbox.Spec{
		Policy:   policy,
		Python:   e.python,
		Args:     args,
		ReadOnly: ro,
		Files:    files,
		Data:     []sandbox.DataFile{{Sandbox: sandbox.ScratchDir + "/" + name, Data: req.Code}},
		Frames:   true,
		Live:     req.Live,
	}
	proc, err := sandbox.Start(ctx, spec, handler(coll, trace))
	if err != nil {
		removeStaging(staging)
		return nil, err
	}
	return e.begin(proc, coll, trace, req, policy, lang, staging), nil
}

// dataMounts copies the lesson's data files into staging (a copy taken
// now: the lesson folder may change during the run, and a data file that
// vanished since it was listed is simply not there) and mounts them in the
// scratch, skipping one named like the program.
func (e *Engine) dataMounts(staging, name string, dataFiles []string) []sandbox.Mount {
	var files []sandbox.Mount
	for _, f := range dataFiles {
		base := filepath.Base(f)
		if base == name || strings.HasPrefix(base, ".") {
			continue
		}
		if copyFile(f, filepath.Join(staging, base)) == nil {
			files = append(files, sandbox.Mount{Host: filepath.Join(staging, base), Sandbox: sandbox.ScratchDir + "/" + base})
		}
	}
	return files
}

// runnerArgs are the interpreter's and runner's arguments up to the
// program, and the read-only mounts they need: the Python layer, its
// bytecode, and the check scripts.
func (e *Engine) runnerArgs(lang string, live, scripted bool, checkFiles []string) ([]string, []sandbox.Mount) {
	args := []string{"-I", "-S", "-X", "utf8", "-B"}
	ro := []sandbox.Mount{{Host: e.pyDir, Sandbox: layerDir}}
	if e.bytecode != "" {
		// The layer's bytecode goes where Python looks for it by itself. A
		// pycache_prefix would send every import there, so the standard
		// library and matplotlib would be compiled from source at each run.
		ro = append(ro, sandbox.Mount{Host: filepath.Join(e.bytecode, filepath.FromSlash(layerDir)), Sandbox: layerDir + "/__pycache__"})
	}
	args = append(args, layerDir+"/kidrunner.py", "--lang", lang, "--frames", "3", "--control", "4")
	if live {
		args = append(args, "--live")
	}
	if scripted {
		args = append(args, "--scripted")
	}
	for i, f := range checkFiles {
		p := fmt.Sprintf("%s/%d.py", checkDir, i)
		ro = append(ro, sandbox.Mount{Host: f, Sandbox: p})
		args = append(args, "--check", p)
	}
	return args, ro
}

// begin gives a started program its stdin and waits for its end in the background.
func (e *Engine) begin(proc *sandbox.Process, coll *collector, trace *traceCollector, req Request, policy sandbox.Policy, lang, staging string) *Run {
	r := &Run{proc: proc, coll: coll, trace: trace, policy: policy, lang: lang, staging: staging, live: req.Live,
		replay: min(req.ReplaySteps, MaxDrawingSteps), started: proc.Started(), done: make(chan struct{})}
	switch {
	case req.Stdin != nil:
		if len(req.Stdin) > 0 {
			_ = proc.WriteInput(req.Stdin)
		}
		_ = proc.CloseInput()
	case !req.Interactive:
		_ = proc.CloseInput()
	}
	if req.Timeline != nil {
		go r.sendScript(req.Timeline)
	}
	go r.finish()
	return r
}

// Input sends one line the child typed.
func (r *Run) Input(line string) error {
	return r.proc.WriteInput([]byte(line + "\n"))
}

// Stop ends the run at once; what was printed so far is kept.
func (r *Run) Stop() { r.proc.Stop() }

// Wait returns the result once the run has ended.
func (r *Run) Wait() *Result {
	<-r.done
	return r.result
}

// Done is closed when the run has ended.
func (r *Run) Done() <-chan struct{} { return r.done }

func (r *Run) finish() {
	out := r.proc.Wait()
	removeStaging(r.staging)
	if out.Truncated {
		r.coll.dropCut()
	}
	r.coll.flush()
	rep := r.coll.report()
	// The drawing is one this run asked for, within what it asked for.
	rep.Drawing = checkDrawing(rep.Drawing, r.replay)
	r.result = buildResult(out, rep, r.policy, r.lang)
	if r.trace != nil {
		r.result.Trace = r.trace.result()
	}
	close(r.done)
}

// fontCacheDir returns the host folder of matplotlib's font cache, built
// once by a set-up run. "" means no cache (matplotlib then builds one in
// the run's scratch, slowly).
func (e *Engine) fontCacheDir(ctx context.Context) string {
	e.mplMu.Lock()
	defer e.mplMu.Unlock()
	sum := sha256.Sum256([]byte(e.python))
	dir := e.setUp(ctx, filepath.Join(e.cacheDir, "mpl-"+hex.EncodeToString(sum[:6])), mplCacheDir,
		[]string{"-I", "-X", "utf8", "-B", layerDir + "/kidrunner.py", "--build-mpl-cache", mplCacheDir})
	if dir == "" || !hasFontList(dir) {
		return ""
	}
	return dir
}

func hasFontList(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "fontlist-*.json"))
	return len(m) > 0
}

// removeStaging removes a staging folder; "" is none.
func removeStaging(dir string) {
	if dir != "" {
		os.RemoveAll(dir)
	}
}

// copyFile copies a regular file into the staging folder from the very
// descriptor that was checked, so a link, FIFO or device swapped in for src
// after it was listed is refused, never followed, waited on or read without end.
func copyFile(src, dst string) error {
	in, _, err := safefile.Open(src, maxDataFile)
	if err != nil {
		return fmt.Errorf("not a data file: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = safefile.Copy(out, in, maxDataFile)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}

// maxDataFile bounds one data file handed to a program.
const maxDataFile = 8 << 20
