package kidrun

import (
	"strings"
	"testing"
	"time"
)

// Which scripted events the program can take, after which of its frames
// (docs/contracts.md §3).
func TestReadinessTakes(t *testing.T) {
	key := Event{Type: "key", Key: "Up", Down: true}
	click := Event{Type: "mouse", Action: "down", Button: 1}
	drag := Event{Type: "mouse", Action: "move", Button: 1}
	answer := Event{Type: "answer"}
	closing := Event{Type: "close"}
	tests := []struct {
		frames   string // the program's frames so far, space-separated
		ev       Event
		answered int
		want     bool
	}{
		{"", key, 0, false},
		{"screen draw pointer dialog", key, 0, false},
		{"listen", key, 0, true},
		{"loop", key, 0, true}, // to no one, as without focus
		{"", click, 0, false},
		{"listen dialog screen", click, 0, false},
		{"pointer", click, 0, true},
		{"pointer", drag, 0, true},
		{"loop", drag, 0, true},
		{"", answer, 0, false},
		{"loop listen pointer", answer, 0, false}, // nothing asks
		{"dialog", answer, 0, true},
		{"dialog", answer, 1, false}, // the one dialog has its answer
		{"dialog dialog", answer, 1, true},
		{"", closing, 0, false},
		{"screen draw bye", closing, 0, false},
		{"listen", closing, 0, true},
		{"pointer", closing, 0, true},
		{"dialog", closing, 0, true},
		{"loop", closing, 0, true},
		{"", Event{Type: "pace", Speed: 2}, 0, true}, // the window's own lines never wait
	}
	for _, tt := range tests {
		var g readiness
		for _, f := range strings.Fields(tt.frames) {
			g.saw(f)
		}
		ok, changed := g.takes(tt.ev, tt.answered)
		if ok != tt.want || (changed == nil) != ok {
			t.Errorf("after %q, %+v (answered %d): takes %v, changed %v; want %v", tt.frames, tt.ev, tt.answered, ok, changed, tt.want)
		}
	}
}

// A waiter hears the frame that lets its event go, and only a frame that
// counts wakes it.
func TestReadinessWakesTheWaiter(t *testing.T) {
	var g readiness
	ok, changed := g.takes(Event{Type: "mouse", Action: "down", Button: 1}, 0)
	if ok {
		t.Fatal("a click was taken before any handler was set")
	}
	g.saw("draw")
	select {
	case <-changed:
		t.Fatal("a draw frame woke the waiter")
	default:
	}
	g.saw("pointer")
	select {
	case <-changed:
	default:
		t.Fatal("the pointer frame did not wake the waiter")
	}
	if ok, _ := g.takes(Event{Type: "mouse", Action: "down", Button: 1}, 0); !ok {
		t.Fatal("a click waits after the pointer frame")
	}
}

// The collector counts the program's readiness frames, and a dialog still
// reaches the window.
func TestCollectorCountsReadiness(t *testing.T) {
	obs := &liveFrames{}
	c := newCollector(obs)
	for _, f := range []string{`{"type":"start"}`, `{"type":"pointer"}`, `{"type":"dialog","kind":"text","title":"","prompt":"?"}`, `{"type":"loop"}`, `{"type":"listen"}`} {
		c.Frame([]byte(f))
	}
	c.flush()
	g := &c.ready
	if g.startedAt.IsZero() || g.pointers != 1 || g.dialogs != 1 || g.loops != 1 || g.listens != 1 {
		t.Fatalf("counted %+v", g)
	}
	if len(obs.frames) != 2 { // the dialog and the listen
		t.Errorf("%d frames reached the window, want 2", len(obs.frames))
	}
}

// A timeline counts from the program's first start frame: a waiter hears
// it, and a forged one later moves it no more.
func TestReadinessStartsOnce(t *testing.T) {
	var g readiness
	at, changed := g.started()
	if !at.IsZero() || changed == nil {
		t.Fatalf("started before any frame: %v", at)
	}
	g.saw("start")
	select {
	case <-changed:
	default:
		t.Fatal("the start frame did not wake the waiter")
	}
	if at, changed := g.started(); at.IsZero() || changed != nil {
		t.Fatalf("not started after the start frame: %v", at)
	}
	first := time.Now().Add(-time.Hour)
	g.startedAt = first
	g.saw("start")
	if again, _ := g.started(); !again.Equal(first) {
		t.Errorf("a second start frame moved the start from %v to %v", first, again)
	}
}
