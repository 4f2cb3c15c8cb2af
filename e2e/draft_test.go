//go:build e2e

package e2e

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
)

// typed is what the child types just before closing the window: plain
// letters and digits, so that no closing bracket or quote the editor adds
// by itself can stand in for a key that was lost.
const typed = "kept = 27182818284590452353602874713526624977"

// keptValue is what the lesson prints once every key is in it.
const keptValue = "27182818284590452353602874713526624977"

// typeFast types s through XTEST at gap between keys, faster than any
// child, and returns when the last key was released. Only unshifted keys:
// lower-case letters, digits, space and '='.
func (x *xconn) typeFast(t testing.TB, s string, gap time.Duration) time.Time {
	for _, r := range s {
		x.press(t, x.keycode(t, xproto.Keysym(r)))
		time.Sleep(gap)
	}
	return time.Now()
}

// closeWindow asks the window manager to close window as a taskbar or the
// title bar's ✕ does (EWMH _NET_CLOSE_WINDOW); openbox then sends the app
// WM_DELETE_WINDOW.
func (x *xconn) closeWindow(t testing.TB, window string) {
	id, err := strconv.ParseUint(strings.TrimPrefix(window, "0x"), 0, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", window, err)
	}
	const name = "_NET_CLOSE_WINDOW"
	atom, err := xproto.InternAtom(x.c, false, uint16(len(name)), name).Reply()
	if err != nil {
		t.Fatal(err)
	}
	ev := xproto.ClientMessageEvent{
		Format: 32,
		Window: xproto.Window(id),
		Type:   atom.Atom,
		// Timestamp 0 (now), source 2: a pager or taskbar, on the user's behalf.
		Data: xproto.ClientMessageDataUnionData32New([]uint32{0, 2, 0, 0, 0}),
	}
	mask := uint32(xproto.EventMaskSubstructureRedirect | xproto.EventMaskSubstructureNotify)
	if err := xproto.SendEventChecked(x.c, false, x.root, mask, string(ev.Bytes())).Check(); err != nil {
		t.Fatalf("_NET_CLOSE_WINDOW: %v", err)
	}
}

// logged reports whether the app's event log names event.
func (a *appRun) logged(event string) bool {
	for _, e := range a.eventsSoFar() {
		if e.Name == event {
			return true
		}
	}
	return false
}

// keepTest is one child's session: a lesson, then what they do before
// typing and closing the window.
type keepTest struct {
	name   string
	lesson string // the lesson's code; its first line is empty, where the keys go
	// quit ends the app with SIGTERM (a logout, a kill) instead of closing its window.
	quit bool
	// busy starts a run and returns once it is busy; nil: nothing runs.
	busy func(t *testing.T, a *appRun)
	// check runs the lesson in the reopened window and waits for keptValue.
	check func(t *testing.T, a *appRun)
}

