//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bad events file stops `run` before anything runs, naming the file and
// the line; a link is refused, never followed.
func TestRunEventsRefusesBadFile(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "game.py")
	must(t, os.WriteFile(prog, []byte("print('ran')\n"), 0o644))
	bad := filepath.Join(dir, "bad.jsonl")
	must(t, os.WriteFile(bad, []byte(`{"at_ms": 10, "type": "key", "key": "Up"}`+"\n"+`{"at_ms": 20, "type": "key", "key": "Up Arrow"}`+"\n"), 0o644))
	code, stdout, stderr := runCLI(t, "run", "--events", bad, prog)
	if code != ExitUsage || stdout != "" || !strings.Contains(stderr, "bad.jsonl") || !strings.Contains(stderr, "line 2") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	link := filepath.Join(dir, "link.jsonl")
	must(t, os.Symlink(bad, link))
	if code, _, stderr := runCLI(t, "run", "--events", link, prog); code != ExitUsage || !strings.Contains(stderr, "symbolic link") {
		t.Fatalf("a link: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "run", "--events", filepath.Join(dir, "none.jsonl"), prog); code != ExitUsage || !strings.Contains(stderr, "none.jsonl") {
		t.Fatalf("a missing file: exit %d, %q", code, stderr)
	}
}

// kidcoder run --events, for real: a turtle game gets its keys and clicks,
// the drawing closes after the last event, the code after done()
// runs, and --json stays the contract's one object. Under tracer(0) its
// handlers reach no event point, so each ends before the next event is
// taken, however slowly it runs (animated, an event due meanwhile would
// be taken inside it, as with Tk).
func TestRunEventsPlaysGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program in the sandbox")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	prog := filepath.Join(dir, "game.py")
	must(t, os.WriteFile(prog, []byte(`import turtle
turtle.tracer(0)
t = turtle.Turtle()
def up():
    t.forward(10)
    print("UP", t.position())
def clicked(x, y):
    print("CLICK", x, y)
turtle.listen()
turtle.onkey(up, "Up")
turtle.onscreenclick(clicked)
turtle.done()
print("AFTER DONE")
`), 0o644))
	events := filepath.Join(dir, "events.jsonl")
	must(t, os.WriteFile(events, []byte(`{"at_ms": 200, "type": "key", "key": "Up"}
{"at_ms": 500, "type": "key", "key": "Up"}
{"at_ms": 800, "type": "click", "x": 50, "y": 40, "button": 1}
`), 0o644))
	code, stdout, stderr := runCLI(t, "run", "--json", "--timeout", roomyTimeout, "--events", events, prog)
	if code == ExitUnavailable {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("sandbox required but unavailable: %s%s", stderr, stdout)
		}
		t.Skipf("sandbox unavailable: %s", stderr)
	}
	var res struct {
		Status string `json:"status"`
		Stdout string `json:"stdout"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("not one JSON object: %v\n%s", err, stdout)
	}
	want := "UP (10.00,0.00)\nUP (20.00,0.00)\nCLICK 50.0 40.0\nAFTER DONE\n"
	if code != 0 || res.Status != "ok" || res.Stdout != want {
		t.Fatalf("exit %d: %+v\n%s", code, res, stderr)
	}
	// The close comes a second after the last event, on the program's own
	// clock (docs/contracts.md §3): "AFTER DONE" after the click shows it
	// came after every event; how long that took is the machine's speed.
	// Without --events the same program does not wait: done() returns at once.
	code, stdout, _ = runCLI(t, "run", "--json", prog)
	if code != 0 || !strings.Contains(stdout, `AFTER DONE`) || strings.Contains(stdout, "UP") {
		t.Fatalf("without --events: exit %d: %s", code, stdout)
	}
}

// A click game slow to bind its handler (it computes, so it takes no event,
// then waits, where an early click would go to no one and an early close
// would end it) still gets every click of the timeline, in order, and the
// close: the clicks wait for onscreenclick and the close comes after them.
// The events are due (0.3, 0.5 and 0.8 s) long before the handler is set
// (after 1.5 s of the program's own clock), on any machine.
func TestRunEventsWaitsForTheClickHandler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program in the sandbox")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	prog := filepath.Join(dir, "clicks.py")
	must(t, os.WriteFile(prog, []byte(`import time, turtle
s = turtle.Screen()
end = time.monotonic() + 1
while time.monotonic() < end:
    pass
time.sleep(0.5)
def clicked(x, y):
    print("CLICK", x, y)
s.onscreenclick(clicked)
turtle.done()
print("CLOSED")
`), 0o644))
	events := filepath.Join(dir, "events.jsonl")
	must(t, os.WriteFile(events, []byte(`{"at_ms": 300, "type": "click", "x": 10, "y": 20}
{"at_ms": 500, "type": "click", "x": -30, "y": 40}
{"at_ms": 800, "type": "close"}
`), 0o644))
	code, stdout, stderr := runCLI(t, "run", "--json", "--timeout", roomyTimeout, "--events", events, prog)
	if code == ExitUnavailable {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("sandbox required but unavailable: %s%s", stderr, stdout)
		}
		t.Skipf("sandbox unavailable: %s", stderr)
	}
	var res struct {
		Status string `json:"status"`
		Stdout string `json:"stdout"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if want := "CLICK 10.0 20.0\nCLICK -30.0 40.0\nCLOSED\n"; code != 0 || res.Status != "ok" || res.Stdout != want {
		t.Fatalf("exit %d: %+v, want stdout %q\n%s", code, res, want, stderr)
	}
}
