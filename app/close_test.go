package app

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kidcoder/backend/lessons"
)

// fakeCloser is the shell's side of closing: it counts quits and presses.
type fakeCloser struct {
	canPress bool
	quits    chan struct{}
	mu       sync.Mutex
	pressed  []string
}

func newFakeCloser(canPress bool) *fakeCloser {
	return &fakeCloser{canPress: canPress, quits: make(chan struct{}, 8)}
}

func (c *fakeCloser) Quit() { c.quits <- struct{}{} }

func (c *fakeCloser) PressKey(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pressed = append(c.pressed, name)
	return c.canPress
}

// manualTimer is closing's clock in a test: it fires when the test says.
type manualTimer struct {
	mu     sync.Mutex
	f      func()
	resets int
}

func (m *manualTimer) Reset(time.Duration) bool {
	m.mu.Lock()
	m.resets++
	m.mu.Unlock()
	return true
}
func (m *manualTimer) Stop() bool { return true }
func (m *manualTimer) fire()      { m.f() }

// manualClock makes a's closing wait on a timer the test fires.
func manualClock(a *App) *manualTimer {
	m := &manualTimer{}
	a.closing.startTimer = func(_ time.Duration, f func()) closeTimer { m.f = f; return m }
	return m
}

func (c *fakeCloser) awaitQuit(t *testing.T) {
	t.Helper()
	select {
	case <-c.quits:
	case <-time.After(10 * time.Second):
		t.Fatal("the window was never closed")
	}
}

func (c *fakeCloser) quitSoFar() bool {
	select {
	case <-c.quits:
		return true
	default:
		return false
	}
}

// A window that never said it answers (its page has not loaded) closes at
// once: nothing would answer the question.
func TestCloseWithoutAListeningWindowIsImmediate(t *testing.T) {
	a, sh, _ := newTestApp(t)
	c := newFakeCloser(true)
	if BeforeClose(a, c) {
		t.Fatal("the window was kept open with no one to answer")
	}
	if c.quitSoFar() || len(c.pressed) > 0 {
		t.Fatal("the shell was asked to do something for a window that may close at once")
	}
	for len(sh.events) > 0 {
		if e := <-sh.events; e.name == EventClosing {
			t.Fatal("a window that does not listen was asked")
		}
	}
}

// Closing asks once, however often the close button is pressed meanwhile,
// presses the close key once behind the keys on their way, and closes once.
func TestCloseAsksOnceAndQuitsOnce(t *testing.T) {
	a, sh, _ := newTestApp(t)
	a.AskOnClose()
	c := newFakeCloser(true)
	for i := 0; i < 3; i++ {
		if !BeforeClose(a, c) {
			t.Fatalf("press %d: the window closed before it answered", i+1)
		}
	}
	ev := sh.await(t, EventClosing, func(any) bool { return true }).(ClosingEvent)
	if ev.AfterKey != CloseKey {
		t.Errorf("the event says %+v, want the key %s to wait for", ev, CloseKey)
	}
	if len(c.pressed) != 1 || c.pressed[0] != CloseKey {
		t.Errorf("pressed %v, want %s once", c.pressed, CloseKey)
	}
	a.CloseReady(Draft{}, true)
	a.CloseReady(Draft{}, true)
	c.awaitQuit(t)
	if BeforeClose(a, c) {
		t.Fatal("the window stays open after it answered")
	}
	if c.quitSoFar() {
		t.Fatal("quit was called twice")
	}
	for len(sh.events) > 0 {
		if e := <-sh.events; e.name == EventClosing {
			t.Fatal("the window was asked twice")
		}
	}
}

// A shell that cannot press the key says so in the event: the window's
// first answer is then its last.
func TestCloseWithoutTheKey(t *testing.T) {
	a, sh, _ := newTestApp(t)
	a.AskOnClose()
	BeforeClose(a, newFakeCloser(false))
	if ev := sh.await(t, EventClosing, func(any) bool { return true }).(ClosingEvent); ev.AfterKey != "" {
		t.Errorf("the event says %+v, want no key to wait for", ev)
	}
}

// The first answer stands until the final one, which closes the window;
// a first answer that comes in after the final one does not undo it.
func TestCloseFinalAnswerWins(t *testing.T) {
	a, _, root := newTestApp(t)
	l, _ := a.OpenLesson("3 hello.py")
	a.AskOnClose()
	c := newFakeCloser(true)
	BeforeClose(a, c)
	if err := a.CloseReady(Draft{Path: l.Path, Content: "print(1)\n", Version: l.Version}, false); err != nil {
		t.Fatal(err)
	}
	if c.quitSoFar() {
		t.Fatal("a first answer closed the window before the keys were in")
	}
	a.CloseReady(Draft{Path: l.Path, Content: "print(12)\n", Version: l.Version}, true)
	c.awaitQuit(t)
	a.CloseReady(Draft{Path: l.Path, Content: "print(1)\n", Version: l.Version}, false)
	Shutdown(a)
	if b, _ := os.ReadFile(filepath.Join(root, "3 hello.py")); string(b) != "print(12)\n" {
		t.Errorf("the lesson holds %q, want the final answer's text", b)
	}
}

