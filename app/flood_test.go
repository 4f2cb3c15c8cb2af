package app

import (
	"os"
	"strings"
	"testing"
	"time"
)

// A window run that floods forged input, input_done, listen and loop frames
// and ignores Stop: the window hears its state only as changes, a few
// times a second (before: one event per frame, 942,000 of each in 24 s),
// and Stop ends the run.
func TestForgedStateFloodInTheWindow(t *testing.T) {
	a, sh, st := readyApp(t, `{"timeoutSeconds": 60}`)
	requireReady(t, st)
	code, err := os.ReadFile("../backend/kidrun/testdata/attacks/state_flood.py")
	if err != nil {
		t.Fatal(err)
	}
	id := "run-flood"
	began := time.Now()
	if err := a.Run(RunRequest{RunID: id, Code: string(code), Name: "flood.py"}); err != nil {
		t.Fatal(err)
	}
	sh.waitOutput(t, 60*time.Second, id, "SENT")
	stopAt := time.Now()
	if err := a.Stop(id); err != nil {
		t.Fatal(err)
	}
	res := sh.waitFor(t, 30*time.Second, doneOf(id)).data.(DoneEvent).Result
	stopped, took := time.Since(stopAt), time.Since(began)
	if !res.Stopped || !strings.Contains(res.Stdout, "FRAME FDS 1") {
		t.Fatalf("the flood was not stopped: %s stopped=%v %q", res.Status, res.Stopped, res.Stdout)
	}
	count := map[string]int{}
	sh.mu.Lock()
	for _, e := range sh.events {
		switch d := e.data.(type) {
		case WaitingEvent:
			count[e.name] += ofRun(d.RunID, id)
		case RunEvent:
			count[e.name] += ofRun(d.RunID, id)
		case LiveEvent:
			count[e.name] += ofRun(d.RunID, id)
		}
	}
	sh.mu.Unlock()
	t.Logf("Stop to run:done %v; %d run:waiting, %d run:input-done, %d run:live in %v",
		stopped, count[EventRunWaiting], count[EventRunInputDone], count[EventRunLive], took)
	// At most one change of each per 250 ms, plus the first.
	bound := int(took/(250*time.Millisecond)) + 2
	for _, name := range []string{EventRunWaiting, EventRunInputDone, EventRunLive} {
		if count[name] > bound {
			t.Errorf("%d %s events in %v, want at most %d", count[name], name, took, bound)
		}
	}
}

// ofRun is 1 for an event of run id, else 0.
func ofRun(runID, id string) int {
	if runID == id {
		return 1
	}
	return 0
}
