package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/packs"
)

// runShell records events and hands them to whoever waits for one.
type runShell struct {
	mu     sync.Mutex
	events []recorded
	signal chan struct{}
}

type recorded struct {
	name string
	data any
}

func newRunShell() *runShell { return &runShell{signal: make(chan struct{}, 1)} }

func (s *runShell) Emit(event string, data any) {
	s.mu.Lock()
	s.events = append(s.events, recorded{event, data})
	s.mu.Unlock()
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

func (s *runShell) SaveDialog(string, string) (string, error) { return "", nil }
func (s *runShell) DirectoryDialog(string) (string, error)    { return "", nil }
func (s *runShell) OpenFileDialog(string) (string, error)     { return "", nil }

// waitFor waits until an event matching match has been emitted and returns it.
func (s *runShell) waitFor(t *testing.T, within time.Duration, match func(recorded) bool) recorded {
	t.Helper()
	deadline := time.After(within)
	for {
		s.mu.Lock()
		for _, e := range s.events {
			if match(e) {
				s.mu.Unlock()
				return e
			}
		}
		s.mu.Unlock()
		select {
		case <-s.signal:
		case <-deadline:
			t.Fatalf("no matching event within %v", within)
		}
	}
}

// waitOutput waits until the run's output so far, all its output events
// together, holds text: how a print is cut into events is the window's
// business, not the test's.
func (s *runShell) waitOutput(t *testing.T, within time.Duration, id, text string) {
	t.Helper()
	deadline := time.After(within)
	for {
		var out strings.Builder
		s.mu.Lock()
		for _, e := range s.events {
			if o, ok := e.data.(OutputEvent); ok && e.name == EventRunOutput && o.RunID == id {
				out.WriteString(o.Text)
			}
		}
		s.mu.Unlock()
		if strings.Contains(out.String(), text) {
			return
		}
		select {
		case <-s.signal:
		case <-deadline:
			t.Fatalf("run %s did not print %q within %v (printed %q)", id, text, within, out.String())
		}
	}
}

func doneOf(id string) func(recorded) bool {
	return func(e recorded) bool {
		d, ok := e.data.(DoneEvent)
		return e.name == EventRunDone && ok && d.RunID == id
	}
}

// readyApp starts an app on a temp settings file and waits for the sandbox check.
func readyApp(t *testing.T, settingsJSON string) (*App, *runShell, SandboxStatus) {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "settings.json")
	if settingsJSON != "" {
		os.WriteFile(sp, []byte(settingsJSON), 0o644)
	}
	t.Setenv("KIDCODER_LESSONS", filepath.Join(dir, "lessons"))
	a := New(sp, filepath.Join(dir, "cache"))
	sh := newRunShell()
	Startup(a, context.Background(), sh)
	t.Cleanup(func() { Shutdown(a) })
	e := sh.waitFor(t, 60*time.Second, func(e recorded) bool { return e.name == EventStatus })
	return a, sh, e.data.(SandboxStatus)
}

func requireReady(t *testing.T, st SandboxStatus) {
	t.Helper()
	if !st.Ready {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("sandbox required: %s", st.Reason)
		}
		t.Skipf("sandbox unavailable here: %s", st.Reason)
	}
}

func TestRunStreamsAndFinishes(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	if st.Sandbox == "" || st.Python == "" {
		t.Errorf("status does not say which sandbox and Python: %+v", st)
	}
	id := "run-hi"
	if err := a.Run(RunRequest{RunID: id, Code: "print('你好 🐢')\n", Name: "hi.py", Lang: "zh"}); err != nil {
		t.Fatal(err)
	}
	done := sh.waitFor(t, 20*time.Second, doneOf(id)).data.(DoneEvent)
	res := done.Result
	if res.Status != "ok" || res.Stdout != "你好 🐢\n" {
		t.Fatalf("result %s %q", res.Status, res.Stdout)
	}
	sh.waitOutput(t, time.Second, id, "你好")
}

