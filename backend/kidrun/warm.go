package kidrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kidcoder/sandbox"
)

// Warmth describes the warm sandbox an Engine keeps ready
// (docs/runner-protocol.md, "Warm runs"): one sandbox started ahead of its
// program, Python started and the runner's modules loaded, taken by the
// next run that fits it and never used twice.
type Warmth struct {
	Live       bool     // for live runs (the window's)
	Matplotlib bool     // matplotlib loaded ahead too
	DataFiles  []string // host paths of the open lesson's data files, copied in ahead
	// Policy is the limits of the runs to come; zero means the engine's. A
	// run fits only under these limits (it may shorten its clocks).
	Policy sandbox.Policy
}

// warmRun is one sandbox started ahead of its program.
type warmRun struct {
	want    Warmth
	stamp   string // the data files as they were when copied in
	policy  sandbox.Policy
	proc    *sandbox.Process
	staging string
	mplDir  string
	loaded  chan struct{} // closed when the runner said it has loaded ahead
}

// warmWatch hears a warm runner before it has a program: only its ready frame.
type warmWatch struct {
	once   sync.Once
	loaded chan struct{}
}

func (w *warmWatch) Output(sandbox.Stream, []byte) {}

func (w *warmWatch) Frame(b []byte) {
	var f struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(b, &f) == nil && f.Type == "ready" {
		w.once.Do(func() { close(w.loaded) })
	}
}

// warmPool is an Engine's warm sandbox: at most one ready, one in making.
type warmPool struct {
	mu     sync.Mutex
	want   *Warmth // nil: keep none
	ready  *warmRun
	making bool
	gen    int // bumped by every change of want: a late start for an old want is thrown away
	closed bool
	taken  atomic.Int64 // runs that took a warm sandbox
}

// KeepWarm asks the engine to keep one sandbox ready for runs like w; a
// sandbox kept for anything else is thrown away. Starting it happens in
// the background. Calling it again with the same w costs nothing.
func (e *Engine) KeepWarm(w Warmth) {
	w.DataFiles = append([]string(nil), w.DataFiles...)
	p := &e.warm
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if p.want != nil && sameWarmth(*p.want, w) {
		if p.ready == nil && !p.making {
			e.startWarmLocked()
		}
		return
	}
	p.want = &w
	p.gen++
	p.dropReadyLocked()
	e.startWarmLocked()
}

// dropReadyLocked throws away the ready warm sandbox, if any; p.mu is held.
func (p *warmPool) dropReadyLocked() {
	if p.ready != nil {
		go p.ready.discard()
		p.ready = nil
	}
}

// Close throws away the warm sandbox and keeps no other.
func (e *Engine) Close() {
	p := &e.warm
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.want = nil
	p.gen++
	p.dropReadyLocked()
}

// WarmReady says whether a warm sandbox is ready now, its runner done
// loading ahead, and whether that includes matplotlib.
func (e *Engine) WarmReady() (ready, matplotlib bool) {
	w := e.loadedWarm()
	if w == nil {
		return false, false
	}
	return true, w.want.Matplotlib && w.mplDir != ""
}

// WarmMemory is the resident memory, in bytes, of the warm sandbox that is
// ready now (0 if none): what the modules loaded ahead take of a run's
// memory limit.
func (e *Engine) WarmMemory() int64 {
	if w := e.loadedWarm(); w != nil {
		return w.proc.Resident()
	}
	return 0
}

// loadedWarm is the ready warm sandbox once its runner has loaded ahead, else nil.
func (e *Engine) loadedWarm() *warmRun {
	p := &e.warm
	p.mu.Lock()
	w := p.ready
	p.mu.Unlock()
	if w == nil {
		return nil
	}
	select {
	case <-w.loaded:
		return w
	default:
		return nil
	}
}

func sameWarmth(a, b Warmth) bool {
	return a.Live == b.Live && a.Matplotlib == b.Matplotlib && a.Policy == b.Policy && slices.Equal(a.DataFiles, b.DataFiles)
}

// startWarmLocked starts making a warm sandbox for p.want; p.mu is held.
func (e *Engine) startWarmLocked() {
	p := &e.warm
	if p.want == nil || p.making || p.closed {
		return
	}
	p.making = true
	want, gen := *p.want, p.gen
	go func() {
		w, err := e.startWarm(want)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.making = false
		if err != nil {
			return // runs start cold; the next KeepWarm or run tries again
		}
		if gen != p.gen || p.closed || p.ready != nil {
			go w.discard()
			if !p.closed && p.ready == nil {
				e.startWarmLocked()
			}
			return
		}
		p.ready = w
	}()
}

