package packs

import (
	"context"
	"strings"
	"testing"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
)

// A check's detail says how a run ended in the child's language: a bound
// in the catalogue's words, as the window says it, and an exit code in
// words too; never the run's raw status ("output_limit").
func TestRunProblemInTheChildsLanguage(t *testing.T) {
	output := &kidrun.Result{Status: "output_limit", Outcome: &kidrun.Outcome{Key: "limit.output", Values: map[string]string{"size": "1 MB"}}}
	exited := &kidrun.Result{Status: "error", ExitCode: 3}
	for _, tc := range []struct {
		name string
		res  RunResult
		lang string
		want string
	}{
		{"output zh", RunResult{Status: "output_limit", Result: output}, "zh", "打印的内容超过了 1 MB"},
		{"output en", RunResult{Status: "output_limit", Result: output}, "en", "printed more than 1 MB"},
		{"exit zh", RunResult{Status: "error", Result: exited}, "zh", "退出码 3"},
		{"exit en", RunResult{Status: "error", Result: exited}, "en", "exit code 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := Exercise{ID: "x", Checks: []Check{{Type: CheckOutput, Expect: "hi", Message: text.Text{Zh: "打印 hi", En: "print hi"}}}}
			r := &fakeRunner{fn: func(RunRequest) *RunResult { res := tc.res; return &res }}
			rep, err := CheckExercise(context.Background(), r, mapFiles{}, &ex, []byte("code"), tc.lang)
			if err != nil {
				t.Fatal(err)
			}
			d := rep.Results[0].Detail
			if !strings.Contains(d, tc.want) || strings.Contains(d, tc.res.Status) && tc.res.Status != "error" {
				t.Errorf("detail %q, want %q", d, tc.want)
			}
		})
	}
}
