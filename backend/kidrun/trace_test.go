package kidrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// traceFrame is a trace frame holding steps, each already written as JSON.
func traceFrame(steps ...string) []byte {
	return []byte(`{"type":"trace","steps":[` + strings.Join(steps, ",") + `]}`)
}

func collect(frames ...[]byte) *Trace {
	h := tracing{newCollector(nil), &traceCollector{}}
	for _, f := range frames {
		h.Frame(f)
	}
	return h.trace.result()
}

// Each step of a trace frame becomes one TraceStep, numbered by the host;
// steps that are not as the protocol says are left out, and a frame that
// cannot be read is read no further.
func TestTraceFramesAreChecked(t *testing.T) {
	ok := `["l",3,"f",1,{"n":"5"},2,1]`
	long := strings.Repeat("长", 300)
	many := make([]string, 70)
	for i := range many {
		many[i] = fmt.Sprintf(`"v%d":"%d"`, i, i)
	}
	type want struct {
		lines []int  // each kept step's line, in order
		vars  string // the last kept step's vars
	}
	for _, tt := range []struct {
		name  string
		frame []byte
		want  want
	}{
		{"well-formed", traceFrame(`["l",1,"<module>",0,{},0,0]`, ok, `["r",4,"f",1,{"n":"5"},2,1,"120"]`, `["e",9,"<module>",0,{},2,1,"ZeroDivisionError"]`),
			want{[]int{1, 3, 4, 9}, `{}`}},
		{"unknown event", traceFrame(`["x",1,"f",0,{},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"negative line", traceFrame(`["l",-1,"f",0,{},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"float line", traceFrame(ok, `["l",1.5,"f",0,{},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"huge line", traceFrame(ok, `["l",99999999999,"f",0,{},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"line as text", traceFrame(ok, `["l","1","f",0,{},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"missing field", traceFrame(ok, `["l",1,"f",0,{},0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"extra field", traceFrame(ok, `["l",1,"f",0,{},0,0,"x"]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"value not text", traceFrame(ok, `["l",1,"f",0,{"a":1},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"unclosed", []byte(`{"type":"trace","steps":[` + ok + `,["l",1,"f"`), want{nil, ``}},
		{"other key order", []byte(`{"steps":[` + ok + `],"type":"trace"}`), want{nil, ``}},
		{"invalid UTF-8", traceFrame(ok, "[\"l\",1,\"\xff\",0,{},0,0]", ok), want{[]int{3}, `{"n":"5"}`}},
		{"control character", traceFrame(ok, "[\"l\",1,\"a\nb\",0,{},0,0]", ok), want{[]int{3}, `{"n":"5"}`}},
		{"bad escape", traceFrame(ok, `["l",1,"\x41",0,{},0,0]`, ok), want{[]int{3}, `{"n":"5"}`}},
		{"escapes", traceFrame(`["l",7,"f",0,{"s":"'a\"\\b\u0001'"},0,0]`), want{[]int{7}, `{"s":"'a\"\\b\u0001'"}`}},
		{"long name left out, long value cut", traceFrame(`["l",2,"f",0,{"` + strings.Repeat("n", 101) + `":"1","s":"` + long + `"},0,0]`),
			want{[]int{2}, `{"s":"` + strings.Repeat("长", 79) + `…"}`}},
		{"at most 64 names", traceFrame(`["l",2,"f",0,{` + strings.Join(many, ",") + `},0,0]`),
			want{[]int{2}, `{` + strings.Join(many[:64], ",") + `}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := collect(tt.frame)
			var lines []int
			for i, st := range tr.Steps {
				if st.I != i {
					t.Errorf("step %d numbered %d", i, st.I)
				}
				lines = append(lines, st.Line)
			}
			if fmt.Sprint(lines) != fmt.Sprint(tt.want.lines) {
				t.Fatalf("lines %v, want %v", lines, tt.want.lines)
			}
			if len(tr.Steps) > 0 {
				last := tr.Steps[len(tr.Steps)-1]
				if string(last.Vars) != tt.want.vars {
					t.Errorf("vars %s, want %s", last.Vars, tt.want.vars)
				}
				var m map[string]string
				if err := json.Unmarshal(last.Vars, &m); err != nil {
					t.Errorf("vars are not an object of texts: %v", err)
				}
			}
		})
	}
}

// The fields of a step come through as written, cut to their bounds, and
// out and draw only grow.
func TestTraceStepFields(t *testing.T) {
	fn := strings.Repeat("f", 150)
	tr := collect(traceFrame(
		`["c",1,"`+fn+`",2,{"n":"5"},10,4]`,
		`["r",3,"fact",2,{"n":"5"},3,1,"`+strings.Repeat("9", 200)+`"]`,
		`["e",4,"fact",2,{},12,5,"`+strings.Repeat("E", 200)+`"]`,
	))
	if len(tr.Steps) != 3 || tr.Truncated {
		t.Fatalf("%+v", tr)
	}
	c, r, e := tr.Steps[0], tr.Steps[1], tr.Steps[2]
	if c.Event != "call" || c.Line != 1 || c.Depth != 2 || c.Out != 10 || c.Draw != 4 || utf8.RuneCountInString(c.Func) != 100 || c.Value != nil || c.Error != nil {
		t.Errorf("call: %+v", c)
	}
	if r.Event != "return" || r.Value == nil || utf8.RuneCountInString(*r.Value) != 80 || !strings.HasSuffix(*r.Value, "…") || r.Out != 10 || r.Draw != 4 {
		t.Errorf("return: %+v", r)
	}
	if e.Event != "exception" || e.Error == nil || utf8.RuneCountInString(*e.Error) != 100 || e.Out != 12 || e.Draw != 5 || string(e.Vars) != "{}" {
		t.Errorf("exception: %+v", e)
	}
}

// Past MaxTraceSteps, or past the runner's own truncated record, no step
// is kept and the trace says it was cut.
func TestTraceStepBound(t *testing.T) {
	step := `["l",1,"<module>",0,{"i":"1"},0,0]`
	var frames [][]byte
	for range (MaxTraceSteps + 5000) / 1000 {
		frames = append(frames, traceFrame(strings.Repeat(step+",", 999)+step))
	}
	tr := collect(frames...)
	if len(tr.Steps) != MaxTraceSteps || !tr.Truncated {
		t.Fatalf("%d steps, truncated %v", len(tr.Steps), tr.Truncated)
	}
	tr = collect(traceFrame(step, step, `["t",2]`, step), traceFrame(step))
	if len(tr.Steps) != 2 || !tr.Truncated {
		t.Fatalf("after the truncated record: %d steps, truncated %v", len(tr.Steps), tr.Truncated)
	}
	if tr := collect(traceFrame(step)); tr.Truncated || len(tr.Steps) != 1 {
		t.Fatalf("one step: %+v", tr)
	}
}

// The host reads maxTraceBytes of trace frames at most, however the
// program forges them.
func TestTraceByteBound(t *testing.T) {
	pair := `"` + strings.Repeat("n", 100) + `":"` + strings.Repeat("v", 80) + `"`
	vars := strings.Repeat(pair+",", 63) + pair
	step := `["l",1,"f",0,{` + vars + `},0,0]`
	frame := traceFrame(strings.Repeat(step+",", 999) + step)
	var frames [][]byte
	for range maxTraceBytes/len(frame) + 3 {
		frames = append(frames, frame)
	}
	tr := collect(frames...)
	if !tr.Truncated || len(tr.Steps) == 0 || len(tr.Steps) > maxTraceBytes/len(step) {
		t.Fatalf("%d steps, truncated %v", len(tr.Steps), tr.Truncated)
	}
}

// WriteJSONL writes §5's lines: every field, in order, then the
// truncated record.
func TestTraceJSONL(t *testing.T) {
	tr := collect(traceFrame(
		`["l",1,"<module>",0,{},0,0]`,
		`["c",1,"f",1,{"s":"'a\"<b>'"},3,0]`,
		`["r",2,"f",1,{"s":"'x'"},3,0,"'长'"]`,
		`["e",5,"<module>",0,{"x":"1"},3,2,"ValueError"]`,
		`["t",4]`))
	var b bytes.Buffer
	if err := tr.WriteJSONL(&b); err != nil {
		t.Fatal(err)
	}
	want := `{"i":0,"event":"line","line":1,"func":"<module>","depth":0,"vars":{},"out":0,"draw":0}
{"i":1,"event":"call","line":1,"func":"f","depth":1,"vars":{"s":"'a\"<b>'"},"out":3,"draw":0}
{"i":2,"event":"return","line":2,"func":"f","depth":1,"vars":{"s":"'x'"},"value":"'长'","out":3,"draw":0}
{"i":3,"event":"exception","line":5,"func":"<module>","depth":0,"vars":{"x":"1"},"error":"ValueError","out":3,"draw":2}
{"event":"truncated","steps":4}
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	for i, line := range strings.Split(strings.TrimSpace(b.String()), "\n")[:4] {
		var st TraceStep
		if err := json.Unmarshal([]byte(line), &st); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		var again bytes.Buffer
		enc := json.NewEncoder(&again)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(st); err != nil || again.String() != line+"\n" {
			t.Errorf("line %d is not what encoding/json writes:\n%s\n%s", i, line, again.String())
		}
	}
}

// A run asked for a trace gets it, checked, whatever the program forges
// on the frame pipe; one not asked for gets none. The verdict is the host's.
func TestRunTraceThroughSandbox(t *testing.T) {
	e := testEngine(t)
	code := `total = 0
for i in range(3):
    total += i
print(total)
`
	run, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "loop.py", Trace: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	if res.Status != "ok" || res.Stdout != "3\n" || res.Trace == nil || res.Trace.Truncated {
		t.Fatalf("%+v", res)
	}
	var lines []int
	for _, st := range res.Trace.Steps {
		lines = append(lines, st.Line)
	}
	if fmt.Sprint(lines) != "[1 2 3 2 3 2 3 2 4]" {
		t.Errorf("lines %v", lines)
	}
	if last := res.Trace.Steps[len(res.Trace.Steps)-1]; string(last.Vars) != `{"total":"3","i":"2"}` {
		t.Errorf("last vars %s", last.Vars)
	}

	// The program writes its own trace frames on every frame pipe it can
	// find: a flood, garbage, and a step that claims the bound.
	forge := `import fcntl, os, stat, struct
pipes = []
for fd in range(3, 200):
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
            pipes.append(fd)
    except OSError:
        pass
def frame(b):
    for fd in pipes:
        os.write(fd, struct.pack(">I", len(b)) + b)
step = b'["l",1,"f",0,{"x":"` + strings.Repeat("y", 1000) + `"},0,0]'
frame(b'{"type":"trace","steps":[' + b",".join([step] * 15000) + b']}')
frame(b'{"type":"trace","steps":[["l",1,')
frame(b'{"type":"trace","steps":[["t",0]]}')
raise SystemExit(3)
`
	for _, trace := range []bool{true, false} {
		run, err := e.Start(context.Background(), Request{Code: []byte(forge), Name: "forge.py", Trace: trace}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := run.Wait()
		if res.Status != "error" || res.ExitCode != 3 {
			t.Fatalf("trace %v: the verdict moved: %+v", trace, res)
		}
		if !trace {
			if res.Trace != nil {
				t.Fatalf("a run without a trace got one")
			}
			continue
		}
		if res.Trace == nil || len(res.Trace.Steps) > MaxTraceSteps {
			t.Fatalf("trace: %v", res.Trace)
		}
		forged := 0
		for _, st := range res.Trace.Steps {
			if st.Func != "f" {
				continue
			}
			forged++
			var vars map[string]string
			if err := json.Unmarshal(st.Vars, &vars); err != nil || utf8.RuneCountInString(vars["x"]) != maxTraceValue {
				t.Fatalf("a forged step's value is not cut: %s", st.Vars)
			}
		}
		// The flood was read within its bounds; the garbage and what came
		// after the forged truncated record were not.
		if forged != 15000 || !res.Trace.Truncated {
			t.Fatalf("%d forged steps kept, truncated %v", forged, res.Trace.Truncated)
		}
	}
}

// A traced run on a warm sandbox (the window's and run_python's way) is
// traced as a cold one: the go line asks for it.
func TestWarmRunTrace(t *testing.T) {
	e := warmEngine(t, testEngine(t).Policy())
	e.KeepWarm(Warmth{})
	awaitWarm(t, e)
	res := startOn(t, e, "x = 1\ny = x + 1\n", Request{Name: "w.py", Trace: true}).Wait()
	if e.warm.taken.Load() != 1 {
		t.Fatalf("%d runs took a warm sandbox, want 1", e.warm.taken.Load())
	}
	if res.Status != "ok" || res.Trace == nil || len(res.Trace.Steps) != 2 || string(res.Trace.Steps[1].Vars) != `{"x":"1"}` {
		t.Fatalf("%s %+v", res.Status, res.Trace)
	}
	awaitWarm(t, e)
	if res := startOn(t, e, "x = 1\n", Request{Name: "w.py"}).Wait(); res.Trace != nil || e.warm.taken.Load() != 2 {
		t.Fatalf("an untraced warm run: %+v, %d taken", res.Trace, e.warm.taken.Load())
	}
}
