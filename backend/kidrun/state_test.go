package kidrun

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// spell stands in for a gate's clock and timer: time stands still, so
// every change after the first waits for the timer, and the timer fires
// only when the test ends the spell.
type spell struct {
	at   time.Time
	fire func()
}

func (s *spell) now() time.Time { return s.at }

func (s *spell) after(_ time.Duration, f func()) *time.Timer {
	s.fire = f
	return time.NewTimer(time.Hour) // only ever stopped
}

// end fires the pending timer; false when none is pending.
func (s *spell) end() bool {
	f := s.fire
	s.fire = nil
	if f != nil {
		f()
	}
	return f != nil
}

// heard records an observer's calls in order.
type heard struct{ calls []string }

func (h *heard) Output(_, text string)      { h.calls = append(h.calls, "out "+text) }
func (h *heard) Waiting(prompt string)      { h.calls = append(h.calls, "waiting "+prompt) }
func (h *heard) InputDone()                 { h.calls = append(h.calls, "done") }
func (h *heard) Live(frame json.RawMessage) { h.calls = append(h.calls, "live "+string(frame)) }

// The gate sends the first change at once and, within a spell, only the
// state the program is in when the spell ends: a wait that ended and a new
// one with the same prompt is a new wait, a wait begun and ended is
// nothing, and listen is sent once however often it was said. Output
// goes before every send; nothing goes after the run's end.
func TestStateGateSendsChangesOnly(t *testing.T) {
	h := &heard{}
	sp := &spell{at: time.Now()}
	flushed := 0
	g := newStateGate(h, h, func() { flushed++ })
	g.now, g.after = sp.now, sp.after
	expect := func(want ...string) {
		t.Helper()
		if !slices.Equal(h.calls, want) {
			t.Fatalf("heard %q, want %q", h.calls, want)
		}
		h.calls = nil
	}
	listen := json.RawMessage(`{"type":"listen"}`)

	g.input("?")
	expect("waiting ?")
	for range 1000 { // answered and asked again, with the same prompt
		g.inputDone()
		g.input("?")
		g.listen(listen)
	}
	expect()
	sp.end()
	expect("waiting ?", `live {"type":"listen"}`)
	g.inputDone()
	g.input("name?")
	g.inputDone()
	sp.end()
	expect("done")
	g.inputDone() // said again: no change, nothing to send
	if sp.end() {
		t.Error("a timer for no change")
	}
	g.listen(listen)
	g.input("age?")
	sp.end()
	expect("waiting age?", `live {"type":"listen"}`)
	if flushed != 4 {
		t.Errorf("output flushed %d times, want before each of the 4 sends", flushed)
	}
	// Closed at the run's end: what is pending is never sent.
	g.inputDone()
	g.close()
	g.input("late")
	sp.end()
	expect()
}
