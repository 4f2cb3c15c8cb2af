//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// appRun is the real desktop app on a private display.
type appRun struct {
	x      *xserver
	cmd    *exec.Cmd
	start  time.Time
	events string          // the app's event log (KIDCODER_EVENT_LOG)
	window string          // X window id
	exited <-chan struct{} // closed once the app has ended
}

// launch starts build/bin/kidcoder (which starts the GUI binary beside it)
// on a fresh display, with a fresh home, and waits for its window.
func launch(t testing.TB, w, h int, lang string) *appRun {
	return launchOn(t, startX(t, w, h), w, h, lang, "")
}

// launchOn starts the app on display x, with settings if not "", and
// places its window to fill the screen.
func launchOn(t testing.TB, x *xserver, w, h int, lang, settings string) *appRun {
	a := startApp(t, x, lang, settings)
	// No window manager runs under Xvfb: place the window to fill the
	// screen. The app has placed its window by the time it has painted
	// (fitToScreen runs when the page is loaded), so this placement is the
	// last; the tests read pixels at fixed places only once it has landed.
	cmd := exec.Command("xdotool", "windowmove", a.window, "0", "0", "windowsize", a.window, itoa(w), itoa(h))
	cmd.Env = append(os.Environ(), "DISPLAY="+x.display)
	cmd.Run()
	want := geometry{0, 0, w, h}
	var g geometry
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if !waitFor(ctx, 100*time.Millisecond, func() bool { g = windowGeometry(t, x, a.window); return g == want }) {
		t.Fatalf("the window is %s, not %s as placed", g, want)
	}
	a.waitPainted(t)
	return a
}

// startApp starts the app on display x, with settings if not "", and waits
// for its window, leaving it where the app put it.
func startApp(t testing.TB, x *xserver, lang, settings string) *appRun {
	// The course shelf, which a first start opens by itself after the star,
	// stays shut unless a test's settings say otherwise.
	switch {
	case settings == "":
		settings = `{"coursesOffered":true}`
	case !strings.Contains(settings, "coursesOffered"):
		settings = strings.Replace(settings, "{", `{"coursesOffered":true,`, 1)
	}
	home := t.TempDir()
	if settings != "" {
		writeSettings(t, home, settings)
	}
	bin := filepath.Join(repoRoot(t), "build", "bin", "kidcoder")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s missing: run make build first", bin)
	}
	a := &appRun{x: x, events: filepath.Join(home, "events.jsonl")}
	for attempt := 1; ; attempt++ {
		if a.open(t, bin, home, lang) {
			break
		}
		out, _ := os.ReadFile(filepath.Join(home, "app.log"))
		// Once in about a hundred launches under Xvfb, GTK could not open
		// the display the test's Xvfb had just reported ready (seen in
		// make bench; not reproduced in 25 launches in a row). That is the
		// test's display, not the app: launch once more, and say so.
		if attempt == 1 && strings.Contains(string(out), "failed to init GTK") {
			t.Logf("the app could not open the display %s (GTK): launching it again", x.display)
			os.Remove(a.events)
			continue
		}
		img := x.screenshot(t)
		t.Fatalf("the app's window did not appear within 60 s, or the app ended first (screen: %s)\n%s", savePNG(t, img, "e2e-no-window.png"), a.howFar())
	}
	a.waitPainted(t)
	return a
}

