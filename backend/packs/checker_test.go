package packs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kidcoder/backend/text"
)

// fakeRunner answers runs from a function and records the requests.
type fakeRunner struct {
	reqs []RunRequest
	fn   func(req RunRequest) *RunResult
}

func (f *fakeRunner) Run(_ context.Context, req RunRequest) (*RunResult, error) {
	f.reqs = append(f.reqs, req)
	return f.fn(req), nil
}

type mapFiles map[string]string

func (m mapFiles) HostPath(p string) (string, error) {
	if h, ok := m[p]; ok {
		return h, nil
	}
	return "", ErrMissing
}

func squareDrawing(t *testing.T) json.RawMessage {
	r := polygon(4, 100)
	b, err := json.Marshal(map[string]any{"steps": r.steps, "turtles": []map[string]any{{"id": 0, "x": r.x, "y": r.y, "heading": r.h}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckExerciseGroupsRuns(t *testing.T) {
	ex := Exercise{ID: "sq", Stdin: "100\n", Checks: []Check{
		{Type: CheckOutput, Stdin: "50\n", Expect: "200", Match: MatchNumbers, Message: text.Text{Zh: "周长", En: "perimeter"}},
		{Type: CheckOutput, Stdin: "100\n", Expect: "400", Match: MatchContains, Message: text.Text{Zh: "周长", En: "perimeter"}},
		{Type: CheckTurtle, Rule: TurtlePolygon, Sides: 4, Message: text.Text{Zh: "正方形", En: "square"}},
		{Type: CheckCode, File: "c1.py", Message: text.Text{Zh: "函数", En: "function"}},
		{Type: CheckSource, Rule: SourceForLoop, Message: text.Text{Zh: "循环", En: "loop"}},
		{Type: CheckCode, File: "c2.py", Message: text.Text{Zh: "变量", En: "variable"}},
		{Type: CheckSource, Rule: SourceNotCalls, Name: "exit", Message: text.Text{Zh: "退出", En: "exit"}},
	}}
	r := &fakeRunner{fn: func(req RunRequest) *RunResult {
		if req.Name == "kidcheck_source.py" {
			if !strings.Contains(string(req.Code), `{\"rule\":\"not_calls\",\"name\":\"exit\"}`) || len(req.DataFiles) != 1 {
				t.Errorf("source run: %s %v", req.Code, req.DataFiles)
			}
			return &RunResult{Status: "ok", Stdout: "\n{\"results\": [true, false]}\n"}
		}
		n := strings.TrimSpace(string(req.Stdin))
		res := &RunResult{Status: "ok", Stdout: "Perimeter: " + map[string]string{"50": "200", "100": "401"}[n] + "\n"}
		if n == "100" {
			res.Drawing = squareDrawing(t)
			res.Checks = []CodeResult{{OK: true}, {OK: false, Message: "side should be 100"}}
		}
		return res
	}}
	files := mapFiles{"c1.py": "/h/c1.py", "c2.py": "/h/c2.py"}
	rep, err := CheckExercise(context.Background(), r, files, &ex, []byte("code"), "en")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.reqs) != 3 {
		t.Fatalf("%d runs, want 3 (stdin 50, stdin 100, source)", len(r.reqs))
	}
	for _, req := range r.reqs {
		if string(req.Stdin) == "100\n" && strings.Join(req.CheckFiles, ",") != "/h/c1.py,/h/c2.py" {
			t.Errorf("check files %v", req.CheckFiles)
		}
		if string(req.Stdin) == "50\n" && len(req.CheckFiles) != 0 {
			t.Errorf("check files ride in the wrong run: %v", req.CheckFiles)
		}
	}
	want := []bool{true, false, true, true, true, false, false}
	for i, w := range want {
		if rep.Results[i].OK != w {
			t.Errorf("check %d (%s) ok=%v want %v: %+v", i, ex.Checks[i].Type, rep.Results[i].OK, w, rep.Results[i])
		}
	}
	if rep.Passed {
		t.Error("report passed with failing checks")
	}
	if got := rep.Results[1]; got.Message != "perimeter" || !strings.Contains(got.Detail, "Perimeter: 401") {
		t.Errorf("output failure explained as %+v", got)
	}
	if got := rep.Results[5]; got.Detail != "side should be 100" {
		t.Errorf("code failure explained as %+v", got)
	}
	if rep.Results[0].Message != "" {
		t.Error("a passing check carries a failure message")
	}
}

func TestCheckExerciseProgramProblems(t *testing.T) {
	ex := Exercise{ID: "p", Checks: []Check{
		{Type: CheckOutput, Expect: "hi", Message: text.Text{Zh: "打招呼", En: "say hi"}},
		{Type: CheckTurtle, Rule: TurtleMinSegments, Count: 1, Message: text.Text{Zh: "画", En: "draw"}},
		{Type: CheckCode, File: "c.py", Message: text.Text{Zh: "代码", En: "code"}},
		{Type: CheckSource, Rule: SourceForLoop, Message: text.Text{Zh: "循环", En: "loop"}},
	}}
	tests := []struct {
		name   string
		res    RunResult
		source string
		detail []string
	}{
		{"error", RunResult{Status: "error", Stdout: "hi\n", Hint: "NameError hint", Line: 3}, `{"syntax_error": true, "line": 3}`,
			[]string{"NameError hint (3)", "NameError hint", "NameError hint", "line 3"}},
		{"timeout", RunResult{Status: "timeout"}, `{"results": [false]}`,
			[]string{"took too long", "took too long", "took too long", ""}},
		{"printed nothing", RunResult{Status: "ok"}, `garbage`,
			[]string{"printed nothing", "did not draw", "could not run", "Could not look"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &fakeRunner{fn: func(req RunRequest) *RunResult {
				if req.Name == "kidcheck_source.py" {
					return &RunResult{Status: "ok", Stdout: tt.source}
				}
				res := tt.res
				return &res
			}}
			rep, err := CheckExercise(context.Background(), r, mapFiles{"c.py": "/c.py"}, &ex, []byte("x"), "en")
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.detail {
				got := rep.Results[i]
				if got.OK {
					t.Errorf("check %d passed", i)
				}
				if !strings.Contains(got.Detail, want) {
					t.Errorf("check %d detail %q, want it to hold %q", i, got.Detail, want)
				}
			}
		})
	}
}

type errRunner struct{}

var errNoSandbox = errors.New("sandbox unavailable")

func (errRunner) Run(context.Context, RunRequest) (*RunResult, error) { return nil, errNoSandbox }

func TestCheckExerciseNoSandbox(t *testing.T) {
	ex := Exercise{ID: "p", Checks: []Check{{Type: CheckOutput, Expect: "hi", Message: text.Text{Zh: "a", En: "b"}}}}
	if _, err := CheckExercise(context.Background(), errRunner{}, mapFiles{}, &ex, nil, "zh"); !errors.Is(err, errNoSandbox) {
		t.Fatalf("err = %v, want the runner's error", err)
	}
}

func TestLangFallback(t *testing.T) {
	if (text.Text{Zh: "中", En: "en"}).In("zh-CN") != "中" || (text.Text{En: "en"}).In("zh") != "en" || (text.Text{Zh: "中"}).In("en") != "中" {
		t.Fatal("Text.In picks the wrong language")
	}
}
