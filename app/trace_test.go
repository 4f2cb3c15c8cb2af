package app

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// The window asks for a step-by-step run with trace: true and its run:done
// carries the recording: a live run on the warm sandbox, with an answer
// typed during it and a drawing, both in step; a run without it carries none.
func TestRunTraceForTheWindow(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	code := "import turtle\nname = input('name? ')\nt = turtle.Turtle()\nfor k in range(2):\n    t.forward(10)\nprint('hi', name)\n"
	id := "run-trace"
	if err := a.Run(RunRequest{RunID: id, Code: code, Name: "steps.py", Lang: "en", Trace: true}); err != nil {
		t.Fatal(err)
	}
	sh.waitFor(t, 20*time.Second, func(e recorded) bool { return e.name == EventRunWaiting })
	if err := a.SendInput(id, "小明"); err != nil {
		t.Fatal(err)
	}
	res := sh.waitFor(t, 20*time.Second, doneOf(id)).data.(DoneEvent).Result
	if res.Status != "ok" || res.Stdout != "name? hi 小明\n" || res.Trace == nil || res.Trace.Truncated {
		t.Fatalf("%s %q %+v", res.Status, res.Stdout, res.Trace)
	}
	var lines []int
	for _, s := range res.Trace.Steps {
		lines = append(lines, s.Line)
	}
	if fmt.Sprint(lines) != "[1 2 3 4 5 4 5 4 6]" {
		t.Fatalf("lines %v", lines)
	}
	last := res.Trace.Steps[len(res.Trace.Steps)-1]
	var vars map[string]string
	if err := json.Unmarshal(last.Vars, &vars); err != nil || vars["name"] != "'小明'" || vars["t"] != "<Turtle object>" {
		t.Errorf("the last step's names: %s", last.Vars)
	}
	if last.Out != len([]rune("name? ")) || last.Draw < 2 || res.Trace.Steps[4].Draw >= last.Draw {
		t.Errorf("out %d, draw %d (step 4: %d)", last.Out, last.Draw, res.Trace.Steps[4].Draw)
	}

	id = "run-plain"
	if err := a.Run(RunRequest{RunID: id, Code: "print(1)\n", Name: "plain.py", Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	if res := sh.waitFor(t, 20*time.Second, doneOf(id)).data.(DoneEvent).Result; res.Trace != nil {
		t.Errorf("a run without trace: %+v", res.Trace)
	}
}