// startWarm starts one sandbox for w, under the engine's policy, once the
// warm probe has passed in this process: no warm sandbox is kept where a
// run could find what an earlier one left.
func (e *Engine) startWarm(w Warmth) (*warmRun, error) {
	ctx := context.Background()
	if _, err := e.Check(ctx); err != nil {
		return nil, err
	}
	e.warmProbeOnce.Do(func() {
		if p := e.warmProbe(ctx); !p.OK {
			e.warmProbeErr = errors.New("warm probe: " + p.Detail)
		}
	})
	if e.warmProbeErr != nil {
		return nil, e.warmProbeErr
	}
	return e.startWarmSandbox(ctx, w)
}

// startWarmSandbox starts one sandbox for w.
func (e *Engine) startWarmSandbox(ctx context.Context, w Warmth) (*warmRun, error) {
	staging, err := os.MkdirTemp("", "kidcoder-warm-")
	if err != nil {
		return nil, err
	}
	policy := e.policy
	if w.Policy != (sandbox.Policy{}) {
		policy = w.Policy
	}
	wr := &warmRun{want: w, policy: policy, staging: staging, stamp: dataStamp(w.DataFiles), loaded: make(chan struct{})}
	files := e.dataMounts(staging, "", w.DataFiles)
	args, ro := e.runnerArgs("en", w.Live, false, nil) // the go line names the run's language
	if w.Matplotlib {
		if dir := e.fontCacheDir(ctx); dir != "" {
			args = append(args, "--mpl-cache", mplCacheDir)
			ro = append(ro, sandbox.Mount{Host: dir, Sandbox: mplCacheDir})
			wr.mplDir = dir
		}
		args = append(args, "--preload-mpl")
	}
	args = append(args, "--warm", "--", sandbox.ScratchDir+"/main.py")
	proc, err := sandbox.Start(ctx, sandbox.Spec{
		Policy:   policy,
		Python:   e.python,
		Args:     args,
		ReadOnly: ro,
		Files:    files,
		Frames:   true,
		Live:     w.Live,
		Warm:     true,
	}, &warmWatch{loaded: wr.loaded})
	if err != nil {
		os.RemoveAll(staging)
		return nil, err
	}
	wr.proc = proc
	go func() {
		// A warm sandbox that ends before it is taken (thrown away, or out
		// of memory while loading) leaves nothing behind.
		proc.Wait()
		e.warm.mu.Lock()
		if e.warm.ready == wr {
			e.warm.ready = nil
		}
		e.warm.mu.Unlock()
	}()
	return wr, nil
}

// discard ends a warm sandbox that will never be used: its runner, told to
// stop before it got a program, ends without running anything.
func (w *warmRun) discard() {
	w.proc.Stop()
	w.proc.Wait()
	os.RemoveAll(w.staging)
}

// takeWarm returns the ready warm sandbox if it fits req, and starts
// making the next one; nil means req starts cold.
func (e *Engine) takeWarm(req Request, policy sandbox.Policy, name string) *warmRun {
	p := &e.warm
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.ready
	if w == nil || !fitsWarm(w, req, policy, name) {
		return nil
	}
	p.ready = nil
	p.taken.Add(1)
	e.startWarmLocked()
	return w
}

// fitsWarm: the same kind of run, the engine's limits (a run may only
// shorten its clocks), no check scripts, and the same data files, unchanged.
func fitsWarm(w *warmRun, req Request, policy sandbox.Policy, name string) bool {
	if w.want.Live != req.Live || len(req.CheckFiles) > 0 {
		return false
	}
	if UsesMatplotlib(req.Code) && (!w.want.Matplotlib || w.mplDir == "") {
		return false
	}
	limits, kept := policy, w.policy
	if limits.WallTime > kept.WallTime || limits.CPUTime > kept.CPUTime {
		return false
	}
	limits.WallTime, limits.CPUTime = kept.WallTime, kept.CPUTime
	if limits != kept || len(req.DataFiles) != len(w.want.DataFiles) {
		return false
	}
	for i, f := range req.DataFiles {
		if f != w.want.DataFiles[i] || filepath.Base(f) == name {
			return false
		}
	}
	select {
	case <-w.proc.Done():
		return false
	default:
	}
	return dataStamp(req.DataFiles) == w.stamp
}

