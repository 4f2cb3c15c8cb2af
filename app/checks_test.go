package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"kidcoder/backend/packs"
)

// sleepyPack is the example pack whose exercise has n output checks, each
// with a stdin of its own, so a run each.
func sleepyPack(t *testing.T, n int) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	if err := packs.New(src); err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(src, packs.ManifestName)
	b, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var checks []any
	for i := range n {
		checks = append(checks, map[string]any{"type": "output", "stdin": strconv.Itoa(i) + "\n", "expect": "done", "match": "contains",
			"message": map[string]any{"zh": "再试试。", "en": "Try again."}})
	}
	m["exercises"].([]any)[0].(map[string]any)["checks"] = checks
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sleepy.kidpack")
	if err := packs.BuildFile(src, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func progressOf(id string, run int) func(recorded) bool {
	return func(e recorded) bool {
		p, ok := e.data.(CheckProgressEvent)
		return ok && e.name == EventCheckProgress && p.RunID == id && p.Run == run
	}
}

// The window's Stop ends a check as it ends a run: the check's first run
// is going (its check:progress came) when Stop comes, and the check ends
// as stopped with the checks after it not run, and is no attempt.
func TestStopEndsACheckThroughTheSandbox(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	plan, err := a.ImportPack(sleepyPack(t, 4), "en")
	if err != nil {
		t.Fatal(err)
	}
	lesson := plan.Exercises[0].Lesson
	type answer struct {
		out *CheckOutcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := a.CheckLesson(CheckRequest{Path: lesson, Code: "import time\nprint('go', flush=True)\ntime.sleep(3600)\n", Lang: "en", RunID: "check-1"})
		done <- answer{out, err}
	}()
	ev := sh.waitFor(t, time.Minute, progressOf("check-1", 1)).data.(CheckProgressEvent)
	if ev.Runs != 4 || len(ev.Checks) != 1 {
		t.Errorf("progress %+v, want run 1 of 4", ev)
	}
	if err := a.Stop("check-1"); err != nil {
		t.Fatal(err)
	}
	var got answer
	select {
	case got = <-done:
	case <-time.After(2 * time.Minute): // no verdict: a stopped check ends at once
		t.Fatal("the check did not end on Stop")
	}
	if got.err != nil {
		t.Fatal(got.err)
	}
	rep := got.out.Report
	if rep.Ended != packs.EndedStopped || rep.Passed {
		t.Fatalf("the check ended %q (passed %v), want stopped: %+v", rep.Ended, rep.Passed, rep.Results)
	}
	if last := rep.Results[len(rep.Results)-1]; !last.NotRun {
		t.Errorf("the last check ran: %+v", last)
	}
	if got.out.Progress.Attempts != 0 {
		t.Errorf("a stopped check counted as an attempt: %+v", got.out.Progress)
	}
	if got.out.Run != nil {
		t.Errorf("a run Stop cut short is shown as the program's: %+v", got.out.Run)
	}
}

// A check's id is its own while it goes; Stop of another id leaves it be,
// and Shutdown ends every check.
func TestCheckRunsByID(t *testing.T) {
	var c checkRuns
	ctx, end, err := c.start("a")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.start("a"); !errors.Is(err, ErrRunIDInUse) {
		t.Errorf("a second check under the same id: %v", err)
	}
	anon, endAnon, err := c.start("")
	if err != nil {
		t.Fatal(err)
	}
	c.stop("b")
	c.stop("")
	if ctx.Err() != nil || anon.Err() != nil {
		t.Fatal("Stop of another id ended a check")
	}
	c.stop("a")
	if ctx.Err() == nil {
		t.Fatal("Stop did not end the check")
	}
	end()
	if _, end2, err := c.start("a"); err != nil {
		t.Errorf("the id of an ended check: %v", err)
	} else {
		end2()
	}
	c.close()
	if anon.Err() == nil {
		t.Error("Shutdown left a check going")
	}
	endAnon()
	if _, _, err := c.start("z"); err == nil {
		t.Error("a check started after Shutdown")
	}
}
