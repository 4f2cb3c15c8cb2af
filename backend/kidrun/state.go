package kidrun

import (
	"encoding/json"
	"sync"
	"time"
)

// stateEvery is how often, at most, a run's state reaches its observer.
// Frames that say it cost the program a few bytes each, while every event
// costs the window a script evaluation: a program that says it very often
// is heard a few times a second, and always with what it said last.
const stateEvery = 250 * time.Millisecond

// stateGate passes a run's state on to its observer only as changes, at
// most once per stateEvery: whether the program waits in input() and with
// which prompt, and that it gave the keys to the drawing (listen). The
// first change after a quiet spell goes at once; changes within the
// spell wait for its end and are sent as the state then is.
type stateGate struct {
	obs      Observer
	live     LiveObserver // nil when the observer hears no live frames
	flushOut func()       // sends the output held so far: a prompt comes before its box
	now      func() time.Time
	after    func(time.Duration, func()) *time.Timer // time.AfterFunc; a test's own

	mu sync.Mutex // held while sending, so the timer's sends and a caller's never interleave
	// What the program said last: asks counts its input() waits, so a
	// second wait with the same prompt is a change too (the window hid the
	// box when the child answered).
	waiting     bool
	prompt      string
	asks        int
	listens     int
	listenFrame json.RawMessage
	sentWaiting bool
	sentAsks    int
	sentListens int
	last        time.Time   // when the observer last heard the state
	timer       *time.Timer // pending send at the end of the spell
	closed      bool
}

// newStateGate is the gate to obs (live, when not nil, hears listen
// frames); flushOut sends the output held before any state.
func newStateGate(obs Observer, live LiveObserver, flushOut func()) *stateGate {
	return &stateGate{obs: obs, live: live, flushOut: flushOut, now: time.Now, after: time.AfterFunc}
}

// input records that the program waits in input() with prompt.
func (g *stateGate) input(prompt string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting, g.prompt = true, prompt
	g.asks++
	g.changed()
}

// inputDone records that input() has its line.
func (g *stateGate) inputDone() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting = false
	g.changed()
}

// listen records a listen frame (frame, checked) for a live observer.
func (g *stateGate) listen(frame json.RawMessage) {
	if g.live == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.listens++
	g.listenFrame = frame
	g.changed()
}

// close ends the gate at the end of the run: what is pending is dropped,
// as the run's result says how it ended, and nothing is sent after.
func (g *stateGate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
}

// changed sends the state now, or once the spell since the last send is
// over. g.mu is held.
func (g *stateGate) changed() {
	if g.closed || g.timer != nil || !g.differs() {
		return
	}
	if wait := g.last.Add(stateEvery).Sub(g.now()); wait > 0 {
		g.timer = g.after(wait, g.fire)
		return
	}
	g.send()
}

// fire is the timer's send at the end of a spell.
func (g *stateGate) fire() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	g.timer = nil
	if g.differs() {
		g.send()
	}
}

// differs reports whether the observer last heard another state than the
// program's now. g.mu is held.
func (g *stateGate) differs() bool {
	return g.waiting != g.sentWaiting || g.waiting && g.asks != g.sentAsks || g.listens != g.sentListens
}

// send tells the observer the state as it is now. g.mu is held.
func (g *stateGate) send() {
	g.flushOut()
	switch {
	case g.waiting && (!g.sentWaiting || g.asks != g.sentAsks):
		g.obs.Waiting(g.prompt)
	case !g.waiting && g.sentWaiting:
		g.obs.InputDone()
	}
	g.sentWaiting, g.sentAsks = g.waiting, g.asks
	if g.listens != g.sentListens {
		g.live.Live(g.listenFrame)
		g.sentListens = g.listens
	}
	g.last = g.now()
}
