//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sharedKeysGame listens for Up, then asks in the console and in a turtle
// dialog before its main loop, as a child's game asks for a name.
const sharedKeysGame = `import turtle
t = turtle.Turtle()
s = turtle.Screen()
s.onkey(lambda: print('up pressed'), 'Up')
s.listen()
name = input('name? ')
print('hello ' + name)
colour = s.textinput('Colour', 'Which colour?')
print('colour ' + str(colour))
turtle.mainloop()
print('game over')
`

// writeFile writes a file, making its folder.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// inWindow is a point of the app's window as a screen point: with a window
// manager the window is wherever the manager put it.
func (a *appRun) inWindow(t testing.TB, px, py int) (string, string) {
	g := windowGeometry(t, a.x, a.window)
	return itoa(g.x + px), itoa(g.y + py)
}

// count is how many events named name the app has emitted.
func (a *appRun) count(name string) int {
	n := 0
	for _, e := range a.eventsSoFar() {
		if e.Name == name {
			n++
		}
	}
	return n
}

// printed is everything the runs printed to stdout so far, in order.
func (a *appRun) printed() string {
	var b strings.Builder
	for _, e := range a.eventsSoFar() {
		if e.Name != "run:output" {
			continue
		}
		var d struct {
			Stream string `json:"stream"`
			Text   string `json:"text"`
		}
		if json.Unmarshal(e.Data, &d) == nil && d.Stream == "stdout" {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

// waitScreen waits until a screenshot of the window's area satisfies ok;
// it fails with the screenshot saved as name.
func (a *appRun) waitScreen(t testing.TB, what, name string, within time.Duration, ok func(image.Image, image.Rectangle) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var img image.Image
	if !waitFor(ctx, 100*time.Millisecond, func() bool {
		img = a.x.screenshot(t)
		g := windowGeometry(t, a.x, a.window)
		return ok(img, image.Rect(g.x, g.y, g.x+g.w, g.y+g.h))
	}) {
		t.Fatalf("%s: not within %v (screen: %s)\nprinted: %q", what, within, savePNG(t, img, name), a.printed())
	}
}

// waitPrinted waits until the runs have printed want.
func (a *appRun) waitPrinted(t testing.TB, want string, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if !waitFor(ctx, 100*time.Millisecond, func() bool { return strings.Contains(a.printed(), want) }) {
		t.Fatalf("%q was not printed within %v (printed %q; screen: %s)", want, within, a.printed(),
			savePNG(t, a.x.screenshot(t), "e2e-keys-"+strings.ReplaceAll(want, " ", "-")+".png"))
	}
}

// answerBoxShown: the console's input() box is on screen (its #f2f8ff fill).
func answerBoxShown(img image.Image, win image.Rectangle) bool {
	return countPixels(img, win, func(r, g, b uint8) bool { return r == 0xf2 && g == 0xf8 && b == 0xff }) > 1500
}

// dialogShown: a modal is up, its overlay (rgba(40, 30, 10, 0.35)) darkening
// the window's cream (#fffaf0) to about (180, 173, 160) and its white
// panels to about (180, 176, 169).
func dialogShown(img image.Image, win image.Rectangle) bool {
	in := func(v, lo, hi uint8) bool { return v >= lo && v <= hi }
	return countPixels(img, win, func(r, g, b uint8) bool { return in(r, 176, 184) && in(g, 169, 180) && in(b, 156, 173) }) > 5000
}

// openLesson starts the app on a w × h display under a window manager, with
// code as the lesson open last time (so nothing depends on typing a program
// into a busy window), and waits for the star demo's run. settings is a
// JSON object without lessonsDir.
func openLesson(t *testing.T, name, code string, w, h int, locale, settings string) *appRun {
	t.Helper()
	folder := t.TempDir()
	writeFile(t, filepath.Join(folder, name), code)
	writeFile(t, filepath.Join(folder, ".kidcoder", "state.json"), `{"open":`+strconv.Quote(name)+`,"startersWritten":true}`)
	x := startX(t, w, h)
	startWM(t, x)
	settings = strings.TrimSuffix(strings.TrimSpace(settings), "}") + `,"lessonsDir":` + strconv.Quote(folder) + "}"
	a := startApp(t, x, locale, settings)
	a.waitRuns(t, 1, 45*time.Second) // the star demo
	return a
}

// TestGameSharesTheKeys plays a game in the real window under a window
// manager: after listen(), an input() box and a turtle dialog get what the
// child types without a click, the keys come back to the game afterwards,
// Ctrl+Enter runs the program again and Escape stops it, both while the
// game has the keys.
func TestGameSharesTheKeys(t *testing.T) {
	a := openLesson(t, "game.py", sharedKeysGame, 1280, 820, "C.UTF-8", `{"lang":"en","fontSize":18,"timeoutSeconds":60}`)
	// A click into the editor: the window has the keyboard.
	ex, ey := a.inWindow(t, 400, 250)
	a.x.xdo(t, "mousemove", ex, ey, "click", "1")

	play := func(run int, name, colour string) {
		t.Helper()
		// The box shows: the child types at once, with no click.
		a.waitScreen(t, fmt.Sprintf("run %d: the input() box", run), fmt.Sprintf("e2e-keys-%d-no-box.png", run), 20*time.Second, answerBoxShown)
		a.x.xdo(t, "type", "--delay", "20", name)
		a.x.xdo(t, "key", "Return")
		a.waitPrinted(t, "hello "+name, 10*time.Second)
		a.waitScreen(t, fmt.Sprintf("run %d: the turtle dialog", run), fmt.Sprintf("e2e-keys-%d-no-dialog.png", run), 20*time.Second, dialogShown)
		a.x.xdo(t, "type", "--delay", "20", colour)
		a.x.xdo(t, "key", "Return")
		a.waitPrinted(t, "colour "+colour, 10*time.Second)
		// Back in the game: Up reaches its handler.
		a.waitScreen(t, fmt.Sprintf("run %d: the dialog closes", run), fmt.Sprintf("e2e-keys-%d-dialog-stays.png", run), 10*time.Second,
			func(img image.Image, win image.Rectangle) bool { return !dialogShown(img, win) })
		before := strings.Count(a.printed(), "up pressed")
		a.x.xdo(t, "key", "Up")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if !waitFor(ctx, 100*time.Millisecond, func() bool { return strings.Count(a.printed(), "up pressed") > before }) {
			t.Fatalf("run %d: Up after the dialog did not reach the game (printed %q; screen: %s)", run, a.printed(), savePNG(t, a.x.screenshot(t), "e2e-keys-no-up.png"))
		}
		if n := len(a.doneResults()); n != run-1 {
			t.Fatalf("run %d: the game ended by itself (%d runs done)", run, n)
		}
	}

	a.x.xdo(t, "key", "ctrl+Return")
	play(2, "Bob", "red")
	savePNG(t, a.x.screenshot(t), "e2e-keys-game.png")

	// Ctrl+Enter while the game has the keys: it runs again.
	a.x.xdo(t, "key", "ctrl+Return")
	res := a.waitRuns(t, 2, 15*time.Second)
	if res["stopped"] != true {
		t.Fatalf("Ctrl+Enter during the game: the first game should be stopped for the new run, got %v", res)
	}
	play(3, "Ann", "blue")

	// Escape while the game has the keys: Stop.
	a.x.xdo(t, "key", "Escape")
	res = a.waitRuns(t, 3, 15*time.Second)
	if res["stopped"] != true {
		t.Fatalf("Escape during the game did not stop it: %v", res)
	}
	if out, _ := res["stdout"].(string); !strings.Contains(out, "hello Ann") || !strings.Contains(out, "game over") {
		t.Fatalf("the stopped game's output: %q (stopping closes its window, so the code after mainloop runs)", out)
	}
	savePNG(t, a.x.screenshot(t), "e2e-keys-stopped.png")
}

// timerGame ticks every 100 ms, drawing a little each time, and says so.
const timerGame = `import turtle
t = turtle.Turtle()
t.pensize(3)
n = 0
def tick():
    global n
    n += 1
    print("tick", n)
    t.forward(4)
    t.left(9)
    turtle.ontimer(tick, 100)
turtle.listen()
turtle.onkey(lambda: print("key!"), "Up")
tick()
turtle.done()
`

// lastTick is the last "tick N" the runs printed.
func lastTick(printed string) int {
	i := strings.LastIndex(printed, "tick ")
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(strings.Fields(printed[i+5:])[0])
	return n
}

// centre is the middle of the pixels of r that match; ok is false when
// too few do to be a button.
func centre(img image.Image, r image.Rectangle, match func(r, g, b uint8) bool) (x, y int, ok bool) {
	pts := pixelsWhere(img, r, match)
	if len(pts) < 20 {
		return 0, 0, false
	}
	for _, p := range pts {
		x, y = x+p.X, y+p.Y
	}
	return x / len(pts), y / len(pts), true
}

// TestPauseAGame pauses a game on a timer in the real window at 800×600
// under a window manager: after ⏸ its ticks stand still (waited for, never
// timed), its key does not reach it, ▶ 继续 goes on from the same tick, and
// Esc stops it.
func TestPauseAGame(t *testing.T) {
	a := openLesson(t, "game.py", timerGame, 800, 600, "zh_CN.UTF-8", `{"lang":"zh","timeoutSeconds":60}`)
	ex, ey := a.inWindow(t, 330, 200)
	a.x.xdo(t, "mousemove", ex, ey, "click", "1")
	a.x.xdo(t, "key", "ctrl+Return")
	a.waitPrinted(t, "tick 3\n", 30*time.Second)

	// The ⏸ and ✖ buttons: grey circles (rgba(60, 60, 80, 0.65) on white) at
	// the drawing's top right, ⏸ the left one.
	grey := func(r, g, b uint8) bool { return r >= 125 && r <= 131 && g >= 125 && g <= 131 && b >= 138 && b <= 144 }
	img := a.x.screenshot(t)
	g := windowGeometry(t, a.x, a.window)
	win := image.Rect(g.x+g.w/2, g.y, g.x+g.w, g.y+g.h)
	top := image.Rect(win.Min.X, win.Min.Y, win.Max.X, win.Min.Y+g.h/2) // the stage's top, where the two buttons are
	maxX := top.Min.X
	for _, p := range pixelsWhere(img, top, grey) {
		maxX = max(maxX, p.X)
	}
	// ✖ ends at maxX; ⏸, as wide (2em) with 6 px between, is left of it.
	px, py, ok := centre(img, image.Rect(maxX-80, top.Min.Y, maxX-38, top.Max.Y), grey)
	if !ok {
		t.Fatalf("no ⏸ button on the live drawing (screen: %s)", savePNG(t, img, "e2e-pause-no-button.png"))
	}
	a.x.xdo(t, "mousemove", itoa(px), itoa(py), "click", "1")

	// Still for 1.5 s: a game going on ticks 15 times meanwhile.
	held, still := 0, false
	for tries := 0; tries < 20 && !still; tries++ {
		held = lastTick(a.printed())
		time.Sleep(1500 * time.Millisecond)
		still = lastTick(a.printed()) == held
	}
	if !still {
		t.Fatalf("⏸ did not hold the game: it ticked on to %d (screen: %s)", lastTick(a.printed()), savePNG(t, a.x.screenshot(t), "e2e-pause-ticks-on.png"))
	}
	// Up is the game's key; it does not reach a paused game. (Space would
	// press ▶ on the focused ⏸ button: that goes on, as a player's does.)
	a.x.xdo(t, "key", "Up")
	// The veil's ▶ 继续 button (the Run green, #21a05a).
	green := func(r, g, b uint8) bool { return r >= 25 && r <= 41 && g >= 150 && g <= 170 && b >= 80 && b <= 100 }
	img = a.x.screenshot(t)
	savePNG(t, img, "e2e-pause-800x600-zh.png")
	rx, ry, ok := centre(img, win, green)
	if !ok {
		t.Fatalf("no ▶ 继续 on the paused drawing (screen: %s)", savePNG(t, img, "e2e-pause-no-resume.png"))
	}
	a.x.xdo(t, "mousemove", itoa(rx), itoa(ry), "click", "1")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !waitFor(ctx, 100*time.Millisecond, func() bool { return lastTick(a.printed()) > held+2 }) {
		t.Fatalf("▶ 继续 did not go on: still at tick %d (screen: %s)", lastTick(a.printed()), savePNG(t, a.x.screenshot(t), "e2e-pause-no-resume.png"))
	}
	if p := a.printed(); strings.Contains(p, "key!") || !strings.Contains(p, fmt.Sprintf("tick %d\n", held+1)) {
		t.Fatalf("after the pause: Up reached the game, or a tick went missing: %q", p)
	}
	a.x.xdo(t, "key", "Escape")
	if res := a.waitRuns(t, 2, 15*time.Second); res["stopped"] != true {
		t.Fatalf("Esc did not stop the game: %v", res)
	}
}
