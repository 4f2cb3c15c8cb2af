package kidrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kidcoder/backend/kidrun/kidruntest"
	"kidcoder/sandbox"
)

// warmEngine is an engine of its own (sharing the test engine's cache), so
// the other tests' runs stay cold.
func warmEngine(t testing.TB, policy sandbox.Policy) *Engine {
	t.Helper()
	base := testEngine(t)
	e, err := New(Options{CacheDir: base.cacheDir, Policy: policy, Python: base.python})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// awaitWarm waits until e has a warm sandbox ready; the verdict of a test
// never depends on how long that takes.
func awaitWarm(t testing.TB, e *Engine) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if ready, _ := e.WarmReady(); ready {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no warm sandbox became ready")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func startOn(t *testing.T, e *Engine, code string, req Request) *Run {
	t.Helper()
	req.Code = []byte(code)
	r, err := e.Start(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// startBounded starts req under pol, whose clocks a test checks, on a
// warm sandbox: its clocks start with the program (docs/sandbox-limits.md,
// "Warm runs"), so the bound holds the program's own lines, never the
// interpreter's and the runner's start, real work a busy machine slows.
func startBounded(t *testing.T, pol sandbox.Policy, req Request, obs Observer) *Run {
	t.Helper()
	roomy := pol
	roomy.WallTime, roomy.CPUTime = kidruntest.Roomy, kidruntest.Roomy
	e := warmEngine(t, roomy)
	e.KeepWarm(Warmth{Live: req.Live})
	awaitWarm(t, e)
	req.Policy = &pol
	r, err := e.Start(context.Background(), req, obs)
	if err != nil {
		t.Fatal(err)
	}
	if e.warm.taken.Load() != 1 {
		t.Fatal("the run started cold: its clock counts the interpreter's start")
	}
	return r
}

// TestCorpusWarm runs the whole corpus on warm sandboxes (with matplotlib
// loaded ahead): every program must do exactly what it does cold.
func TestCorpusWarm(t *testing.T) {
	e := warmEngine(t, testEngine(t).Policy())
	e.KeepWarm(Warmth{Matplotlib: true})
	taken := 0
	checkCorpus(t, e, func(t *testing.T) {
		awaitWarm(t, e)
		taken++
	})
	if got := e.warm.taken.Load(); got != int64(taken) {
		t.Errorf("%d runs took a warm sandbox, want %d", got, taken)
	}
}

// TestWarmClockCountsFromTheProgram: a warm sandbox that waited longer than
// the wall-clock limit still gives its program the whole limit, and the
// run's duration counts from the program's start.
func TestWarmClockCountsFromTheProgram(t *testing.T) {
	p := testEngine(t).Policy()
	p.WallTime = 2 * time.Second
	e := warmEngine(t, p)
	e.KeepWarm(Warmth{})
	awaitWarm(t, e)
	time.Sleep(p.WallTime + 500*time.Millisecond)
	res := startOn(t, e, "import time\ntime.sleep(0.5)\nprint('done')\n", Request{}).Wait()
	if res.Status != "ok" || res.Stdout != "done\n" {
		t.Fatalf("status %s stdout %q message %q", res.Status, res.Stdout, res.Message)
	}
	if e.warm.taken.Load() != 1 {
		t.Fatal("the run did not take the warm sandbox")
	}
	if res.DurationMS >= p.WallTime.Milliseconds() {
		t.Errorf("duration %d ms counts the time the sandbox waited", res.DurationMS)
	}
	// A runaway loop on a warm sandbox is still stopped at the limit.
	awaitWarm(t, e)
	res = startOn(t, e, "while True:\n    pass\n", Request{}).Wait()
	if res.Status != "timeout" {
		t.Fatalf("runaway loop on a warm sandbox: %s", res.Status)
	}
}

// TestWarmRunsLeaveNothing: a run cannot leave anything for the next one
// (files, environment, modules, processes): each warm sandbox is new.
func TestWarmRunsLeaveNothing(t *testing.T) {
	e := warmEngine(t, testEngine(t).Policy())
	e.KeepWarm(Warmth{})
	awaitWarm(t, e)
	if res := startOn(t, e, warmPlant, Request{}).Wait(); res.Stdout != "planted\n" {
		t.Fatalf("planting: %s %q %q", res.Status, res.Stdout, res.Stderr)
	}
	awaitWarm(t, e)
	res := startOn(t, e, warmLook, Request{}).Wait()
	if res.Stdout != "found: nothing\n" {
		t.Fatalf("an earlier run left state behind: %q %q", res.Stdout, res.Stderr)
	}
	if e.warm.taken.Load() != 2 {
		t.Fatalf("%d runs took a warm sandbox, want 2", e.warm.taken.Load())
	}
}

// TestWarmFollowsTheDataFiles: a warm sandbox has the lesson's data files,
// and is not used once they changed.
func TestWarmFollowsTheDataFiles(t *testing.T) {
	e := warmEngine(t, testEngine(t).Policy())
	data := filepath.Join(t.TempDir(), "words.txt")
	if err := os.WriteFile(data, []byte("apple\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.KeepWarm(Warmth{DataFiles: []string{data}})
	awaitWarm(t, e)
	read := "print(open('words.txt').read().strip())\n"
	if res := startOn(t, e, read, Request{DataFiles: []string{data}}).Wait(); res.Stdout != "apple\n" {
		t.Fatalf("warm run read %q (%s)", res.Stdout, res.Stderr)
	}
	awaitWarm(t, e)
	if err := os.WriteFile(data, []byte("banana, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := startOn(t, e, read, Request{DataFiles: []string{data}}).Wait(); res.Stdout != "banana, longer\n" {
		t.Fatalf("after the data file changed the run read %q", res.Stdout)
	}
	if e.warm.taken.Load() != 1 {
		t.Fatalf("%d runs took a warm sandbox, want 1 (the second must start cold)", e.warm.taken.Load())
	}
}

// TestWarmStopAndLiveRuns: Stop at once on a warm run ends it; a live run
// takes a live warm sandbox and gets its events.
func TestWarmStopAndLiveRuns(t *testing.T) {
	e := warmEngine(t, testEngine(t).Policy())
	e.KeepWarm(Warmth{Live: true})
	awaitWarm(t, e)
	r := startOn(t, e, "import time\ntime.sleep(60)\n", Request{Live: true})
	r.Stop()
	if res := r.Wait(); res.Status == "ok" && !strings.Contains(res.Message, "") {
		t.Fatalf("stopped: %+v", res)
	}
	awaitWarm(t, e)
	game := `import turtle
turtle.onkey(lambda: print('up!'), 'Up')
turtle.listen()
turtle.done()
`
	tl, err := ParseTimeline([]byte(`{"at_ms": 100, "type": "key", "key": "Up"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	r = startOn(t, e, game, Request{Timeline: tl})
	if res := r.Wait(); res.Stdout != "up!\n" || res.Status != "ok" {
		t.Fatalf("live game on a warm sandbox: %s %q %q", res.Status, res.Stdout, res.Stderr)
	}
	if e.warm.taken.Load() != 2 {
		t.Fatalf("%d runs took a warm sandbox, want 2", e.warm.taken.Load())
	}
}

// TestWarmOutputNeverLost: a program that prints at once on a warm
// sandbox always has its output, however soon after the handover it comes.
func TestWarmOutputNeverLost(t *testing.T) {
	e := warmEngine(t, testEngine(t).Policy())
	e.KeepWarm(Warmth{Live: true})
	for i := range 20 {
		awaitWarm(t, e)
		obs := newEvents()
		r, err := e.Start(context.Background(), Request{Code: []byte("print('x')\n"), Live: true}, obs)
		if err != nil {
			t.Fatal(err)
		}
		res := r.Wait()
		obs.mu.Lock()
		seen := obs.out.String()
		obs.mu.Unlock()
		if res.Stdout != "x\n" || seen != "x\n" {
			t.Fatalf("run %d: stdout %q, the window saw %q", i, res.Stdout, seen)
		}
	}
}
