package kidrun

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// stateCounter counts what a live run's Observer hears, and calls onOut
// once output contains its marker.
type stateCounter struct {
	mu                  sync.Mutex
	out                 strings.Builder
	waiting, done, live int
	marker              string
	onMarker            func()
	once                sync.Once
}

func (c *stateCounter) Output(_, text string) {
	c.mu.Lock()
	c.out.WriteString(text)
	hit := c.marker != "" && strings.Contains(c.out.String(), c.marker)
	c.mu.Unlock()
	if hit {
		c.once.Do(c.onMarker)
	}
}
func (c *stateCounter) Waiting(string) { c.mu.Lock(); c.waiting++; c.mu.Unlock() }
func (c *stateCounter) InputDone()     { c.mu.Lock(); c.done++; c.mu.Unlock() }
func (c *stateCounter) Live(json.RawMessage) {
	c.mu.Lock()
	c.live++
	c.mu.Unlock()
}

// A live program that floods forged input, input_done, listen and loop
// frames and ignores Stop: the observer hears the run's state only as
// changes, a few times a second (before: one event per frame, 942,000 of
// each in 24 s in the window), and Stop ends the run.
func TestForgedStateFloodIsCoalescedAndStopped(t *testing.T) {
	e := testEngine(t)
	code, err := os.ReadFile("testdata/attacks/state_flood.py")
	if err != nil {
		t.Fatal(err)
	}
	pol := e.Policy()
	pol.WallTime, pol.CPUTime = time.Minute, time.Minute
	var r *Run
	var stopAt time.Time
	stopped := make(chan struct{})
	c := &stateCounter{marker: "SENT", onMarker: func() {
		<-stopped // r is set
		stopAt = time.Now()
		r.Stop()
	}}
	began := time.Now()
	r, err = e.Start(context.Background(), Request{Code: code, Name: "flood.py", Interactive: true, Live: true, Policy: &pol}, c)
	if err != nil {
		t.Fatal(err)
	}
	close(stopped)
	res := r.Wait()
	took := time.Since(began)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !strings.Contains(res.Stdout, "FRAME FDS 1") || !strings.Contains(res.Stdout, "SENT") {
		t.Fatalf("the attack did not flood the frame pipe: %q %q", res.Stdout, res.Stderr)
	}
	if !res.Stopped {
		t.Errorf("Stop did not end the run: %s after %d ms", res.Status, res.DurationMS)
	}
	t.Logf("Stop to the end: %v; events: %d waiting, %d input done, %d live in %v", time.Since(stopAt), c.waiting, c.done, c.live, took)
	// At most one change of each state per interval, plus the first.
	bound := int(took/stateEvery) + 2
	if c.waiting > bound || c.done > bound || c.live > bound {
		t.Errorf("%d waiting, %d input done, %d live events in %v, want at most %d each", c.waiting, c.done, c.live, took, bound)
	}
}

// A live program that floods forged screen, draw, dialog and bye frames,
// each draw frame with a new step, and ignores Stop: the observer hears at
// most one frame of each kind per liveEvery, besides a frame for each MiB
// of steps (before: one event per frame), and Stop ends the run.
func TestForgedDrawingFloodIsCoalescedAndStopped(t *testing.T) {
	e := testEngine(t)
	code, err := os.ReadFile("testdata/attacks/drawing_flood.py")
	if err != nil {
		t.Fatal(err)
	}
	pol := e.Policy()
	pol.WallTime, pol.CPUTime = time.Minute, time.Minute
	var r *Run
	var stopAt time.Time
	started := make(chan struct{})
	c := &stateCounter{marker: "SENT", onMarker: func() {
		<-started
		stopAt = time.Now()
		r.Stop()
	}}
	began := time.Now()
	r, err = e.Start(context.Background(), Request{Code: code, Name: "flood.py", Interactive: true, Live: true, Policy: &pol}, c)
	if err != nil {
		t.Fatal(err)
	}
	close(started)
	res := r.Wait()
	took := time.Since(began)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !strings.Contains(res.Stdout, "FRAME FDS 1") || !strings.Contains(res.Stdout, "SENT") {
		t.Fatalf("the attack did not flood the frame pipe: %q %q", res.Stdout, res.Stderr)
	}
	if !res.Stopped {
		t.Errorf("Stop did not end the run: %s after %d ms", res.Status, res.DurationMS)
	}
	t.Logf("Stop to the end: %v; %d live events in %v", time.Since(stopAt), c.live, took)
	bound := 4*(int(took/liveEvery)+2) + maxLiveDraw/maxLiveFrame
	if c.live > bound {
		t.Errorf("%d live events in %v, want at most %d", c.live, took, bound)
	}
}
