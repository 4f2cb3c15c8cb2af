package app

import (
	"errors"
	"time"

	"kidcoder/backend/lessons"
)

// CloseWait bounds how long closing waits for the window's next answer to
// EventClosing: a window answers in milliseconds, also beside a flooding
// run, and answers again for every key it takes in meanwhile, however slowly
// a starved machine lets it; one that has not answered for this long is hung
// and closes without its final answer.
const CloseWait = 10 * time.Second

// CloseKey is the key the shell presses in the window right after
// EventClosing, where it can. WebKitGTK hands keys to the page one at a
// time, and an event sent to the page overtakes those still on their way:
// the key goes behind them, so the window that answers once it has seen the
// key has every key pressed before the close in its text.
const CloseKey = "F24"

// ClosingEvent is EventClosing's payload.
type ClosingEvent struct {
	// AfterKey is CloseKey when the shell presses it: the window answers
	// at once and for each key that comes in (not final), and final once
	// the close key has come. "" means the window's first answer is final.
	AfterKey string `json:"afterKey,omitempty"`
}

// Closer is what closing needs from the shell.
type Closer interface {
	// Quit closes the window for good; the shell asks BeforeClose again.
	Quit()
	// PressKey presses the key named name (CloseKey) in the window,
	// behind every key already on its way to the page; false where the
	// shell cannot.
	PressKey(name string) bool
}

// closing is the handshake that closes the window only once it has handed
// over the editor's last text. Nothing in it waits on a timer in the page:
// the page answers an event, and the only clock is CloseWait, here.
type closing struct {
	listens bool // the window answers EventClosing (AskOnClose)
	asked   bool // EventClosing was sent
	final   bool // the final answer came
	done    bool // answered or given up: the window may close now
	closer  Closer
	timer   closeTimer
	// startTimer is time.AfterFunc unless a test chooses.
	startTimer func(time.Duration, func()) closeTimer
}

// closeTimer is the part of *time.Timer closing uses.
type closeTimer interface {
	Reset(time.Duration) bool
	Stop() bool
}

// BeforeClose is the shell's question before the window closes or the app
// quits, by the window's close button, the window manager or a signal:
// true keeps the window open for now. While the window listens
// (AskOnClose), the first time it asks the window for the editor's unsaved
// text (EventClosing) and keeps it open; the window's final CloseReady, or
// CloseWait without any answer, then closes it through the closer, whose
// Quit asks again and is let through. Shutdown saves what the window handed
// over last.
func BeforeClose(a *App, c Closer) bool {
	a.mu.Lock()
	cl := &a.closing
	if cl.done || !cl.listens || a.shell == nil {
		a.mu.Unlock()
		return false
	}
	if cl.asked {
		a.mu.Unlock()
		return true
	}
	cl.asked, cl.closer = true, c
	if cl.startTimer == nil {
		cl.startTimer = func(d time.Duration, f func()) closeTimer { return time.AfterFunc(d, f) }
	}
	cl.timer = cl.startTimer(CloseWait, a.letClose)
	a.mu.Unlock()
	// The key may reach the page before the event does; the window waits
	// for both.
	var ev ClosingEvent
	if c.PressKey(CloseKey) {
		ev.AfterKey = CloseKey
	}
	a.emit(EventClosing, ev)
	return true
}

// AskOnClose says the window listens for EventClosing: from now on,
// closing waits for its final CloseReady (at most CloseWait).
func (a *App) AskOnClose() error {
	a.mu.Lock()
	a.closing.listens = true
	a.mu.Unlock()
	return nil
}

// errNotClosing is returned by CloseReady when no EventClosing was sent.
var errNotClosing = errors.New("the window was not asked to close")

// CloseReady is the window's answer to EventClosing: the editor's unsaved
// text (Path "" when there is none), which Shutdown saves. A final answer
// closes the window, also when its text is refused (keeping a closing
// window open would not save it either); one that is not final stands
// until the next one, and the window has CloseWait again to send it. The
// window sends its answers one after another, but each bound call runs on
// its own: an answer that comes in after the final one is ignored.
func (a *App) CloseReady(d Draft, final bool) error {
	a.mu.Lock()
	cl := &a.closing
	if !cl.asked {
		a.mu.Unlock()
		return errNotClosing
	}
	if cl.final {
		a.mu.Unlock()
		return nil
	}
	cl.final = final
	if !final && !cl.done {
		cl.timer.Reset(CloseWait)
	}
	var err error
	switch {
	case d.Path == "":
		a.draft = nil
	case len(d.Content) > lessons.MaxLessonSize:
		err = problem(lessons.ErrTooLarge)
	case a.lib == nil:
		err = errNoFolder
	default:
		a.draft = &d
	}
	a.mu.Unlock()
	if final {
		a.letClose()
	}
	return err
}

// letClose closes the window once, for the window's answer or CloseWait.
func (a *App) letClose() {
	a.mu.Lock()
	cl := &a.closing
	if cl.done {
		a.mu.Unlock()
		return
	}
	cl.done = true
	cl.timer.Stop()
	c := cl.closer
	a.mu.Unlock()
	c.Quit()
}