// open starts the app and waits for its window (true), or for the app to
// end or 60 s to pass without one (false).
func (a *appRun) open(t testing.TB, bin, home, lang string) bool {
	a.cmd = exec.Command(bin)
	a.cmd.Env = append(a.x.env(t, home, lang), "KIDCODER_EVENT_LOG="+a.events)
	logf, err := os.Create(filepath.Join(home, "app.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	a.cmd.Stdout, a.cmd.Stderr = logf, logf
	a.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	a.start = time.Now()
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmd, exited := a.cmd, make(chan struct{})
	a.exited = exited
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(3 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	// Seconds on a busy machine; once, on a fresh clone's first launch, more
	// than 20 (the window log then says how far the app got).
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	gone := false
	waitFor(ctx, 100*time.Millisecond, func() bool {
		select {
		case <-exited:
			gone = true
			return true
		default:
		}
		cmd := exec.Command("xdotool", "search", "--onlyvisible", "--class", "kidcoder")
		cmd.Env = append(os.Environ(), "DISPLAY="+a.x.display)
		out, err := cmd.CombinedOutput()
		if err != nil || len(strings.Fields(string(out))) == 0 {
			return false
		}
		a.window = strings.Fields(string(out))[0]
		return true
	})
	return !gone && a.window != ""
}

// waitPainted waits until the window shows the classroom: a window is
// mapped, and gets keys and clicks, before its page has painted, and a
// click into a window that is still the empty page lands on the page, not
// the editor. A window that stays empty fails here, with its screenshot,
// instead of as a missing star or a program typed nowhere.
func (a *appRun) waitPainted(t testing.TB) image.Image {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var img image.Image
	if !waitFor(ctx, 200*time.Millisecond, func() bool { img = a.x.screenshot(t); return painted(img) }) {
		t.Fatalf("the window stayed an empty page for 60 s after it appeared (screen: %s)\n%s", savePNG(t, img, "e2e-empty-window.png"), a.howFar())
	}
	return img
}

// howFar says what the app did, for a test that fails: which events and
// notes its window logged, when (ms after the start), and the end of its
// output.
func (a *appRun) howFar() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, ev := range a.eventsSoFar() {
		if seen[ev.Name] {
			continue
		}
		seen[ev.Name] = true
		fmt.Fprintf(&b, "  %s at %d ms\n", ev.Name, ev.At-a.start.UnixMilli())
	}
	if len(seen) == 0 {
		b.WriteString("  no event logged (the page never called the app)\n")
	}
	if out, err := os.ReadFile(filepath.Join(filepath.Dir(a.events), "app.log")); err == nil {
		if len(out) > 1500 {
			out = out[len(out)-1500:]
		}
		fmt.Fprintf(&b, "app output (end):\n%s", out)
	}
	return "window log:\n" + b.String()
}

// painted says whether a screen shows more than an empty window: before
// its first frame the window is its background colour (main.go's
// BackgroundColour, #fffaf0) over the black root; the classroom's panels,
// text and buttons are other colours over much of the window.
func painted(img image.Image) bool {
	b := img.Bounds()
	n := countPixels(img, b, func(r, g, bl uint8) bool {
		empty := (r == 0 && g == 0 && bl == 0) || (r == 255 && g == 250 && bl == 240)
		return !empty
	})
	return n >= b.Dx()*b.Dy()/50
}

func itoa(n int) string { return strconv.Itoa(n) }

// drawingArea is the right part of the window, where the drawing panel is.
func drawingArea(img image.Image) image.Rectangle {
	b := img.Bounds()
	return image.Rect(b.Min.X+b.Dx()*45/100, b.Min.Y+40, b.Max.X, b.Max.Y)
}

// waitGold waits until the drawing area shows at least n gold pixels and returns the screenshot.
func (a *appRun) waitGold(t testing.TB, n int, within time.Duration) (image.Image, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var last image.Image
	ok := waitFor(ctx, 150*time.Millisecond, func() bool {
		last = a.x.screenshot(t)
		return countPixels(last, drawingArea(last), isGold) >= n
	})
	return last, ok
}

// logged is one event the app emitted, from its event log.
type logged struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data"`
	At   int64           `json:"at"` // Unix milliseconds
}

// eventsSoFar reads the app's event log.
func (a *appRun) eventsSoFar() []logged {
	f, err := os.Open(a.events)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []logged
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e logged
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

// doneResults returns the results of finished runs, in order.
func (a *appRun) doneResults() []map[string]any {
	var out []map[string]any
	for _, e := range a.eventsSoFar() {
		if e.Name != "run:done" {
			continue
		}
		var d struct {
			Result map[string]any `json:"result"`
		}
		if json.Unmarshal(e.Data, &d) == nil {
			out = append(out, d.Result)
		}
	}
	return out
}

// waitRuns waits until n runs have finished and returns the last result.
func (a *appRun) waitRuns(t testing.TB, n int, within time.Duration) map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var res []map[string]any
	if !waitFor(ctx, 100*time.Millisecond, func() bool { res = a.doneResults(); return len(res) >= n }) {
		t.Fatalf("run %d did not finish within %v (events: %d; screen: %s)", n, within, len(a.eventsSoFar()),
			savePNG(t, a.x.screenshot(t), fmt.Sprintf("e2e-run-%d-unfinished.png", n)))
	}
	return res[n-1]
}

var shotMu sync.Mutex

func TestStarAppearsOnOpen(t *testing.T) {
	a := launch(t, 1280, 820, "en_US.UTF-8")
	// How fast is the bench's figure (first star ink); here only whether.
	// A fresh clone's first launch took 16 s to it once, on a cold cache.
	img, ok := a.waitGold(t, 3000, 45*time.Second)
	elapsed := time.Since(a.start)
	path := savePNG(t, img, "e2e-star-on-open.png")
	if !ok {
		t.Fatalf("no golden star in the drawing area within 45 s (screenshot %s)", path)
	}
	t.Logf("star visible %v after launch; screenshot %s", elapsed.Round(time.Millisecond), path)
	res := a.waitRuns(t, 1, 10*time.Second)
	if res["status"] != "ok" {
		t.Fatalf("star demo status %v, want ok: %v", res["status"], res)
	}
	if out, _ := res["stdout"].(string); !strings.Contains(out, "⭐") && out == "" {
		t.Fatalf("star demo printed nothing: %q", out)
	}
	if ims, _ := res["images"].([]any); len(ims) == 0 {
		t.Fatal("star demo gave no drawing")
	}
}

// writeSettings gives the app a settings file before it starts.
func writeSettings(t testing.TB, home, json string) {
	dir := filepath.Join(home, ".config", "kidcoder")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(json), 0o644); err != nil {
		t.Fatal(err)
	}
}

