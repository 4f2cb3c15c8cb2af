package kidrun

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Send refuses what is not a well-formed event before anything reaches the
// program, and a run that was not started live takes no events at all.
func TestSendRefusesBadEvents(t *testing.T) {
	long := strings.Repeat("字", maxAnswerRune+1)
	bad := "\xff\xfe"
	for name, ev := range map[string]Event{
		"no type":            {},
		"unknown type":       {Type: "scroll"},
		"empty key":          {Type: "key"},
		"key with a space":   {Type: "key", Key: "Up Arrow"},
		"key with a newline": {Type: "key", Key: "a\n{\"type\":\"close\"}"},
		"non-ASCII key":      {Type: "key", Key: "é"},
		"33-letter key":      {Type: "key", Key: strings.Repeat("a", 33)},
		"mouse action":       {Type: "mouse", Action: "wheel", Button: 1},
		"button 0":           {Type: "mouse", Action: "down"},
		"button 4":           {Type: "mouse", Action: "down", Button: 4},
		"NaN x":              {Type: "mouse", Action: "down", Button: 1, X: math.NaN()},
		"infinite y":         {Type: "mouse", Action: "move", Button: 1, Y: math.Inf(-1)},
		"huge x":             {Type: "mouse", Action: "up", Button: 1, X: 2e9},
		"huge answer":        {Type: "answer", Text: &long},
		"invalid UTF-8":      {Type: "answer", Text: &bad},
		"pace without speed": {Type: "pace"},
		"pace too slow":      {Type: "pace", Speed: 0.01},
		"pace too fast":      {Type: "pace", Speed: 1000},
		"NaN pace":           {Type: "pace", Speed: math.NaN()},
	} {
		if err := (&Run{live: true}).Send(ev); !errors.Is(err, ErrBadEvent) {
			t.Errorf("%s: %v, want ErrBadEvent", name, err)
		}
	}
	if err := (&Run{}).Send(Event{Type: "close"}); !errors.Is(err, ErrNotLive) {
		t.Errorf("a normal run: %v, want ErrNotLive", err)
	}
}

// A well-formed event becomes one line holding only its type's fields.
func TestEventLines(t *testing.T) {
	name := "小明\n"
	for _, tt := range []struct {
		ev   Event
		want string
	}{
		{Event{Type: "key", Key: "Up", Down: true, X: 5, Text: &name}, `{"type":"key","key":"Up","down":true}`},
		{Event{Type: "key", Key: "space"}, `{"type":"key","key":"space","down":false}`},
		{Event{Type: "mouse", Action: "down", X: 12.5, Y: -40, Button: 1, Key: "a"}, `{"type":"mouse","action":"down","x":12.5,"y":-40,"button":1}`},
		{Event{Type: "close", Key: "a"}, `{"type":"close"}`},
		{Event{Type: "answer", Text: &name}, `{"type":"answer","text":"小明\n"}`},
		{Event{Type: "answer"}, `{"type":"answer","text":null}`},
		{Event{Type: "pace", Speed: 2, Key: "a"}, `{"type":"pace","speed":2}`},
		{Event{Type: "pace", Speed: 0.25}, `{"type":"pace","speed":0.25}`},
		{Event{Type: "finish", Speed: 3}, `{"type":"finish"}`},
		{Event{Type: "pause", Key: "a", Speed: 2}, `{"type":"pause"}`},
		{Event{Type: "resume", X: 1}, `{"type":"resume"}`},
	} {
		got, err := tt.ev.line()
		if err != nil || string(got) != tt.want || strings.Contains(string(got), "\n") {
			t.Errorf("%+v: %s %v, want %s", tt.ev, got, err, tt.want)
		}
	}
}

// liveFrames is a LiveObserver that keeps the live frames it hears.
type liveFrames struct {
	nopObserver
	frames []json.RawMessage
	bytes  int
}

func (l *liveFrames) Live(f json.RawMessage) { l.frames = append(l.frames, f); l.bytes += len(f) }

// frameOf is a frame of the given type padded to n bytes.
func frameOf(typ string, n int) []byte {
	head := `{"type":"` + typ + `","pad":"`
	return []byte(head + strings.Repeat("x", n-len(head)-2) + `"}`)
}

// drawOf is a draw frame of one step at position from, padded to n bytes.
func drawOf(from, n int) []byte {
	head := `{"type":"draw","from":` + strconv.Itoa(from) + `,"steps":[{"k":"move","pad":"`
	return []byte(head + strings.Repeat("x", n-len(head)-4) + `"}]}`)
}

// The collector passes live frames on within bounds: a frame over 1 MiB is
// dropped, draw frames stop at 48 MiB per run while other live frames
// still pass, and an observer that is not live hears none.
func TestCollectorLiveFrameBounds(t *testing.T) {
	obs := &liveFrames{}
	c := newCollector(obs)
	c.Frame(frameOf("screen", 100))
	c.Frame(drawOf(0, maxLiveFrame+1))
	c.Frame(frameOf("listen", maxLiveFrame+1))
	for i := range 2 * maxLiveDraw / maxLiveFrame {
		c.Frame(drawOf(i, maxLiveFrame))
	}
	for _, typ := range []string{"dialog", "bye"} {
		c.Frame(frameOf(typ, 200))
	}
	// Not JSON, an unknown type: nothing passes.
	c.Frame([]byte(`{"type":"draw"`))
	c.Frame(frameOf("explode", 100))
	c.flush()
	n := len(obs.frames)
	if n < 3 || string(obs.frames[0]) != string(frameOf("screen", 100)) {
		t.Fatalf("%d frames, the first %.40q", n, obs.frames[0])
	}
	draws, bytes := n-3, obs.bytes-100-400
	if draws != maxLiveDraw/maxLiveFrame || bytes > maxLiveDraw {
		t.Fatalf("%d draw frames (%d bytes) passed, want %d", draws, bytes, maxLiveDraw/maxLiveFrame)
	}
	if !strings.Contains(string(obs.frames[n-2]), `"dialog"`) || !strings.Contains(string(obs.frames[n-1]), `"bye"`) {
		t.Fatalf("the frames after the draw budget: %.40q, %.40q", obs.frames[n-2], obs.frames[n-1])
	}
	plain := &events{waiting: make(chan string, 1)}
	newCollector(plain).Frame(frameOf("screen", 100))
	if plain.out.Len() != 0 || len(plain.order) != 0 {
		t.Fatalf("a plain observer heard a live frame")
	}
}