func TestRunWhileRunningRestarts(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	first, second := "run-1", "run-2"
	if err := a.Run(RunRequest{RunID: first, Code: "import time\nwhile True:\n    time.sleep(0.05)\n", Name: "loop.py"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Run(RunRequest{RunID: second, Code: "print('second')\n", Name: "b.py"}); err != nil {
		t.Fatal(err)
	}
	r1 := sh.waitFor(t, 10*time.Second, doneOf(first)).data.(DoneEvent).Result
	if !r1.Stopped {
		t.Errorf("the first run was not stopped: %+v", r1)
	}
	r2 := sh.waitFor(t, 20*time.Second, doneOf(second)).data.(DoneEvent).Result
	if r2.Status != "ok" || r2.Stdout != "second\n" {
		t.Errorf("second run: %s %q", r2.Status, r2.Stdout)
	}
	if err := a.SendInput(first, "x"); err == nil {
		t.Error("input accepted for a run that is over")
	}
}

func TestInputAndStop(t *testing.T) {
	// The longest a child's run may have, not the default: the setting
	// must reach the run, and the interpreter's start must not race it.
	a, sh, st := readyApp(t, `{"timeoutSeconds": 60}`)
	requireReady(t, st)
	id := "run-in"
	if err := a.Run(RunRequest{RunID: id, Code: "n = input('n? ')\nprint(int(n) + 1)\nimport time\nwhile True:\n    time.sleep(0.05)\n", Name: "in.py"}); err != nil {
		t.Fatal(err)
	}
	sh.waitFor(t, 20*time.Second, func(e recorded) bool { return e.name == EventRunWaiting })
	if err := a.SendInput(id, "41"); err != nil {
		t.Fatal(err)
	}
	sh.waitOutput(t, 10*time.Second, id, "42")
	if err := a.Stop(id); err != nil {
		t.Fatal(err)
	}
	res := sh.waitFor(t, 5*time.Second, doneOf(id)).data.(DoneEvent).Result
	if !res.Stopped || !strings.Contains(res.Stdout, "42") {
		t.Fatalf("after stop: %+v", res)
	}
	if res.Limits.WallSeconds != 60 {
		t.Errorf("the settings' timeout was not used: %v", res.Limits.WallSeconds)
	}
}

// A Python path in the settings that does not work is named as the
// problem (installing Python would not help), and no code runs.
func TestMissingPythonExplainsTheFix(t *testing.T) {
	a, _, st := readyApp(t, `{"python": "/nonexistent/python3"}`)
	if st.Ready || st.Reason == "" || st.Code != "python_setting" || st.Fix != "" {
		t.Fatalf("status %+v", st)
	}
	if err := a.Run(RunRequest{RunID: "run-1", Code: "print(1)", Name: "a.py"}); err == nil {
		t.Fatal("ran code without a usable sandbox")
	}
}

func TestBrokenSettingsAreReportedNotFatal(t *testing.T) {
	a, _, _ := readyApp(t, `{"fontSize": "big"`)
	s := a.GetSettings()
	if s.Warning == "" || s.FontSize != 18 {
		t.Fatalf("settings %+v", s)
	}
	stored, err := a.SaveSettings(s)
	if err != nil || stored.Warning != "" {
		t.Fatalf("save: %+v %v", stored, err)
	}
}

// The star demo starts as soon as the sandbox is proven; the ready status
// names its run, and a Run with that id takes it over and hears all of it.
func TestFirstStarRunIsTheEarlyDemo(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	id := st.DemoRunID
	if id != DemoRunID || a.Status().DemoRunID != id {
		t.Fatalf("the ready status names demo run %q, Status() %q", id, a.Status().DemoRunID)
	}
	if err := a.Run(RunRequest{RunID: id, Code: a.StarDemo(), Name: "star.py", Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	if got := a.Status().DemoRunID; got != "" {
		t.Errorf("the demo is taken, yet Status() still names %q", got)
	}
	res := sh.waitFor(t, 20*time.Second, doneOf(id)).data.(DoneEvent).Result
	if res.Status != "ok" || !strings.Contains(res.Stdout, "golden star") || len(res.Images) == 0 {
		t.Fatalf("demo result: %s %q %d images", res.Status, res.Stdout, len(res.Images))
	}
	sh.waitOutput(t, time.Second, id, "golden star")
	// Only the first run is the early one: a second is a run of its own.
	id2 := "run-2"
	if err := a.Run(RunRequest{RunID: id2, Code: a.StarDemo(), Name: "star.py"}); err != nil {
		t.Fatalf("second run: %v", err)
	}
	if r2 := sh.waitFor(t, 20*time.Second, doneOf(id2)).data.(DoneEvent).Result; r2.Status != "ok" {
		t.Fatalf("second run: %s", r2.Status)
	}
}

// A first run under any other id ends the early demo unseen: none of its
// events reach the window.
func TestOtherFirstRunEndsTheDemoUnseen(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	if st.DemoRunID == "" {
		t.Fatal("the ready status names no demo run")
	}
	if err := a.Run(RunRequest{RunID: "run-1", Code: "print('mine')\n", Name: "a.py"}); err != nil {
		t.Fatal(err)
	}
	sh.waitFor(t, 20*time.Second, doneOf("run-1"))
	if got := a.Status().DemoRunID; got != "" {
		t.Errorf("Status() still names demo run %q", got)
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for _, e := range sh.events {
		if d, ok := e.data.(DoneEvent); ok && d.RunID == st.DemoRunID {
			t.Errorf("the window heard of the dropped demo: %+v", e)
		}
		if o, ok := e.data.(OutputEvent); ok && o.RunID == st.DemoRunID {
			t.Errorf("the window heard of the dropped demo: %+v", e)
		}
	}
}

// Run refuses a run id that could be confused with another run's, or that
// is not a plain token, before it touches the run going on.
func TestRunChecksTheRunID(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	if err := a.Run(RunRequest{RunID: "loop", Code: "import time\nprint('up', flush=True)\nwhile True:\n    time.sleep(0.05)\n", Name: "loop.py"}); err != nil {
		t.Fatal(err)
	}
	sh.waitOutput(t, 20*time.Second, "loop", "up")
	for _, tt := range []struct {
		name, id string
		inUse    bool
	}{
		{"empty", "", false},
		{"too long", strings.Repeat("a", 65), false},
		{"space", "run 1", false},
		{"quote", `run"1`, false},
		{"slash", "../run", false},
		{"not ASCII", "运行", false},
		{"in use", "loop", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := a.Run(RunRequest{RunID: tt.id, Code: "print(1)\n", Name: "a.py"})
			if err == nil {
				t.Fatalf("Run accepted id %q", tt.id)
			}
			if errors.Is(err, ErrRunIDInUse) != tt.inUse {
				t.Errorf("id %q: %v", tt.id, err)
			}
		})
	}
	if cur := a.runs.CurrentID(); cur != "loop" {
		t.Fatalf("a refused Run ended the run going on: now %q", cur)
	}
	if err := a.Stop("loop"); err != nil {
		t.Fatal(err)
	}
	if res := sh.waitFor(t, 5*time.Second, doneOf("loop")).data.(DoneEvent).Result; !res.Stopped {
		t.Errorf("the run was not stopped by Stop: %+v", res)
	}
	// Once its end is reported the id is free again.
	if err := a.Run(RunRequest{RunID: "loop", Code: "print(2)\n", Name: "a.py"}); err != nil {
		t.Errorf("the id of a finished run: %v", err)
	}
	if err := kidrun.CheckRunID(strings.Repeat("a", 64)); err != nil {
		t.Errorf("a longest id: %v", err)
	}
}

// A pack imported into the lessons folder is checked through the real
// sandbox: the starter is not yet right, the reference solution is, and the
// attempts are remembered.
func TestCheckAnswerThroughTheSandbox(t *testing.T) {
	a, _, st := readyApp(t, "")
	requireReady(t, st)
	src := filepath.Join(t.TempDir(), "src")
	if err := packs.New(src); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "p.kidpack")
	if err := packs.BuildFile(src, file); err != nil {
		t.Fatal(err)
	}
	plan, err := a.ImportPack(file, "en")
	if err != nil {
		t.Fatal(err)
	}
	lesson := plan.Exercises[0].Lesson
	l, err := a.OpenLesson(lesson)
	if err != nil {
		t.Fatal(err)
	}
	first, err := a.CheckLesson(CheckRequest{Path: lesson, Code: l.Content, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Report.Passed || len(first.Report.Results) == 0 {
		t.Fatalf("the starter passed its checks: %+v", first.Report)
	}
	solution, err := os.ReadFile(filepath.Join(src, "exercises", "square", "solution.py"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.CheckLesson(CheckRequest{Path: lesson, Code: string(solution), Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if !second.Report.Passed {
		t.Fatalf("the reference solution failed: %+v", second.Report.Failed())
	}
	// The child sees what the checked run did, as after Run.
	if run, ok := second.Run.(*kidrun.Result); !ok || run.Drawing == nil || len(run.Images) == 0 || run.Status != "ok" {
		t.Errorf("the checked run is not shown: %+v", second.Run)
	}
	if second.Progress.Attempts != 2 || !second.Progress.Solved || second.Progress.Stars == 0 {
		t.Errorf("progress after two attempts: %+v", second.Progress)
	}
}

// Two Runs at the same moment: the later one stops the earlier, whichever
// wins the race, so no run is left going that nothing can stop.
func TestRunsAtTheSameMoment(t *testing.T) {
	a, sh, st := readyApp(t, "")
	requireReady(t, st)
	loop := "import time\nwhile True:\n    time.sleep(0.05)\n"
	var wg sync.WaitGroup
	for _, id := range []string{"twin-1", "twin-2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := a.Run(RunRequest{RunID: id, Code: loop, Name: "loop.py"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	cur := a.runs.CurrentID()
	a.Stop(cur)
	// Both end as stopped, long before either's 10 s wall clock.
	for _, id := range []string{"twin-1", "twin-2"} {
		if r := sh.waitFor(t, 8*time.Second, doneOf(id)).data.(DoneEvent).Result; !r.Stopped {
			t.Errorf("%s: %s, not stopped", id, r.Status)
		}
	}
}
