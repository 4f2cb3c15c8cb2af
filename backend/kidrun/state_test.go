package kidrun

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// heard records a state gate's observer calls, in order, and signals each.
type heard struct {
	calls []string
	each  chan struct{}
}

func (h *heard) note(s string) {
	h.calls = append(h.calls, s)
	h.each <- struct{}{}
}

func (h *heard) Output(_, text string)      { h.note("out " + text) }
func (h *heard) Waiting(prompt string)      { h.note("waiting " + prompt) }
func (h *heard) InputDone()                 { h.note("done") }
func (h *heard) Live(frame json.RawMessage) { h.note("live " + string(frame)) }

// The gate sends the first change at once and, within a spell, only the
// state the program is in when the spell ends: a wait that ended and a new
// one with the same prompt is a new wait, a wait begun and ended is
// nothing, and listen is sent once however often it was said. Its clock
// stands still here, so every later change waits for the timer.
func TestStateGateSendsChangesOnly(t *testing.T) {
	h := &heard{each: make(chan struct{}, 64)}
	flushed := 0
	g := newStateGate(h, h, func() { flushed++ })
	frozen := time.Now()
	g.now = func() time.Time { return frozen }
	await := func(want ...string) {
		t.Helper()
		for range want {
			<-h.each
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		if !slices.Equal(h.calls, want) {
			t.Fatalf("heard %q, want %q", h.calls, want)
		}
		h.calls = nil
	}
	listen := json.RawMessage(`{"type":"listen"}`)

	g.input("?")
	await("waiting ?")
	for range 1000 { // answered and asked again, with the same prompt
		g.inputDone()
		g.input("?")
		g.listen(listen)
	}
	await("waiting ?", `live {"type":"listen"}`)
	g.inputDone()
	g.input("name?")
	g.inputDone()
	await("done")
	g.listen(listen)
	g.input("age?")
	await("waiting age?", `live {"type":"listen"}`)
	if flushed != 4 {
		t.Errorf("output flushed %d times, want before each of the 4 sends", flushed)
	}
	// Closed at the run's end: what is pending is never sent.
	g.inputDone()
	g.close()
	g.input("late")
	g.mu.Lock()
	pending := g.timer != nil
	g.mu.Unlock()
	if pending || len(h.calls) != 0 {
		t.Errorf("a closed gate sends: timer %v, heard %q", pending, h.calls)
	}
}