// TestTypedThenClosedIsKept types a line into the real window under a
// window manager without a click (the editor has the keyboard from the
// start), closes the window right after the last key, and opens the app
// again: the lesson on disk and in the reopened editor has every key. Once
// with nothing running, once while a program spins and prints thousands of
// lines a second, and once quitting the app with a signal instead.
func TestTypedThenClosedIsKept(t *testing.T) {
	const settings = `{"lang":"en","fontSize":18,"timeoutSeconds":60}`
	tests := []keepTest{{
		name:   "idle",
		lesson: "\nprint(kept)\n",
		// Escape, then Tab, leaves the editor for the Run button, and
		// Return presses it: a Tab that indented would leave the program
		// unrun (Return a new line) or broken (an indented first line).
		check: func(t *testing.T, a *appRun) {
			a.x.xdo(t, "key", "Escape", "Tab", "Return")
			res := a.waitRuns(t, 2, 30*time.Second)
			if out, _ := res["stdout"].(string); out != keptValue+"\n" {
				t.Fatalf("Escape, Tab, Return: the run printed %q (status %v), want %q: Tab did not leave the editor, or keys were lost", out, res["status"], keptValue+"\n")
			}
		},
	}, {
		name:   "quit",
		lesson: "\nprint(kept)\n",
		quit:   true,
		check: func(t *testing.T, a *appRun) {
			a.x.xdo(t, "key", "ctrl+Return")
			res := a.waitRuns(t, 2, 30*time.Second)
			if out, _ := res["stdout"].(string); out != keptValue+"\n" {
				t.Fatalf("the run printed %q (status %v), want %q", out, res["status"], keptValue+"\n")
			}
		},
	}, {
		name: "busy",
		lesson: "\nprint(globals().get('kept'))\n" +
			"n = 0\nwhile n < 10 ** 9:\n    n += 1\n    if n % 2000 == 0:\n        print('busy', n)\n",
		busy: func(t *testing.T, a *appRun) {
			from := a.logSize()
			a.x.xdo(t, "key", "ctrl+Return")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if !waitFor(ctx, 20*time.Millisecond, func() bool { return strings.Contains(a.printed(), "busy 20000\n") }) {
				t.Fatalf("the busy program did not get going (printed %q)", tail(a.printed()))
			}
			if a.loggedSince(from, "run:done") {
				t.Fatal("the busy program ended before the typing")
			}
		},
		check: func(t *testing.T, a *appRun) {
			a.x.xdo(t, "key", "ctrl+Return")
			a.waitPrinted(t, keptValue+"\n", 30*time.Second)
			a.x.xdo(t, "key", "Escape")
			a.waitRuns(t, 2, 30*time.Second)
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			folder := t.TempDir()
			writeFile(t, filepath.Join(folder, "keep.py"), tc.lesson)
			writeFile(t, filepath.Join(folder, ".kidcoder", "state.json"), `{"open":"keep.py","startersWritten":true}`)
			withFolder := strings.TrimSuffix(settings, "}") + `,"lessonsDir":` + strconv.Quote(folder) + "}"
			x := startX(t, 1280, 820)
			startWM(t, x)
			a := startApp(t, x, "C.UTF-8", withFolder)
			a.waitRuns(t, 1, 45*time.Second) // the star demo
			// The page puts the keyboard in the editor as it shows the
			// lesson, in the same step: typing waits for the lesson on screen.
			a.waitScreen(t, "the lesson in the editor", "e2e-keep-"+tc.name+"-no-lesson.png", 30*time.Second, editorShowsCode)
			if tc.busy != nil {
				tc.busy(t, a)
			}
			xc := dialX(t, x.display)
			last := xc.typeFast(t, typed, 15*time.Millisecond)
			if tc.quit {
				if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			} else {
				xc.closeWindow(t, a.window)
			}
			closed := time.Now()
			gap := closed.Sub(last)
			select {
			case <-a.exited:
			case <-time.After(60 * time.Second):
				t.Fatalf("the app did not end after its window was closed (screen: %s)\n%s", savePNG(t, x.screenshot(t), "e2e-keep-"+tc.name+"-open.png"), a.howFar())
			}
			t.Logf("closed %v after the last key; the app ended %v after the close", gap.Round(time.Microsecond), time.Since(last).Round(time.Millisecond))
			if tc.busy != nil && a.runsDoneBefore(closed) > 1 {
				t.Errorf("the busy program had ended before the window was closed")
			}
			if !a.logged("app:closing") {
				t.Errorf("the window was not asked for its text before it closed\n%s", a.howFar())
			}
			b, err := os.ReadFile(filepath.Join(folder, "keep.py"))
			if err != nil {
				t.Fatal(err)
			}
			if want := typed + tc.lesson; string(b) != want {
				t.Fatalf("the lesson on disk after closing:\n%q\nwant\n%q", b, want)
			}

			b2 := startApp(t, x, "C.UTF-8", withFolder)
			b2.waitRuns(t, 1, 45*time.Second)
			tc.check(t, b2)
			savePNG(t, x.screenshot(t), "e2e-keep-"+tc.name+"-reopened.png")
		})
	}
}

// editorShowsCode: the editor's first lines at 1280x820 show code in the
// text colour (--ink, #2b2b3a), which an empty editor's grey placeholder
// and line numbers are not.
func editorShowsCode(img image.Image, win image.Rectangle) bool {
	lines := image.Rect(win.Min.X+270, win.Min.Y+100, win.Min.X+780, win.Min.Y+300)
	return countPixels(img, lines, func(r, g, b uint8) bool { return r < 100 && g < 100 && int(b)-int(r) >= 10 }) > 150
}

// tail is the end of a long text, for a failure message.
func tail(s string) string {
	if len(s) > 200 {
		return "…" + s[len(s)-200:]
	}
	return s
}

// runsDoneBefore counts the runs whose end was logged before at.
func (a *appRun) runsDoneBefore(at time.Time) int {
	n := 0
	for _, e := range a.eventsSoFar() {
		if e.Name == "run:done" && e.At < at.UnixMilli() {
			n++
		}
	}
	return n
}
