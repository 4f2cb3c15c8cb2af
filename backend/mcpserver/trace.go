package mcpserver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
)

// Bounds of a trace in run_python's answer (trace: true). The structured
// content keeps a head and a tail of the steps within about these many
// bytes; the text block shows fewer, one short line a step.
const (
	traceHeadBytes = 24 << 10
	traceTailBytes = 24 << 10
	traceTextSteps = 40  // steps of the head, and of the tail, in the text
	traceLineRunes = 160 // a step's line in the text
)

// compactTrace is a run's trace as run_python answers it: all its steps
// when they are few, else a head and a tail of them with Omitted saying how
// many are left out between; and those steps as text, fewer still, for the
// text block. A nil trace gives nil and "".
func compactTrace(t *kidrun.Trace, lang string) (*kidrun.Trace, string) {
	if t == nil {
		return nil, ""
	}
	steps := t.Steps
	head := keptSteps(steps, traceHeadBytes, false)
	tail := 0
	if head < len(steps) {
		tail = keptSteps(steps[head:], traceTailBytes, true)
	}
	out := &kidrun.Trace{Truncated: t.Truncated, Omitted: t.Omitted + len(steps) - head - tail}
	out.Steps = append(append(make([]kidrun.TraceStep, 0, head+tail), steps[:head]...), steps[len(steps)-tail:]...)

	var b strings.Builder
	total := len(steps) + t.Omitted
	b.WriteString(text.Get("mcp.trace.head", lang, map[string]string{"n": strconv.Itoa(total)}))
	b.WriteByte('\n')
	shownHead, shownTail := min(head, traceTextSteps), min(tail, traceTextSteps)
	if shownHead == head && tail > 0 && head+tail <= 2*traceTextSteps {
		shownTail = tail // all the structured content has, when it is little
	}
	for _, st := range steps[:shownHead] {
		writeStep(&b, st)
	}
	if left := total - shownHead - shownTail; left > 0 {
		b.WriteString(text.Get("mcp.trace.cut", lang, map[string]string{"n": strconv.Itoa(left)}))
		b.WriteByte('\n')
	}
	for _, st := range steps[len(steps)-shownTail:] {
		writeStep(&b, st)
	}
	if t.Truncated {
		b.WriteString(text.Get("mcp.trace.truncated", lang, nil))
		b.WriteByte('\n')
	}
	return out, b.String()
}

// keptSteps is how many steps, from the start (or from the end), fit in
// about budget bytes of JSON.
func keptSteps(steps []kidrun.TraceStep, budget int, fromEnd bool) int {
	used := 0
	for n := range steps {
		st := steps[n]
		if fromEnd {
			st = steps[len(steps)-1-n]
		}
		size := 90 + len(st.Func) + len(st.Vars)
		if st.Value != nil {
			size += len(*st.Value) + 12
		}
		if st.Error != nil {
			size += len(*st.Error) + 12
		}
		if used += size; used > budget {
			return n
		}
	}
	return len(steps)
}

// writeStep writes one step as a line a tutor reads at a glance:
// "#12 L3 fact(n=1) return → 1", indented by its depth.
func writeStep(b *strings.Builder, st kidrun.TraceStep) {
	var line strings.Builder
	fmt.Fprintf(&line, "%s#%d L%d %s", strings.Repeat("  ", min(st.Depth, 8)), st.I, st.Line, st.Func)
	// The names in the frame's order, as the trace keeps them.
	dec := json.NewDecoder(strings.NewReader(string(st.Vars)))
	var parts []string
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		for dec.More() {
			k, err1 := dec.Token()
			v, err2 := dec.Token()
			ks, ok1 := k.(string)
			vs, ok2 := v.(string)
			if err1 != nil || err2 != nil || !ok1 || !ok2 {
				break
			}
			parts = append(parts, ks+"="+vs)
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(&line, "(%s)", strings.Join(parts, ", "))
	}
	if st.Event != "line" {
		line.WriteString(" " + st.Event)
	}
	if st.Value != nil {
		line.WriteString(" → " + *st.Value)
	}
	if st.Error != nil {
		line.WriteString(" ✗ " + *st.Error)
	}
	s := line.String()
	if utf8.RuneCountInString(s) > traceLineRunes {
		s = string([]rune(s)[:traceLineRunes-1]) + "…"
	}
	b.WriteString(s)
	b.WriteByte('\n')
}
