package packs

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
)

// blockingRunner is a program that never ends by itself: each run waits
// until its context ends, as a run the sandbox cancels does, and reports
// each start on started.
type blockingRunner struct {
	mu      sync.Mutex
	runs    int
	started chan int
}

func (b *blockingRunner) Run(ctx context.Context, req RunRequest) (*RunResult, error) {
	b.mu.Lock()
	b.runs++
	n := b.runs
	b.mu.Unlock()
	if b.started != nil {
		b.started <- n
	}
	<-ctx.Done()
	return &RunResult{Status: "killed", Result: &kidrun.Result{Status: "killed", Stopped: true}}, nil
}

func (b *blockingRunner) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runs
}

// sleepyExercise has n output checks, each with a stdin of its own (a
// run each), and a source check (one more run).
func sleepyExercise(n int) *Exercise {
	ex := &Exercise{ID: "sleepy"}
	msg := text.Text{Zh: "再试试", En: "try again"}
	for i := range n {
		ex.Checks = append(ex.Checks, Check{Type: CheckOutput, Stdin: strconv.Itoa(i) + "\n", Expect: "x", Message: msg})
	}
	ex.Checks = append(ex.Checks, Check{Type: CheckSource, Rule: SourceForLoop, Message: msg})
	return ex
}

// checkInBackground runs c: a check that never ends fails the test
// after a minute instead of hanging it (the minute is no verdict: a check
// within its budget ends in a fraction of it).
func checkInBackground(t *testing.T, ctx context.Context, c Checker, ex *Exercise) *Report {
	t.Helper()
	type out struct {
		rep *Report
		err error
	}
	done := make(chan out, 1)
	go func() {
		rep, err := c.Exercise(ctx, mapFiles{}, ex, []byte("import time\ntime.sleep(10**6)\n"))
		done <- out{rep, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		return o.rep
	case <-time.After(time.Minute):
		t.Fatal("the check never ended")
		return nil
	}
}

// Fifty checks whose program sleeps forever: the check ends when its one
// budget is spent, with the run going, and no other run starts; every check
// is reported as not run, the note names them all.
func TestChecksEndWithTheirBudget(t *testing.T) {
	r := &blockingRunner{}
	ex := sleepyExercise(MaxChecks - 1)
	rep := checkInBackground(t, context.Background(), Checker{Runner: r, Lang: "en", Budget: 200 * time.Millisecond}, ex)
	if n := r.count(); n != 1 {
		t.Errorf("%d runs started, want the one the budget cut", n)
	}
	if rep.Ended != EndedOutOfTime || rep.Passed {
		t.Fatalf("ended %q, passed %v: want out of time", rep.Ended, rep.Passed)
	}
	if got := len(rep.NotRun()); got != len(ex.Checks) {
		t.Errorf("%d checks not run, want %d", got, len(ex.Checks))
	}
	for _, c := range rep.Results {
		if c.OK || !c.NotRun || c.Message != "" || c.Detail != "⏱️ Out of time: not checked." {
			t.Errorf("check %d: %+v", c.Index, c)
		}
	}
	var nums []string
	for i := range ex.Checks {
		nums = append(nums, strconv.Itoa(i+1))
	}
	want := "⏱️ Out of time: all the checks together get 0.2 s, so these were not checked: " + strings.Join(nums, ", ") + "."
	if rep.Note != want {
		t.Errorf("note %q\nwant %q", rep.Note, want)
	}
	if rep.BudgetSeconds != 0.2 {
		t.Errorf("budget %v s", rep.BudgetSeconds)
	}
}

// The budget is the exercise's: runs that end by themselves are judged,
// and only the checks of the run it cut and of runs never made are not run.
func TestBudgetNamesOnlyTheUnrunChecks(t *testing.T) {
	ex := sleepyExercise(4)
	var mu sync.Mutex
	runs := 0
	r := runnerFunc(func(ctx context.Context, req RunRequest) (*RunResult, error) {
		mu.Lock()
		runs++
		n := runs
		mu.Unlock()
		if n <= 2 {
			return &RunResult{Status: "ok", Stdout: "x\n"}, nil
		}
		<-ctx.Done()
		return &RunResult{Status: "killed"}, nil
	})
	rep := checkInBackground(t, context.Background(), Checker{Runner: r, Lang: "zh", Budget: 200 * time.Millisecond}, ex)
	if rep.Ended != EndedOutOfTime || runs != 3 {
		t.Fatalf("ended %q after %d runs", rep.Ended, runs)
	}
	for i, c := range rep.Results {
		if want := i >= 2; c.NotRun != want || c.OK == want {
			t.Errorf("check %d: %+v", i, c)
		}
	}
	if want := "⏱️ 时间用完了：所有检查加起来只有 0.2 秒，这几项没有检查：第 3、4、5 项。"; rep.Note != want {
		t.Errorf("note %q, want %q", rep.Note, want)
	}
}

type runnerFunc func(ctx context.Context, req RunRequest) (*RunResult, error)

func (f runnerFunc) Run(ctx context.Context, req RunRequest) (*RunResult, error) { return f(ctx, req) }

// Stop while a check's run is going: that run ends, none other starts, and
// the report says the checks were stopped, not that they failed.
func TestStopEndsACheck(t *testing.T) {
	r := &blockingRunner{started: make(chan int, 100)}
	ex := sleepyExercise(5)
	ctx, stop := context.WithCancel(context.Background())
	go func() {
		<-r.started // the first run is going
		stop()
	}()
	rep := checkInBackground(t, ctx, Checker{Runner: r, Lang: "en"}, ex)
	if n := r.count(); n != 1 {
		t.Errorf("%d runs started after Stop, want 1", n)
	}
	if rep.Ended != EndedStopped || len(rep.NotRun()) != len(ex.Checks) {
		t.Fatalf("ended %q with %d not run: %+v", rep.Ended, len(rep.NotRun()), rep.Results)
	}
	if want := "✋ The checks were stopped, so these were not checked: 1, 2, 3, 4, 5, 6."; rep.Note != want {
		t.Errorf("note %q", rep.Note)
	}
	if rep.BudgetSeconds != CheckBudget.Seconds() {
		t.Errorf("budget %v s, want %v", rep.BudgetSeconds, CheckBudget.Seconds())
	}
}

// Progress comes before each run, in order 1..N, naming the checks each
// run decides; the events' time is added to the budget.
func TestCheckProgressInOrder(t *testing.T) {
	var got []CheckProgress
	var started []int
	r := runnerFunc(func(_ context.Context, req RunRequest) (*RunResult, error) {
		started = append(started, len(got))
		if req.Name == "kidcheck_source.py" {
			return &RunResult{Status: "ok", Stdout: `{"results": [true]}`}, nil
		}
		return &RunResult{Status: "ok", Stdout: "x\n"}, nil
	})
	ex := sleepyExercise(3)
	ex.Checks = append(ex.Checks, Check{Type: CheckOutput, Stdin: "1\n", Expect: "x", Message: ex.Checks[0].Message})
	ex.Checks[2].Events = "keys.jsonl"
	keys := t.TempDir() + "/keys.jsonl"
	must(t, os.WriteFile(keys, []byte(`{"at_ms": 1500, "type": "key", "key": "Up"}`+"\n"), 0o644))
	rep, err := Checker{Runner: r, Lang: "en", Progress: func(p CheckProgress) { got = append(got, p) }}.
		Exercise(context.Background(), mapFiles{"keys.jsonl": keys}, ex, []byte("code"))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed || rep.Ended != "" || rep.Note != "" {
		t.Errorf("report %+v", rep)
	}
	want := []CheckProgress{{1, 4, []int{0}}, {2, 4, []int{1, 4}}, {3, 4, []int{2}}, {4, 4, []int{3}}}
	if len(got) != len(want) {
		t.Fatalf("progress %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Run != want[i].Run || got[i].Runs != want[i].Runs || !slices.Equal(got[i].Checks, want[i].Checks) {
			t.Errorf("progress %d: %+v, want %+v", i, got[i], want[i])
		}
		if started[i] != i+1 {
			t.Errorf("run %d started after %d progress events", i+1, started[i])
		}
	}
	// Events of 1.5 s plus the close a second later: 2.5 s more than the budget.
	if rep.BudgetSeconds != CheckBudget.Seconds()+2.5 {
		t.Errorf("budget %v s", rep.BudgetSeconds)
	}
}

// Through the sandbox: programs that sleep far past their wall clock, a
// run each, under a budget of 2 s. The first run is ended by the budget
// (its own wall clock is far longer), and no other starts.
func TestBudgetEndsSandboxRuns(t *testing.T) {
	r := realRunner(t)
	var mu sync.Mutex
	var results []*RunResult
	counted := runnerFunc(func(ctx context.Context, req RunRequest) (*RunResult, error) {
		res, err := r.Run(ctx, req)
		mu.Lock()
		results = append(results, res)
		mu.Unlock()
		return res, err
	})
	ex := sleepyExercise(3)
	rep, err := Checker{Runner: counted, Lang: "en", Budget: 2 * time.Second}.
		Exercise(context.Background(), mapFiles{}, ex, []byte("import time\nprint('go', flush=True)\ntime.sleep(3600)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 {
		t.Fatalf("%d runs, want the one the budget ended", len(results))
	}
	if rep.Ended != EndedOutOfTime || len(rep.NotRun()) != len(ex.Checks) {
		t.Fatalf("ended %q, %d not run: %+v", rep.Ended, len(rep.NotRun()), rep.Results)
	}
	if res := results[0]; res != nil && res.Status == "timeout" {
		t.Errorf("the run ended at its own wall clock, not the budget: %+v", res.Result)
	}
}
