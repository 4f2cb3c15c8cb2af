package kidrun

import (
	"sync"
	"time"
)

// readiness is what a live program has said it can take, counted from its
// frames: start (its code begins to run), listen (keys reach the
// drawing), pointer (a click, release or drag handler is set), dialog
// (textinput/numinput waits for an answer) and loop (it waits in
// mainloop()). Run.Play counts a timeline from the start and holds each
// scripted event until the program can take it (docs/contracts.md §3), so
// a timeline plays the same game however slowly the program gets there.
// The frames come from inside the sandbox: forged ones only let the
// program's own timeline reach it sooner, never decide anything else.
type readiness struct {
	mu                                sync.Mutex
	listens, pointers, dialogs, loops int
	// startedAt is when the program's start frame came: its code began
	// to run (the sandbox and the interpreter had started), and a
	// timeline counts from here. Zero until then; later frames move it
	// no more.
	startedAt time.Time
	// changed is closed at the next frame that counts, for a waiter;
	// nil while nobody waits, so a flood of frames makes nothing.
	changed chan struct{}
}

// saw counts one frame of kind (start, listen, pointer, dialog or loop).
func (g *readiness) saw(kind string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch kind {
	case "start":
		if !g.startedAt.IsZero() {
			return
		}
		g.startedAt = time.Now()
	case "listen":
		g.listens++
	case "pointer":
		g.pointers++
	case "dialog":
		g.dialogs++
	case "loop":
		g.loops++
	default:
		return
	}
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

// takes reports whether the program can take ev now, answered being the
// answers already given to it; when it cannot, the channel returned is
// closed at its next readiness frame.
//
//   - A key, once listen() was called: Tk gives keys to the drawing only
//     from then on.
//   - The pointer, once a click, release or drag handler is set.
//   - An answer, once the program asks for one more than it was given: the
//     n-th answer goes to the n-th dialog (numinput asking again after a
//     wrong answer is one more).
//   - The drawing closing, once the program takes any of these: a child
//     closes a game they can play, or a drawing that is done.
//
// Waiting in mainloop() takes keys, the pointer and the close too: the
// program only answers events from then on, and a key without listen()
// or a click without a handler goes to no one, as with Tk. A program that
// never asks gets no answer and nothing after it, so an answer waits for
// its dialog alone.
func (g *readiness) takes(ev Event, answered int) (bool, <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var ok bool
	switch ev.Type {
	case "key":
		ok = g.listens > 0 || g.loops > 0
	case "mouse":
		ok = g.pointers > 0 || g.loops > 0
	case "answer":
		ok = g.dialogs > answered
	case "close":
		ok = g.listens > 0 || g.pointers > 0 || g.dialogs > 0 || g.loops > 0
	default:
		ok = true
	}
	return g.wait(ok)
}

// started is when the program's code began to run; when it has not yet,
// the channel returned is closed at its next readiness frame.
func (g *readiness) started() (time.Time, <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, changed := g.wait(!g.startedAt.IsZero())
	return g.startedAt, changed
}

// wait is ok, and when it is false the channel the next frame that
// counts closes; the caller holds g.mu.
func (g *readiness) wait(ok bool) (bool, <-chan struct{}) {
	if ok {
		return true, nil
	}
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	return false, g.changed
}
