package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"kidcoder/backend/kidrun"
)

// A long trace is answered as a head and a tail of its steps, the count
// of those left out exact, and a text that shows fewer still.
func TestCompactTraceKeepsHeadAndTail(t *testing.T) {
	long := &kidrun.Trace{Truncated: true}
	for i := range kidrun.MaxTraceSteps {
		long.Steps = append(long.Steps, kidrun.TraceStep{I: i, Event: "line", Line: 2 + i%2, Func: "<module>",
			Vars: []byte(fmt.Sprintf(`{"total":"%d","i":"%d"}`, i*(i+1)/2, i/2))})
	}
	val := "120"
	short := &kidrun.Trace{Steps: []kidrun.TraceStep{
		{I: 0, Event: "line", Line: 1, Func: "<module>", Vars: []byte(`{}`)},
		{I: 1, Event: "call", Line: 1, Func: "fact", Depth: 1, Vars: []byte(`{"n":"5"}`)},
		{I: 2, Event: "return", Line: 3, Func: "fact", Depth: 1, Vars: []byte(`{"n":"5"}`), Value: &val},
	}}
	for _, tc := range []struct {
		name  string
		in    *kidrun.Trace
		whole bool
	}{
		{"short", short, true},
		{"100,000 steps", long, false},
	} {
		for _, lang := range []string{"en", "zh"} {
			got, txt := compactTrace(tc.in, lang)
			n := len(tc.in.Steps)
			if got.Truncated != tc.in.Truncated || len(got.Steps)+got.Omitted != n {
				t.Fatalf("%s: %d steps and %d left out, of %d", tc.name, len(got.Steps), got.Omitted, n)
			}
			if tc.whole != (got.Omitted == 0) {
				t.Errorf("%s: %d left out", tc.name, got.Omitted)
			}
			// The head and the tail are the trace's own, in order.
			head := len(got.Steps) / 2
			for i, st := range got.Steps {
				want := i
				if i >= head && got.Omitted > 0 && st.I != i {
					want = i + got.Omitted
				}
				if st.I != want {
					t.Fatalf("%s: step %d of the answer is step %d, want %d", tc.name, i, st.I, want)
				}
			}
			if size := len(txt); size > 16<<10 {
				t.Errorf("%s: the text is %d bytes", tc.name, size)
			}
			lines := strings.Split(strings.TrimSpace(txt), "\n")
			if !strings.Contains(lines[0], fmt.Sprint(n)) {
				t.Errorf("%s: the first line does not count the steps: %q", tc.name, lines[0])
			}
			if tc.whole {
				if len(lines) != n+1 || lines[3] != "  #2 L3 fact(n=5) return → 120" {
					t.Errorf("%s: %q", tc.name, txt)
				}
				continue
			}
			marker := map[string]string{"en": "steps left out", "zh": "中间省略了"}[lang]
			if !strings.Contains(txt, marker) || len(lines) > 2*traceTextSteps+3 {
				t.Errorf("%s (%s): %d lines: %q", tc.name, lang, len(lines), txt[:200])
			}
			if !strings.HasPrefix(lines[len(lines)-2], "#99999 L3 <module>(total=") {
				t.Errorf("%s: the last step shown is %q", tc.name, lines[len(lines)-2])
			}
		}
	}
	if got, txt := compactTrace(nil, "en"); got != nil || txt != "" {
		t.Errorf("no trace: %v %q", got, txt)
	}
}

// run_python with trace: true answers with the trace, within the answer's
// bounds; without it, with none.
func TestRunPythonTrace(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	code := "def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n\nprint(fact(3))\n"
	res := call(t, cs, "run_python", map[string]any{"code": code, "trace": true})
	validResult(t, res)
	var r kidrun.Result
	structured(t, res, &r)
	if res.IsError || r.Stdout != "6\n" || r.Trace == nil || len(r.Trace.Steps) != 14 || r.Trace.Omitted != 0 {
		t.Fatalf("isError=%v %+v", res.IsError, r)
	}
	if !strings.Contains(textOf(res), "      #10 L3 fact(n=1)\n") || !strings.Contains(textOf(res), "return → 6") {
		t.Errorf("text: %q", textOf(res))
	}
	res = call(t, cs, "run_python", map[string]any{"code": code})
	var plain kidrun.Result
	structured(t, res, &plain)
	if plain.Trace != nil {
		t.Errorf("a trace nobody asked for")
	}
	loop := "total = 0\nfor i in range(100000):\n    total += i\nprint(total)\n"
	res = call(t, cs, "run_python", map[string]any{"code": loop, "trace": true, "timeout_seconds": 60})
	validResult(t, res)
	r = kidrun.Result{}
	structured(t, res, &r)
	size := answerSize(t, res)
	t.Logf("a 100,000-step trace: %d bytes", size)
	if r.Trace == nil || !r.Trace.Truncated || len(r.Trace.Steps)+r.Trace.Omitted != kidrun.MaxTraceSteps || size > 64<<10 {
		t.Fatalf("%d bytes: %+v", size, r.Trace)
	}
}
