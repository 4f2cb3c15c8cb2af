package app

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kidcoder/backend/kidrun"
)

// The window's runs are live: a game's frames reach the window as run:live
// events, SendEvent gives it keys and the drawing closing, and a malformed
// event or a run that is over is refused without touching the run.
func TestSendEventPlaysTheGame(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	id := "run-game"
	code := "import turtle\nt = turtle.Turtle()\ndef up():\n    t.forward(10)\n    print('UP', t.position(), flush=True)\nturtle.listen()\nturtle.onkey(up, 'Up')\nturtle.done()\nprint('AFTER DONE')\n"
	if err := a.Run(RunRequest{RunID: id, Code: code, Name: "game.py", Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	sh.waitFor(t, 20*time.Second, func(e recorded) bool {
		l, ok := e.data.(LiveEvent)
		return e.name == EventRunLive && ok && l.RunID == id && strings.Contains(string(l.Frame), `"listen"`)
	})
	for _, down := range []bool{true, false} {
		if err := a.SendEvent(id, kidrun.Event{Type: "key", Key: "Up", Down: down}); err != nil {
			t.Fatal(err)
		}
	}
	sh.waitOutput(t, 10*time.Second, id, "UP (10.00,0.00)")
	if err := a.SendEvent(id, kidrun.Event{Type: "key", Key: "Up\n"}); !errors.Is(err, kidrun.ErrBadEvent) {
		t.Errorf("a malformed key: %v", err)
	}
	if err := a.SendEvent("run-other", kidrun.Event{Type: "close"}); err == nil {
		t.Error("an event for a run that is not going on was accepted")
	}
	if err := a.SendEvent(id, kidrun.Event{Type: "close"}); err != nil {
		t.Fatal(err)
	}
	res := sh.waitFor(t, 10*time.Second, doneOf(id)).data.(DoneEvent).Result
	if res.Status != "ok" || res.Stopped || !strings.HasSuffix(res.Stdout, "AFTER DONE\n") {
		t.Fatalf("after close: %s stopped=%v %q %q", res.Status, res.Stopped, res.Stdout, res.Stderr)
	}
	if err := a.SendEvent(id, kidrun.Event{Type: "close"}); err == nil {
		t.Error("an event for a finished run was accepted")
	}
}