// A live run's frames reach a LiveObserver as the runner wrote them.
func TestLiveFramesReachTheObserver(t *testing.T) {
	e := testEngine(t)
	obs := &liveFrames{}
	code := "import turtle\nturtle.forward(50)\nturtle.listen()\n"
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "f.py", Stdin: []byte{}, Live: true}, obs)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Wait(); res.Status != "ok" {
		t.Fatalf("%s %q", res.Status, res.Stderr)
	}
	types := map[string]bool{}
	for _, f := range obs.frames {
		var v struct{ Type string }
		if json.Unmarshal(f, &v) != nil {
			t.Fatalf("frame is not JSON: %.100s", f)
		}
		types[v.Type] = true
	}
	if !types["screen"] || !types["draw"] || !types["listen"] {
		t.Errorf("live frame types %v, want screen, draw and listen", types)
	}
}

// A live game's clocks go by what the host sees of the real runner: a
// timer game the child keeps playing outlasts its wall clock many times
// over, and a game left waiting without input is put away as "quiet",
// not stopped by the wall clock before that. The game does a step of
// work twice a second and waits in between, so however slowly a busy
// machine does each step, the host sees it wait between them: the rule,
// not the machine's speed, decides (with a step every 0.1 s a starved
// run looked busy for 1.5 s at load 10).
func TestLiveGameClocks(t *testing.T) {
	pol := testEngine(t).Policy()
	pol.WallTime, pol.CPUTime, pol.IdleTime = 1500*time.Millisecond, 1500*time.Millisecond, time.Minute
	timerGame := `import turtle
t = turtle.Turtle()
t.speed(0)
turns = 0
def move():
    t.forward(5)
    turtle.ontimer(move, 500)
def turn():
    global turns
    turns += 1
    print("TURN", turns, flush=True)
    t.left(90)
turtle.listen()
turtle.onkey(turn, "Left")
print("LISTENING", flush=True)
move()
turtle.done()
`
	// The window's way, not a timeline's (which plays on the program's own
	// clock): a key every 0.5 s for 5 s once the game listens, then the close.
	obs := newEvents()
	r := startBounded(t, pol, Request{Code: []byte(timerGame), Name: "snake.py", Stdin: []byte{}, Live: true}, obs)
	go func() {
		for printed := ""; !strings.Contains(printed, "LISTENING\n"); time.Sleep(10 * time.Millisecond) {
			obs.mu.Lock()
			printed = obs.out.String()
			obs.mu.Unlock()
		}
		for range 10 {
			time.Sleep(500 * time.Millisecond)
			r.Send(Event{Type: "key", Key: "Left", Down: true})
			r.Send(Event{Type: "key", Key: "Left"})
		}
		time.Sleep(500 * time.Millisecond)
		r.Send(Event{Type: "close"})
	}()
	// Closing may land inside move(), whose next turtle call then ends the
	// program quietly, as with CPython's Terminator.
	if res := r.Wait(); res.Status != "ok" || !strings.HasSuffix(res.Stdout, "TURN 10\n") {
		t.Fatalf("a played timer game: %s limit=%q after %d ms: %q %q", res.Status, res.Limit, res.DurationMS, res.Stdout, res.Stderr)
	}

	pol.IdleTime = 4 * time.Second
	r = startBounded(t, pol, Request{Code: []byte("import turtle\nturtle.listen()\nturtle.onkey(lambda: None, 'Up')\nturtle.done()\n"), Name: "wait.py", Stdin: []byte{}, Live: true, Lang: "en"}, nil)
	res := r.Wait()
	if res.Status != "timeout" || res.Limit != "quiet" || res.DurationMS < 4000 || !strings.Contains(res.Message, "no keys or clicks") {
		t.Fatalf("a game left alone: %s limit=%q after %d ms: %q", res.Status, res.Limit, res.DurationMS, res.Message)
	}
}

// A number dialog's frame carries "error": false, a field the result frame
// also has with another type: the dialog must still reach the window.
func TestNumberDialogFrameReachesTheObserver(t *testing.T) {
	obs := &liveFrames{}
	c := newCollector(obs)
	c.Frame([]byte(`{"type":"dialog","kind":"number","title":"数字","prompt":"几条边？","default":5,"min":3,"max":12,"error":false}`))
	c.Frame([]byte(`{"type":"dialog","kind":"number","title":"n","prompt":"again","default":null,"min":null,"max":null,"error":true}`))
	c.flush()
	if len(obs.frames) != 2 {
		t.Fatalf("%d of 2 number dialog frames reached the observer", len(obs.frames))
	}
}
