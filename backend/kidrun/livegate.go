package kidrun

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// liveEvery is how often, at most, a live run's drawing frames reach the
// observer: about one frame of a 60 Hz window. A frame costs the program a
// few bytes, an event costs the window a script evaluation, so the frames
// of one such interval go as at most one event of each kind.
const liveEvery = 16 * time.Millisecond

// liveGate passes a live run's screen, draw, dialog and bye frames on to a
// LiveObserver, at most once per liveEvery: the first after a quiet spell
// at once, later ones at the spell's end. Within a spell the latest screen
// and dialog stand for the others, bye is sent once, and the draw frames'
// new steps go as one draw frame, the same steps at the same positions.
// A draw frame that adds no step is dropped; one that skips steps (the
// window's drawing stops there) is passed on, and none after it.
type liveGate struct {
	live     LiveObserver
	flushOut func() // sends the output held so far, which came first
	now      func() time.Time
	after    func(time.Duration, func()) *time.Timer // time.AfterFunc; a test's own

	mu             sync.Mutex // held while sending, so the timer's sends and a caller's never interleave
	screen, dialog json.RawMessage
	bye            json.RawMessage
	from           int               // the position of steps[0]
	steps          []json.RawMessage // new steps not sent yet
	size           int               // their bytes, a comma each
	next           int               // the position of the next new step
	broken         bool              // a draw frame skipped steps
	last           time.Time         // when the observer last heard a frame
	timer          *time.Timer
	closed         bool
}

// newLiveGate is the gate to live; flushOut sends the output held before any frame.
func newLiveGate(live LiveObserver, flushOut func()) *liveGate {
	return &liveGate{live: live, flushOut: flushOut, now: time.Now, after: time.AfterFunc}
}

// frame takes one live frame of kind (screen, draw, dialog or bye), valid
// JSON of at most maxLiveFrame bytes, as the collector checked it.
func (g *liveGate) frame(kind string, payload []byte) {
	var d struct {
		From  *int              `json:"from"`
		Steps []json.RawMessage `json:"steps"`
	}
	if kind == "draw" && (json.Unmarshal(payload, &d) != nil || d.From == nil || *d.From < 0) {
		return // the window could not draw it
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	own := json.RawMessage(append([]byte(nil), payload...))
	switch kind {
	case "screen":
		g.screen = own
	case "dialog":
		g.dialog = own
	case "bye":
		g.bye = own
	case "draw":
		if !g.draw(*d.From, d.Steps, own) {
			return
		}
	}
	g.changed()
}

// draw adds a draw frame's new steps; false when it adds nothing to send.
// g.mu is held.
func (g *liveGate) draw(from int, steps []json.RawMessage, frame json.RawMessage) bool {
	switch {
	case g.broken || from+len(steps) <= g.next:
		return false
	case from > g.next:
		// Steps were skipped (one too big for a frame comes only with the
		// result): the window's drawing stops here, as this frame tells it.
		g.send()
		g.flushOut()
		g.live.Live(frame)
		g.broken, g.last = true, g.now()
		return false
	}
	for _, s := range steps[g.next-from:] {
		if len(g.steps) > 0 && g.size+len(s)+64 > maxLiveFrame {
			g.send() // a frame's worth waits: it goes now
		}
		if len(g.steps) == 0 {
			g.from = g.next
		}
		g.steps = append(g.steps, s)
		g.size += len(s) + 1
		g.next++
	}
	return true
}

// close sends what waits and ends the gate at the end of the run: every
// step drawn reaches the window, which replays the run from them.
func (g *liveGate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	if !g.closed {
		g.send()
		g.closed = true
	}
}

// changed sends now, or once the spell since the last send is over. g.mu is held.
func (g *liveGate) changed() {
	if g.timer != nil {
		return
	}
	if wait := g.last.Add(liveEvery).Sub(g.now()); wait > 0 {
		g.timer = g.after(wait, g.fire)
		return
	}
	g.send()
}

// fire is the timer's send at the end of a spell.
func (g *liveGate) fire() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.timer = nil
		g.send()
	}
}

// send passes on what waits: the screen first, as the steps are drawn on
// it, then the steps, the dialog and bye. g.mu is held.
func (g *liveGate) send() {
	if g.screen == nil && len(g.steps) == 0 && g.dialog == nil && g.bye == nil {
		return
	}
	g.flushOut()
	if g.screen != nil {
		g.live.Live(g.screen)
	}
	if len(g.steps) > 0 {
		b := make([]byte, 0, g.size+64)
		b = append(b, `{"type":"draw","from":`...)
		b = strconv.AppendInt(b, int64(g.from), 10)
		b = append(b, `,"steps":[`...)
		for i, s := range g.steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, s...)
		}
		g.live.Live(append(b, "]}"...))
	}
	if g.dialog != nil {
		g.live.Live(g.dialog)
	}
	if g.bye != nil {
		g.live.Live(g.bye)
	}
	g.screen, g.dialog, g.bye, g.steps, g.size = nil, nil, nil, nil, 0
	g.last = g.now()
}