// typeProgram replaces the editor's text the way a child would: click into
// the editor, select all, type.
func (a *appRun) typeProgram(t testing.TB, code string) {
	a.x.xdo(t, "mousemove", "300", "300", "click", "1")
	a.x.xdo(t, "key", "ctrl+a", "Delete")
	// Lines come without indentation: the editor indents after a colon, as
	// it does for a child.
	for _, line := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		a.x.xdo(t, "type", "--delay", "5", line)
		a.x.xdo(t, "key", "Return")
	}
}

// TestDriveTheRealApp types programs into the real window and runs them:
// Chinese and emoji with a square, a runaway loop, and input().
func TestDriveTheRealApp(t *testing.T) {
	x := startX(t, 1280, 820)
	_ = x
	// 5 s: generous for every program here on a slow machine, short for the runaway.
	a := launchOn(t, x, 1280, 820, "C.UTF-8", `{"lang":"en","fontSize":18,"timeoutSeconds":5}`)
	if _, ok := a.waitGold(t, 3000, 20*time.Second); !ok {
		t.Fatal("star demo never appeared")
	}
	a.waitRuns(t, 1, 10*time.Second)

	// Typed as ASCII escapes: xdotool types non-ASCII characters by swapping
	// its keyboard mapping, which a busy window can misread. The browser
	// tests type Chinese and emoji directly.
	a.typeProgram(t, "import turtle\nprint('\\u4f60\\u597d \\U0001f422 ok')\nt = turtle.Turtle()\nt.pensize(5)\nfor i in range(4):\nt.forward(150)\nt.left(90)\n")
	a.x.xdo(t, "key", "ctrl+Return")
	res := a.waitRuns(t, 2, 15*time.Second)
	if res["status"] != "ok" || !strings.Contains(res["stdout"].(string), "你好 🐢 ok") {
		t.Fatalf("typed program: status %v stdout %q error %v", res["status"], res["stdout"], res["error"])
	}
	time.Sleep(500 * time.Millisecond) // let the window paint the new picture
	img := a.x.screenshot(t)
	savePNG(t, img, "e2e-typed-square.png")
	dark := countPixels(img, drawingArea(img), func(r, g, b uint8) bool { return r < 60 && g < 60 && b < 60 })
	if gold := countPixels(img, drawingArea(img), isGold); gold > 500 || dark < 1500 {
		t.Errorf("drawing area after the square: %d dark pixels, %d gold (want a black square, no star)", dark, gold)
	}

	a.typeProgram(t, "while True:\npass\n")
	a.x.xdo(t, "key", "ctrl+Return")
	res = a.waitRuns(t, 3, 30*time.Second)
	if res["status"] != "timeout" || !strings.Contains(res["message"].(string), "5 s") {
		t.Fatalf("runaway loop: status %v message %v", res["status"], res["message"])
	}
	savePNG(t, a.x.screenshot(t), "e2e-timeout.png")

	a.typeProgram(t, "n = input('How many? ')\nprint(int(n) * 2)\n")
	a.x.xdo(t, "key", "ctrl+Return")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if !waitFor(ctx, 100*time.Millisecond, func() bool {
		for _, e := range a.eventsSoFar() {
			if e.Name == "run:waiting" {
				return true
			}
		}
		return false
	}) {
		t.Fatal("the program never waited for input")
	}
	time.Sleep(300 * time.Millisecond) // the input box takes focus when it appears
	a.x.xdo(t, "type", "21")
	a.x.xdo(t, "key", "Return")
	res = a.waitRuns(t, 4, 15*time.Second)
	if res["status"] != "ok" || !strings.Contains(res["stdout"].(string), "42") {
		t.Fatalf("input program: status %v stdout %q", res["status"], res["stdout"])
	}
	savePNG(t, a.x.screenshot(t), "e2e-input.png")
}

// TestScreenshotsAtSizes keeps a screenshot of the real app at the smallest
// supported window and a large one, in both languages, for people to look at;
// each must show the star.
func TestScreenshotsAtSizes(t *testing.T) {
	for _, size := range [][2]int{{800, 600}, {1440, 900}} {
		for _, lang := range []string{"zh", "en"} {
			w, h := size[0], size[1]
			name := fmt.Sprintf("app-%dx%d-%s.png", w, h, lang)
			t.Run(name, func(t *testing.T) {
				x := startX(t, w, h)
				a := launchOn(t, x, w, h, "C.UTF-8", `{"lang":"`+lang+`","fontSize":18,"timeoutSeconds":10}`)
				// Smaller windows draw a smaller star.
				img, ok := a.waitGold(t, w*h/400, 20*time.Second)
				path := savePNG(t, img, name)
				if !ok {
					t.Fatalf("no star at %dx%d (%s)", w, h, path)
				}
			})
		}
	}
}
