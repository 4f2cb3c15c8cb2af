package packs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/kidrun/kidruntest"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// realRunner is the sandbox, or a skip when this machine has none.
func realRunner(t *testing.T) Runner {
	t.Helper()
	if testing.Short() {
		t.Skip("runs programs in the sandbox")
	}
	// A pack's checks do real work: their verdicts must not rest on a
	// busy machine's speed under a child's time bound.
	eng, err := kidrun.New(kidrun.Options{CacheDir: filepath.Join(os.TempDir(), "kidcoder-packs-test-cache"), Policy: kidruntest.RoomyPolicy()})
	if err == nil {
		_, err = eng.Check(context.Background())
	}
	if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, kidrun.ErrNoPython) {
		t.Skipf("sandbox unavailable: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return EngineRunner{Engine: eng}
}

// TestVerifyScaffoldInSandbox builds the scaffold pack and runs what
// `kidcoder pack check` runs: the reference solution must pass every check
// and the starter must fail, each run really executed in the sandbox.
func TestVerifyScaffoldInSandbox(t *testing.T) {
	r := realRunner(t)
	p, err := ReadPack("scaffold.kidpack", builtScaffold(t))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := p.Verify(context.Background(), r, "en")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 {
		t.Fatalf("%d verdicts", len(vs))
	}
	v := vs[0]
	for _, c := range v.Solution.Results {
		if !c.OK {
			t.Errorf("solution fails checks[%d] (%s): %s — %s", c.Index, c.Type, c.Message, c.Detail)
		}
	}
	if !v.OK {
		t.Errorf("verification: %s", v.Problem)
	}
	if d := v.Starter.Results[6].Detail; d != "no function called square" {
		t.Errorf("the code check's assert message did not come back from the sandbox: %q", d)
	}
	// The starter draws one line and prints nothing: exactly these fail.
	want := map[int]bool{0: false, 1: false, 2: false, 3: false, 4: false, 5: false, 6: false}
	for _, c := range v.Starter.Results {
		if c.OK != want[c.Index] {
			t.Errorf("starter checks[%d] (%s) ok=%v: %s", c.Index, c.Type, c.OK, c.Detail)
		}
	}
}

// TestSourceRulesInSandbox runs the AST rules on code that would misbehave
// if it were ever executed instead of parsed.
func TestSourceRulesInSandbox(t *testing.T) {
	r := realRunner(t)
	ex := &Exercise{ID: "rules", Checks: []Check{
		{Type: CheckSource, Rule: SourceForLoop, Message: text.Text{Zh: "a", En: "b"}},
		{Type: CheckSource, Rule: SourceNotCalls, Name: "input", Message: text.Text{Zh: "a", En: "b"}},
		{Type: CheckSource, Rule: SourceCalls, Name: "forward", Message: text.Text{Zh: "a", En: "b"}},
	}}
	code := []byte("import os\nos._exit(3)\nwhile True:\n    pass\nfor i in range(3):\n    t.forward(i)\n")
	rep, err := CheckExercise(context.Background(), r, mapFiles{}, ex, code, "en")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, true} {
		if rep.Results[i].OK != want {
			t.Errorf("rule %d: %+v", i, rep.Results[i])
		}
	}
	rep, err = CheckExercise(context.Background(), r, mapFiles{}, ex, []byte("for x in\n"), "zh")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed || rep.Results[0].Detail == "" {
		t.Errorf("a syntax error passed source rules: %+v", rep.Results)
	}
}

// TestCheckLessonInSandbox checks an imported lesson the way the app's
// check button does: files come from the lessons folder, progress is saved.
func TestCheckLessonInSandbox(t *testing.T) {
	r := realRunner(t)
	src := scaffoldDir(t)
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, src), lessons, "zh")
	if err != nil {
		t.Fatal(err)
	}
	lesson := filepath.Join(lessons, pl.Exercises[0].Lesson)
	solution := []byte(readFile(t, filepath.Join(src, "exercises/square/solution.py")))
	rep, prog, err := CheckLesson(context.Background(), r, lesson, solution, "zh", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed {
		t.Fatalf("the solution failed as a lesson: %+v", rep.Failed())
	}
	if !prog.Solved || prog.Stars != 3 || prog.Attempts != 1 {
		t.Errorf("progress after a first-try solve: %+v", prog)
	}
}