// A save that lands after the window's first answer holds newer text:
// the first answer is not written over it at shutdown, as a conflict.
func TestCloseSaveAfterFirstAnswerWins(t *testing.T) {
	a, _, root := newTestApp(t)
	l, _ := a.OpenLesson("3 hello.py")
	a.AskOnClose()
	clock := manualClock(a)
	c := newFakeCloser(true)
	BeforeClose(a, c)
	a.CloseReady(Draft{Path: l.Path, Content: "print(1)\n", Version: l.Version}, false)
	if _, err := a.SaveLesson(SaveRequest{Path: l.Path, Content: "print(12)\n", Version: l.Version}); err != nil {
		t.Fatal(err)
	}
	clock.fire()
	c.awaitQuit(t)
	Shutdown(a)
	if b, _ := os.ReadFile(filepath.Join(root, "3 hello.py")); string(b) != "print(12)\n" {
		t.Errorf("the lesson holds %q, want the later save", b)
	}
	if names, _ := filepath.Glob(filepath.Join(root, "3 hello (from disk)*")); len(names) > 0 {
		t.Errorf("the first answer was written as a conflict: %v", names)
	}
}

// A window that keeps answering as keys come in is given the wait again
// with each answer: a starved machine's window takes its time, a hung one
// none.
func TestCloseWaitsWhileTheWindowAnswers(t *testing.T) {
	a, _, root := newTestApp(t)
	l, _ := a.OpenLesson("3 hello.py")
	a.AskOnClose()
	clock := manualClock(a)
	c := newFakeCloser(true)
	BeforeClose(a, c)
	text := "print("
	for i := 1; i <= 3; i++ {
		text += "1"
		a.CloseReady(Draft{Path: l.Path, Content: text, Version: l.Version}, false)
		if clock.resets != i {
			t.Fatalf("after %d answers the wait began %d times again", i, clock.resets)
		}
	}
	if c.quitSoFar() {
		t.Fatal("answers that are not final closed the window")
	}
	clock.fire()
	c.awaitQuit(t)
	Shutdown(a)
	if b, _ := os.ReadFile(filepath.Join(root, "3 hello.py")); string(b) != text {
		t.Errorf("the lesson holds %q, want the last answer's %q", b, text)
	}
}

// A window whose final answer never comes is closed after the wait, with
// the text of its first answer.
func TestCloseGivesUpOnAHungWindow(t *testing.T) {
	a, _, root := newTestApp(t)
	l, _ := a.OpenLesson("3 hello.py")
	a.AskOnClose()
	clock := manualClock(a)
	c := newFakeCloser(true)
	BeforeClose(a, c)
	a.CloseReady(Draft{Path: l.Path, Content: "print('first')\n", Version: l.Version}, false)
	clock.fire()
	c.awaitQuit(t)
	Shutdown(a)
	if b, _ := os.ReadFile(filepath.Join(root, "3 hello.py")); string(b) != "print('first')\n" {
		t.Errorf("the lesson holds %q, want the first answer's text", b)
	}
}

// Only an asked window's answer counts: CloseReady out of turn neither
// closes the window nor keeps text.
func TestCloseReadyUnaskedIsRefused(t *testing.T) {
	a, _, root := newTestApp(t)
	l, _ := a.OpenLesson("3 hello.py")
	if err := a.CloseReady(Draft{Path: l.Path, Content: "x\n", Version: l.Version}, true); err == nil {
		t.Fatal("an answer nobody asked for was taken")
	}
	Shutdown(a)
	if b, _ := os.ReadFile(filepath.Join(root, "3 hello.py")); string(b) == "x\n" {
		t.Error("the unasked-for text was saved")
	}
}

// Text too large for a lesson is refused, and the window still closes.
func TestCloseReadyRefusesTooLargeButCloses(t *testing.T) {
	a, _, _ := newTestApp(t)
	l, _ := a.OpenLesson("3 hello.py")
	a.AskOnClose()
	c := newFakeCloser(true)
	BeforeClose(a, c)
	err := a.CloseReady(Draft{Path: l.Path, Content: strings.Repeat("x", lessons.MaxLessonSize+1), Version: l.Version}, true)
	if problemCode(t, err) != string(lessons.CodeTooLarge) {
		t.Errorf("error %v, want too_large", err)
	}
	c.awaitQuit(t)
}