// dataStamp identifies the data files' current contents by what stat says.
func dataStamp(paths []string) string {
	var b strings.Builder
	for _, f := range paths {
		fi, err := os.Lstat(f)
		if err != nil {
			fmt.Fprintf(&b, "%s:-;", f)
			continue
		}
		fmt.Fprintf(&b, "%s:%d:%d:%v;", f, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
	}
	return b.String()
}

// goLine is what a warm runner reads on its control pipe to start: the go
// line, then the program's bytes.
func goLine(name, lang string, code []byte, live, scripted bool, policy sandbox.Policy, replaySteps int, trace bool) []byte {
	cpu := policy.CPUTime
	if live {
		cpu = max(cpu, time.Hour) // as a cold live run's processes get
	}
	h := map[string]any{
		"program":      sandbox.ScratchDir + "/" + name,
		"code_bytes":   len(code),
		"lang":         lang,
		"cpu":          int64((cpu + time.Second - 1) / time.Second),
		"replay_steps": min(max(replaySteps, 0), MaxDrawingSteps),
	}
	if trace {
		h["trace"] = true
	}
	if scripted {
		h["scripted"] = true
	}
	head, _ := json.Marshal(h)
	return append(append(append([]byte("go "), head...), '\n'), code...)
}

// startOnWarm hands req to the warm sandbox w.
func (e *Engine) startOnWarm(w *warmRun, req Request, obs Observer, policy sandbox.Policy, name, lang string) (*Run, error) {
	coll, trace := newCollector(obs), newTrace(req)
	if err := w.proc.Release(handler(coll, trace), goLine(name, lang, req.Code, req.Live, req.Timeline != nil, policy, req.ReplaySteps, req.Trace), policy.WallTime, policy.CPUTime); err != nil {
		go w.discard()
		return nil, err
	}
	return e.begin(w.proc, coll, trace, req, policy, lang, w.staging), nil
}

// UsesMatplotlib is whether code looks like it uses matplotlib: such runs
// bring matplotlib's font cache, and want it loaded ahead.
func UsesMatplotlib(code []byte) bool {
	s := string(code)
	return strings.Contains(s, "matplotlib") || strings.Contains(s, "pylab")
}

// Programs of the warm probe: the first leaves state behind in every place
// a run could reach, the second looks for it.
const (
	warmPlant = `import os, sys, subprocess, turtle
open('left.txt', 'w').write('x')
open('/tmp/left.txt', 'w').write('x')
os.environ['LEFT'] = '1'
turtle.LEFT = 1
sys.modules['left'] = sys
subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'], start_new_session=True)
print('planted')
`
	warmLook = `import os, sys, turtle
found = [n for n, bad in [
    ('scratch file', os.path.exists('left.txt')),
    ('tmp file', os.path.exists('/tmp/left.txt')),
    ('environment', 'LEFT' in os.environ),
    ('turtle module', hasattr(turtle, 'LEFT')),
    ('module table', 'left' in sys.modules),
    ('process', any(open('/proc/%s/cmdline' % p, 'rb').read().find(b'sleep(30)') >= 0
                    for p in os.listdir('/proc') if p.isdigit())),
] if bad]
print('found:', ', '.join(found) or 'nothing')
`
)

// warmProbe runs warmPlant and then warmLook, each on a warm sandbox of
// its own started for the probe: the second must find nothing.
func (e *Engine) warmProbe(ctx context.Context) sandbox.Probe {
	p := sandbox.Probe{Name: "warm_leaves_nothing", Kind: "block"}
	run := func(code, want string) string {
		w, err := e.startWarmSandbox(ctx, Warmth{})
		if err != nil {
			return "could not start a warm sandbox: " + err.Error()
		}
		select {
		case <-w.loaded:
		case <-w.proc.Done():
			return "the warm sandbox ended before it was used"
		case <-ctx.Done():
			go w.discard()
			return ctx.Err().Error()
		}
		r, err := e.startOnWarm(w, Request{Code: []byte(code)}, nil, w.policy, "main.py", "en")
		if err != nil {
			return err.Error()
		}
		if res := r.Wait(); res.Stdout != want {
			return fmt.Sprintf("printed %q (%s)", res.Stdout, res.Status)
		}
		return ""
	}
	if msg := run(warmPlant, "planted\n"); msg != "" {
		p.Detail = "leaving state: " + msg
		return p
	}
	if msg := run(warmLook, "found: nothing\n"); msg != "" {
		p.Detail = "the next warm run " + msg
		return p
	}
	p.OK, p.Detail = true, "a warm run finds nothing an earlier one left"
	return p
}
