//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"image"
	"strings"
	"testing"
	"time"
)

// isInk is a dark pixel: the test programs draw in black.
func isInk(r, g, b uint8) bool { return r < 70 && g < 70 && b < 70 }

// ink counts dark pixels in the drawing area of a fresh screenshot.
func (a *appRun) ink(t testing.TB) (int, image.Image) {
	img := a.x.screenshot(t)
	return countPixels(img, drawingArea(img), isInk), img
}

// liveFrames returns the types of the live frames the app has sent so far.
func (a *appRun) liveFrames() []string {
	var out []string
	for _, e := range a.eventsSoFar() {
		if e.Name != "run:live" {
			continue
		}
		var d struct {
			Frame struct {
				Type string `json:"type"`
			} `json:"frame"`
		}
		if json.Unmarshal(e.Data, &d) == nil {
			out = append(out, d.Frame.Type)
		}
	}
	return out
}

// waitLive waits until the app has sent a live frame of type kind.
func (a *appRun) waitLive(t testing.TB, kind string, within time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if !waitFor(ctx, 50*time.Millisecond, func() bool {
		for _, k := range a.liveFrames() {
			if k == kind {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no %q frame within %v (live frames: %v)", kind, within, a.liveFrames())
	}
}

// startedApp launches the app, waits for the star demo to finish and
// returns it ready for typing.
func startedApp(t testing.TB) *appRun {
	x := startX(t, 1280, 820)
	a := launchOn(t, x, 1280, 820, "C.UTF-8", `{"lang":"en","fontSize":18,"timeoutSeconds":10}`)
	if _, ok := a.waitGold(t, 3000, 20*time.Second); !ok {
		t.Fatal("star demo never appeared")
	}
	a.waitRuns(t, 1, 30*time.Second)
	return a
}

// TestLiveDrawingGrows: a slow drawing (speed 1, about 9 s in CPython)
// appears step by step while the program runs, not all at once at the end.
func TestLiveDrawingGrows(t *testing.T) {
	a := startedApp(t)
	a.typeProgram(t, "import turtle\nt = turtle.Turtle()\nt.speed(1)\nt.pensize(8)\nfor i in range(6):\nt.forward(200)\nt.left(60)\n")
	base, _ := a.ink(t) // the panel itself before the run: frames, labels
	a.x.xdo(t, "key", "ctrl+Return")
	a.waitLive(t, "draw", 15*time.Second)
	var counts []int
	var shots []image.Image
	for len(a.doneResults()) < 2 {
		n, img := a.ink(t)
		counts = append(counts, max(0, n-base))
		shots = append(shots, img)
		time.Sleep(400 * time.Millisecond)
		if len(counts) > 200 {
			t.Fatal("the slow drawing never finished")
		}
	}
	res := a.waitRuns(t, 2, 5*time.Second)
	if res["status"] != "ok" {
		t.Fatalf("status %v error %v", res["status"], res["error"])
	}
	time.Sleep(time.Second) // the window finishes the last step, then shows the final picture
	final, img := a.ink(t)
	final = max(0, final-base)
	savePNG(t, img, "e2e-live-final.png")
	// Growth while running: some screenshot taken before the end shows a
	// partial drawing, and a later one (still before the end) shows more.
	grew := false
	for i := range counts {
		for j := i + 1; j < len(counts); j++ {
			if counts[i] > final/20 && counts[j] > counts[i]+final/20 && counts[j] < final*95/100 {
				grew = true
				savePNG(t, shots[i], "e2e-live-partial-1.png")
				savePNG(t, shots[j], "e2e-live-partial-2.png")
			}
		}
	}
	if !grew {
		t.Fatalf("the drawing did not grow while the program ran: ink during the run %v, final %d", counts, final)
	}
	t.Logf("ink while running %v, final %d", counts, final)
}

// gameProgram listens for arrow keys and draws a thick line as the turtle
// moves; it stays in done() until stopped.
const gameProgram = "import turtle\nt = turtle.Turtle()\nt.pensize(8)\ns = turtle.Screen()\n" +
	"s.onkeypress(lambda: t.forward(25), 'Up')\ns.onkeypress(lambda: t.left(90), 'Left')\n" +
	"s.listen()\nprint('ready')\nturtle.done()\nprint('after done')\n"

// TestLiveGameTakesArrowKeys: a program that listens gets arrow keys typed
// with xdotool, its line grows with each one, the editor does not move, and
// Stop ends the game at once.
func TestLiveGameTakesArrowKeys(t *testing.T) {
	a := startedApp(t)
	a.typeProgram(t, gameProgram)
	a.x.xdo(t, "key", "ctrl+Return")
	a.waitLive(t, "listen", 15*time.Second)
	time.Sleep(300 * time.Millisecond)
	before, img := a.ink(t)
	savePNG(t, img, "e2e-game-before-keys.png")
	for i := 0; i < 4; i++ {
		a.x.xdo(t, "key", "Up")
		time.Sleep(150 * time.Millisecond)
	}
	a.x.xdo(t, "key", "Left")
	for i := 0; i < 4; i++ {
		a.x.xdo(t, "key", "Up")
		time.Sleep(150 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var after int
	if !waitFor(ctx, 200*time.Millisecond, func() bool { after, img = a.ink(t); return after > before+600 }) {
		savePNG(t, img, "e2e-game-after-keys.png")
		t.Fatalf("arrow keys did not move the turtle: ink %d before, %d after", before, after)
	}
	savePNG(t, img, "e2e-game-after-keys.png")
	if n := len(a.doneResults()); n != 1 {
		t.Fatalf("the game ended by itself (%d runs done)", n)
	}

	// The child clicks the editor (keys go back to it), then presses Escape: Stop.
	a.x.xdo(t, "mousemove", "300", "300", "click", "1")
	stopAt := time.Now()
	a.x.xdo(t, "key", "Escape")
	res := a.waitRuns(t, 2, 10*time.Second)
	took := time.Since(stopAt)
	out, _ := res["stdout"].(string)
	if !strings.Contains(out, "ready") || !strings.Contains(out, "after done") {
		t.Fatalf("stopping a game closes its window, so the code after done() runs: stdout %q status %v", out, res["status"])
	}
	t.Logf("ink %d before the keys, %d after; Stop to the run's end %v", before, after, took.Round(time.Millisecond))
	savePNG(t, a.x.screenshot(t), "e2e-game-stopped.png")
}
