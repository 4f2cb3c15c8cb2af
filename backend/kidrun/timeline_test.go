package kidrun

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Each scripted type becomes the control events it stands for, in the
// order they are due; without "close" the drawing closes a second after
// the last event.
func TestParseTimeline(t *testing.T) {
	text := "{\"at_ms\": 600, \"type\": \"click\", \"x\": 50, \"y\": 40.5, \"button\": 3}\n" +
		"\n" +
		`{"at_ms": 300, "type": "key", "key": "Up"}` + "\n" +
		`{"at_ms": 400, "type": "keydown", "key": "space"}` + "\n" +
		`{"at_ms": 400, "type": "keyup", "key": "space"}` + "\n" +
		`{"at_ms": 700, "type": "mousedown", "x": -1, "y": 2}` + "\n" +
		`{"at_ms": 710, "type": "mousemove", "x": -3, "y": 4, "button": 1}` + "\n" +
		`{"at_ms": 720, "type": "mouseup", "x": -3, "y": 4}` + "\n" +
		`{"at_ms": 800, "type": "answer", "text": "小明"}` + "\n" +
		`{"at_ms": 850.5, "type": "answer", "text": null}` + "\n"
	tl, err := ParseTimeline([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	name := "小明"
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	want := Timeline{
		{ms(300), Event{Type: "key", Key: "Up", Down: true}},
		{ms(300), Event{Type: "key", Key: "Up"}},
		{ms(400), Event{Type: "key", Key: "space", Down: true}},
		{ms(400), Event{Type: "key", Key: "space"}},
		{ms(600), Event{Type: "mouse", Action: "down", X: 50, Y: 40.5, Button: 3}},
		{ms(600), Event{Type: "mouse", Action: "up", X: 50, Y: 40.5, Button: 3}},
		{ms(700), Event{Type: "mouse", Action: "down", X: -1, Y: 2, Button: 1}},
		{ms(710), Event{Type: "mouse", Action: "move", X: -3, Y: 4, Button: 1}},
		{ms(720), Event{Type: "mouse", Action: "up", X: -3, Y: 4, Button: 1}},
		{ms(800), Event{Type: "answer", Text: &name}},
		{ms(850.5), Event{Type: "answer"}},
		{ms(1850.5), Event{Type: "close"}},
	}
	if !reflect.DeepEqual(tl, want) {
		t.Fatalf("timeline\n got %+v\nwant %+v", tl, want)
	}
	// An explicit close is kept where it is, and nothing is added after it.
	tl, err = ParseTimeline([]byte(`{"at_ms": 50, "type": "close"}` + "\n" + `{"at_ms": 20, "type": "key", "key": "a"}`))
	if err != nil || len(tl) != 3 || tl[2] != (Timed{50 * time.Millisecond, Event{Type: "close"}}) {
		t.Fatalf("explicit close: %+v %v", tl, err)
	}
	// An empty file closes the drawing after a second.
	if tl, err = ParseTimeline(nil); err != nil || !reflect.DeepEqual(tl, Timeline{{time.Second, Event{Type: "close"}}}) {
		t.Fatalf("empty file: %+v %v", tl, err)
	}
}

// A bad line is refused with its number and what is wrong with it.
func TestParseTimelineRefuses(t *testing.T) {
	ok := `{"at_ms": 1, "type": "key", "key": "Up"}` + "\n"
	for _, tt := range []struct {
		line, why string
	}{
		{`{"at_ms": 1, "type": "key", "key": "Up"`, "JSON"},
		{`[1, 2]`, "JSON"},
		{`{"at_ms": 1, "type": "key", "key": "Up", "shift": true}`, "known fields"},
		{`{"at_ms": 1, "type": "key", "key": "Up"} {"at_ms": 2}`, "more than one"},
		{`{"type": "key", "key": "Up"}`, "at_ms"},
		{`{"at_ms": -5, "type": "key", "key": "Up"}`, "at_ms"},
		{`{"at_ms": 1e12, "type": "key", "key": "Up"}`, "at_ms"},
		{`{"at_ms": "soon", "type": "key", "key": "Up"}`, "JSON"},
		{`{"at_ms": 1, "type": "key", "key": "Up Arrow"}`, "a key is"},
		{`{"at_ms": 1, "type": "key"}`, "a key is"},
		{`{"at_ms": 1, "type": "key", "key": "` + strings.Repeat("a", 33) + `"}`, "a key is"},
		{`{"at_ms": 1, "type": "click", "x": 1}`, "needs x and y"},
		{`{"at_ms": 1, "type": "click", "x": 1, "y": 1e10}`, "coordinates"},
		{`{"at_ms": 1, "type": "click", "x": 1, "y": 1, "button": 4}`, "button"},
		{`{"at_ms": 1, "type": "answer", "text": "` + strings.Repeat("字", 2001) + `"}`, "answer"},
		{`{"at_ms": 1, "type": "scroll"}`, "the type is"},
		{`{"at_ms": 1, "type": "key", "key": "Up", "x": 3}`, "does not take"},
		{`{"at_ms": 1, "type": "click", "x": 1, "y": 1, "key": "a"}`, "does not take"},
		{`{"at_ms": 1, "type": "close", "text": "bye"}`, "does not take"},
		{`{"at_ms": 1, "type": "answer", "text": "hi", "button": 1}`, "does not take"},
	} {
		_, err := ParseTimeline([]byte(ok + ok + tt.line + "\n" + ok))
		if !errors.Is(err, ErrBadTimeline) || !strings.Contains(err.Error(), "line 3:") || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("%s: %v, want line 3 and %q", tt.line, err, tt.why)
		}
	}
	many := strings.Repeat(ok, MaxTimelineEvents+1)
	if _, err := ParseTimeline([]byte(many)); !errors.Is(err, ErrBadTimeline) || !strings.Contains(err.Error(), "10000 events") {
		t.Errorf("%d events: %v", MaxTimelineEvents+1, err)
	}
	if _, err := ParseTimeline([]byte(strings.Repeat(ok, MaxTimelineEvents))); err != nil {
		t.Errorf("%d events: %v", MaxTimelineEvents, err)
	}
	if _, err := ParseTimeline(make([]byte, MaxTimelineBytes+1)); !errors.Is(err, ErrBadTimeline) {
		t.Errorf("an oversize file: %v", err)
	}
}

// A timeline played into a live turtle game reaches its handlers in order,
// and the drawing closing ends mainloop, so the code after done() runs.
// Under tracer(0) the handlers reach no event point, so each ends before
// the next event is taken however slowly it runs: animated, a key due
// while a handler still moves the turtle would be taken inside it, as
// with Tk, and on a busy machine it is.
func TestPlayTimelineIntoGame(t *testing.T) {
	e := testEngine(t)
	code := `import turtle
turtle.tracer(0)
t = turtle.Turtle()
def up():
    t.forward(10)
    print("UP", t.position())
def left():
    t.left(90)
    print("LEFT", t.heading())
def clicked(x, y):
    print("CLICK", x, y)
turtle.listen()
turtle.onkey(up, "Up")
turtle.onkeypress(left, "Left")
turtle.onscreenclick(clicked)
turtle.done()
print("AFTER DONE")
`
	tl, err := ParseTimeline([]byte(`{"at_ms": 200, "type": "key", "key": "Up"}
{"at_ms": 300, "type": "keydown", "key": "Left"}
{"at_ms": 350, "type": "keyup", "key": "Left"}
{"at_ms": 900, "type": "key", "key": "Up"}
{"at_ms": 1000, "type": "click", "x": 50, "y": -40, "button": 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "game.py", Stdin: []byte{}, Timeline: tl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	want := "UP (10.00,0.00)\nLEFT 90.0\nUP (10.00,10.00)\nCLICK 50.0 -40.0\nAFTER DONE\n"
	if res.Status != "ok" || res.Stdout != want {
		t.Fatalf("played: %s %q %q", res.Status, res.Stdout, res.Stderr)
	}
}

// A scripted run ends when its program does, however far its timeline
// goes, and Stop ends it while it waits for its timeline's next event.
func TestScriptedRunEndsWithItsProgram(t *testing.T) {
	e := testEngine(t)
	tl := Timeline{{time.Hour, Event{Type: "close"}}}
	r, err := e.Start(context.Background(), Request{Code: []byte("print('bye')\n"), Name: "p.py", Stdin: []byte{}, Timeline: tl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Wait(); res.Status != "ok" || res.Stdout != "bye\n" {
		t.Fatalf("%s %q %q", res.Status, res.Stdout, res.Stderr)
	}
	// Its timeline's answer waits for a dialog that never comes.
	tl = Timeline{{0, Event{Type: "answer", Text: new(string)}}, {time.Second, Event{Type: "close"}}}
	code := "import turtle\nturtle.onkey(print, 'a')\nturtle.listen()\nprint('waiting', flush=True)\nturtle.done()\n"
	obs := newEvents()
	r, err = e.Start(context.Background(), Request{Code: []byte(code), Name: "p.py", Stdin: []byte{}, Timeline: tl}, obs)
	if err != nil {
		t.Fatal(err)
	}
	for printed := ""; !strings.Contains(printed, "waiting\n"); time.Sleep(10 * time.Millisecond) {
		obs.mu.Lock()
		printed = obs.out.String()
		obs.mu.Unlock()
		select {
		case <-r.done:
			t.Fatalf("the run ended before its Stop: %+v", r.Wait())
		default:
		}
	}
	r.Stop()
	if res := r.Wait(); !res.Stopped {
		t.Fatalf("stopped while it waited: %s %q %q", res.Status, res.Stdout, res.Stderr)
	}
}

// TestKeysWaitForListen: a game that is slow to reach listen() still gets
// the timeline's keys, in order, however late it gets there.
func TestKeysWaitForListen(t *testing.T) {
	e := testEngine(t)
	code := `import time, turtle
time.sleep(1.5)
def up():
    print("UP")
def clicked(x, y):
    print("CLICK", x, y)
turtle.onscreenclick(clicked)
turtle.onkey(up, "Up")
turtle.listen()
turtle.done()
`
	tl, err := ParseTimeline([]byte(`{"at_ms": 100, "type": "key", "key": "Up"}
{"at_ms": 200, "type": "click", "x": 5, "y": 6}
{"at_ms": 300, "type": "key", "key": "Up"}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "slow.py", Stdin: []byte{}, Timeline: tl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Wait(); res.Stdout != "UP\nCLICK 5.0 6.0\nUP\n" {
		t.Fatalf("%s %q %q", res.Status, res.Stdout, res.Stderr)
	}
}

// TestTimelineWaitsForTheProgram: every scripted event waits until the
// program can take it (answers for their dialogs, a drag and clicks for
// their handlers, the close for the game), so a program slow to get there
// plays the timeline's game, every event in order. Before each point
// where it can take them the program computes (no event is taken
// meanwhile) and then waits (an early event would be taken there and go
// to no one, an early close would end the program): the events are due
// long before, on any machine. Its handlers are set together, right
// before done(), as a game sets them.
func TestTimelineWaitsForTheProgram(t *testing.T) {
	e := testEngine(t)
	code := `import time, turtle
def slow(s):
    end = time.monotonic() + s
    while time.monotonic() < end:
        pass
    time.sleep(0.3)
slow(1)
print("NAME", turtle.textinput("Hi", "Name?"))
print("N", turtle.numinput("N", "Number?", minval=1, maxval=9))
t = turtle.Turtle(shape="square")
slow(0.5)
turtle.onscreenclick(lambda x, y: print("CLICK", x, y))
t.ondrag(lambda x, y: print("DRAG", x, y))
t.onrelease(lambda x, y: print("RELEASE", x, y))
turtle.done()
print("CLOSED")
`
	tl, err := ParseTimeline([]byte(`{"at_ms": 100, "type": "answer", "text": "小明"}
{"at_ms": 150, "type": "answer", "text": "abc"}
{"at_ms": 200, "type": "answer", "text": "7"}
{"at_ms": 300, "type": "mousedown", "x": 0, "y": 0}
{"at_ms": 350, "type": "mousemove", "x": 10, "y": 5}
{"at_ms": 400, "type": "mouseup", "x": 10, "y": 5}
{"at_ms": 500, "type": "click", "x": 50, "y": 40}
{"at_ms": 600, "type": "click", "x": -50, "y": 60, "button": 1}
{"at_ms": 700, "type": "close"}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "slow.py", Stdin: []byte{}, Timeline: tl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	want := "NAME 小明\nN 7.0\nCLICK 0.0 -0.0\nDRAG 10.0 5.0\nRELEASE 10.0 5.0\nCLICK 50.0 40.0\nCLICK -50.0 60.0\nCLOSED\n"
	if res.Status != "ok" || res.Stdout != want {
		t.Fatalf("played: %s %q %q", res.Status, res.Stdout, res.Stderr)
	}
}

// TestKeysWithoutListenGoToNoOne: a program that waits in mainloop()
// without listen() gets no keys, as with Tk, and the timeline goes on to
// its close instead of waiting for a listen() that never comes (until the
// 5-minute quiet limit).
func TestKeysWithoutListenGoToNoOne(t *testing.T) {
	e := testEngine(t)
	code := `import turtle
def up():
    print("UP")
turtle.onkey(up, "Up")
turtle.done()
print("CLOSED")
`
	tl, err := ParseTimeline([]byte(`{"at_ms": 100, "type": "key", "key": "Up"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "deaf.py", Stdin: []byte{}, Timeline: tl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Wait(); res.Status != "ok" || res.Limit != "" || res.Stdout != "CLOSED\n" {
		t.Fatalf("%s (limit %q) %q %q", res.Status, res.Limit, res.Stdout, res.Stderr)
	}
}
