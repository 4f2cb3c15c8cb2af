package kidrun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"kidcoder/sandbox"
)

// Trace is the recording of a traced run (Request.Trace): the steps of the
// child's own file in the order they ran (docs/contracts.md §5). It is the
// program's own word, checked and bounded by the host, shown as text and
// never read for a verdict.
type Trace struct {
	Steps []TraceStep `json:"steps" ts:"TraceStep[]"`
	// Truncated: the program passed the step bound and ran on untraced
	// after the last step (§5's {"event": "truncated", "steps": N}).
	Truncated bool `json:"truncated"`
	// Omitted counts the steps left out between a head and a tail of
	// Steps, to keep an answer short (run_python); the window gets them all.
	Omitted int `json:"omitted,omitempty"`
}

// TraceStep is one step of a Trace, as §5 writes it.
type TraceStep struct {
	I     int    `json:"i"`
	Event string `json:"event" enum:"line,call,return,exception" ts:"TraceEvent"`
	Line  int    `json:"line"`
	Func  string `json:"func"`
	// Depth is the call depth in the child's file, 0 at the top level.
	Depth int `json:"depth"`
	// Vars maps the frame's names to repr() of their values, each cut to
	// at most 80 characters, as one JSON object in the order the frame
	// holds them.
	Vars json.RawMessage `json:"vars" ts:"Record<string, string>"`
	// Value is repr() of what a return step returns.
	Value *string `json:"value,omitempty"`
	// Error is the exception's type name on an exception step.
	Error *string `json:"error,omitempty"`
	// Out counts the characters (code points) of standard output written
	// before the step; Draw the drawing steps recorded before it.
	Out  int `json:"out"`
	Draw int `json:"draw"`
}

// Bounds on the trace the host accepts (docs/runner-protocol.md, "Trace
// frames"). The runner keeps to them; a program that forges trace frames
// gets no further.
const (
	MaxTraceSteps  = 100_000  // steps kept at most (§5)
	maxTraceBytes  = 20 << 20 // trace frames read at most, in all
	maxTraceVars   = 64       // names per step
	maxTraceName   = 100      // runes of a name; a longer one is left out
	maxTraceValue  = 80       // runes of a value's text (§5)
	maxTraceFunc   = 100      // runes of a function's name
	maxTraceError  = 100      // runes of an exception's type name
	maxTraceInt    = 1<<31 - 1
	traceArenaSize = 1 << 20 // the steps' vars are kept in chunks of this many bytes
	traceFirst     = 4096    // steps a trace has room for before it needs all MaxTraceSteps
)

// Trace events as they are written (§5), by their one-letter wire names.
var traceEvents = map[string]string{"l": "line", "c": "call", "r": "return", "e": "exception"}

// traceCollector keeps the steps of a traced run's trace frames, checked
// and bounded, in order. The sandbox's one frame goroutine calls add.
type traceCollector struct {
	// The steps: room for traceFirst at the first step, then for
	// MaxTraceSteps once those are full, so a long trace is copied once
	// and only its first traceFirst steps (copying 100,000 steps, pointers
	// and all, cost more than reading them), and a short one takes little.
	steps     []TraceStep
	last      *TraceStep
	truncated bool
	bytes     int
	arena     []byte            // where the steps' vars live
	scratch   []byte            // a step's vars while they are read
	funcs     map[string]string // function names as written -> their text, each kept once
}

// add reads one trace frame. A step that is not as the protocol says is
// left out; a frame that cannot be read is left out from there on.
func (t *traceCollector) add(payload []byte) {
	if t.truncated {
		return
	}
	if t.bytes+len(payload) > maxTraceBytes {
		t.truncated = true
		return
	}
	t.bytes += len(payload)
	const head, tail = `{"type":"trace","steps":[`, `]}`
	body, ok := bytes.CutPrefix(payload, []byte(head))
	if !ok {
		return
	}
	body, ok = bytes.CutSuffix(body, []byte(tail))
	if !ok {
		return
	}
	s := scanner{b: body}
	for first := true; ; first = false {
		if s.eof() {
			return
		}
		if !first && !s.expect(',') {
			return
		}
		if !s.expect('[') {
			return
		}
		ev, ok := s.str()
		if !ok {
			return
		}
		if ev == "t" { // ["t", N]: the runner stopped recording after N steps
			t.truncated = true
			return
		}
		st, keep, ok := t.step(&s, ev)
		if !ok || !s.expect(']') {
			return
		}
		if !keep {
			continue
		}
		if len(t.steps) >= MaxTraceSteps {
			t.truncated = true
			return
		}
		st.I = len(t.steps)
		if t.last != nil {
			// Both only grow (§5), whatever the frame says.
			st.Out = max(st.Out, t.last.Out)
			st.Draw = max(st.Draw, t.last.Draw)
		}
		if len(t.steps) == cap(t.steps) {
			room := traceFirst
			if t.steps != nil {
				room = MaxTraceSteps
			}
			t.steps = append(make([]TraceStep, 0, room), t.steps...)
		}
		t.steps = append(t.steps, st)
		t.last = &t.steps[len(t.steps)-1]
	}
}

// step reads the rest of one step after its event; keep is false for a
// step that is left out, ok false when the frame cannot be read on.
func (t *traceCollector) step(s *scanner, ev string) (st TraceStep, keep, ok bool) {
	event, known := traceEvents[ev]
	st.Event = event
	var fn []byte
	if !s.expect(',') {
		return st, false, false
	}
	if st.Line, ok = s.int(); !ok || !s.expect(',') {
		return st, false, false
	}
	if fn, ok = s.rawStr(); !ok || !s.expect(',') {
		return st, false, false
	}
	if st.Depth, ok = s.int(); !ok || !s.expect(',') {
		return st, false, false
	}
	if st.Vars, ok = t.vars(s); !ok || !s.expect(',') {
		return st, false, false
	}
	if st.Out, ok = s.int(); !ok || !s.expect(',') {
		return st, false, false
	}
	if st.Draw, ok = s.int(); !ok {
		return st, false, false
	}
	if ev == "r" || ev == "e" {
		if !s.expect(',') {
			return st, false, false
		}
		v, ok := s.str()
		if !ok {
			return st, false, false
		}
		if ev == "r" {
			v = cutText(v, maxTraceValue)
			st.Value = &v
		} else {
			v = cutText(v, maxTraceError)
			st.Error = &v
		}
	}
	if !known || st.Line < 0 || st.Depth < 0 || st.Out < 0 || st.Draw < 0 {
		return st, false, true
	}
	st.Func = t.intern(fn)
	return st, true, true
}

// intern is the text of a function name as written, each kept once (a
// loop repeats its own).
func (t *traceCollector) intern(raw []byte) string {
	if f, ok := t.funcs[string(raw)]; ok {
		return f
	}
	fn := cutText(unquote(raw), maxTraceFunc)
	if t.funcs == nil {
		t.funcs = map[string]string{}
	}
	if len(t.funcs) < 4096 {
		t.funcs[string(raw)] = fn
	}
	return fn
}

// vars reads a step's {"name": "text", ...} and writes it again, checked:
// at most maxTraceVars names, each at most maxTraceName runes (a longer one
// is left out), each text cut to maxTraceValue runes. The result lives in
// the arena.
func (t *traceCollector) vars(s *scanner) (json.RawMessage, bool) {
	if !s.expect('{') {
		return nil, false
	}
	out := append(t.scratch[:0], '{')
	n := 0
	if !s.peek('}') {
		for {
			name, ok := s.rawStr()
			if !ok || !s.expect(':') {
				return nil, false
			}
			val, ok := s.rawStr()
			if !ok {
				return nil, false
			}
			if n < maxTraceVars && fits(name, maxTraceName) {
				if n > 0 {
					out = append(out, ',')
				}
				out = appendJSONText(out, name, maxTraceName)
				out = append(out, ':')
				out = appendJSONText(out, val, maxTraceValue)
				n++
			}
			if !s.peek(',') {
				break
			}
			s.i++
		}
	}
	if !s.expect('}') {
		return nil, false
	}
	out = append(out, '}')
	t.scratch = out
	if len(out) == 2 {
		return emptyVars, true
	}
	return t.keep(out), true
}

// emptyVars is the vars of a step without names.
var emptyVars = json.RawMessage("{}")

// keep copies b into the arena and returns the copy.
func (t *traceCollector) keep(b []byte) json.RawMessage {
	if len(t.arena)+len(b) > cap(t.arena) {
		t.arena = make([]byte, 0, max(traceArenaSize, len(b)))
	}
	start := len(t.arena)
	t.arena = append(t.arena, b...)
	return json.RawMessage(t.arena[start:len(t.arena):len(t.arena)])
}

// result is the trace as the run's result carries it.
func (t *traceCollector) result() *Trace {
	return &Trace{Steps: t.steps, Truncated: t.truncated}
}

// scanner reads the little JSON a trace frame holds. It is strict: any
// byte it does not expect ends the frame.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) eof() bool { return s.i >= len(s.b) }

func (s *scanner) peek(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

func (s *scanner) expect(c byte) bool {
	if s.peek(c) {
		s.i++
		return true
	}
	return false
}

// int reads a whole number 0..maxTraceInt (or -1 for a negative one, which
// its step rejects).
func (s *scanner) int() (int, bool) {
	neg := s.expect('-')
	start := s.i
	n := 0
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		if s.i-start >= 10 {
			return 0, false
		}
		n = n*10 + int(s.b[s.i]-'0')
		s.i++
	}
	if s.i == start || n > maxTraceInt || (s.b[start] == '0' && s.i-start > 1) {
		return 0, false
	}
	if neg {
		return -1, true
	}
	return n, true
}

// rawStr reads one JSON string and returns it as it is written, quotes
// and escapes included, once it is known to be a valid one.
func (s *scanner) rawStr() ([]byte, bool) {
	if !s.peek('"') {
		return nil, false
	}
	start := s.i
	s.i++
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			raw := s.b[start:s.i]
			return raw, utf8.Valid(raw)
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return nil, false
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
					return nil, false
				}
				s.i += 6
			default:
				return nil, false
			}
		case c < 0x20:
			return nil, false
		default:
			s.i++
		}
	}
	return nil, false
}

// str reads one JSON string's text.
func (s *scanner) str() (string, bool) {
	raw, ok := s.rawStr()
	if !ok {
		return "", false
	}
	return unquote(raw), true
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// unquote is the text of a valid JSON string.
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var v string
	_ = json.Unmarshal(raw, &v) // rawStr has checked it
	return v
}

// fits is whether a valid JSON string's text has at most n runes.
func fits(raw []byte, n int) bool {
	if len(raw)-2 <= n {
		return true
	}
	return utf8.RuneCountInString(unquote(raw)) <= n
}

// appendJSONText appends the JSON string raw, its text cut to n runes. A
// string the runner wrote within the bound goes as it is.
func appendJSONText(out, raw []byte, n int) []byte {
	if len(raw)-2 <= n && bytes.IndexByte(raw, '\\') < 0 {
		return append(out, raw...)
	}
	return appendString(out, cutText(unquote(raw), n))
}

// tracing is the sandbox's handler of a traced run: trace frames go to the
// trace, everything else to the run's collector.
type tracing struct {
	*collector
	trace *traceCollector
}

func (h tracing) Frame(payload []byte) {
	if frameType(payload) == "trace" {
		h.trace.add(payload)
		return
	}
	h.collector.Frame(payload)
}

// handler is the sandbox's handler for a run of req: its collector, with
// trace (nil for a run without one) in front.
func handler(coll *collector, trace *traceCollector) sandbox.Handler {
	if trace == nil {
		return coll
	}
	return tracing{coll, trace}
}

// newTrace is the trace collector of a run of req; nil when none was asked for.
func newTrace(req Request) *traceCollector {
	if !req.Trace {
		return nil
	}
	return &traceCollector{}
}

// cutText is s as valid UTF-8 in at most n runes, an ellipsis ending one
// that was longer (as the runner cuts, python/kidtrace.py).
func cutText(s string, n int) string {
	s = ValidText([]byte(s))
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// WriteJSONL writes t as `kidcoder run --trace` does (docs/contracts.md
// §5): one JSON object per step, then {"event": "truncated", "steps": N}
// when the recording stopped at a bound.
func (t *Trace) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i := range t.Steps {
		b = t.Steps[i].appendJSON(b[:0])
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	if t.Truncated {
		fmt.Fprintf(bw, "{\"event\":\"truncated\",\"steps\":%d}\n", len(t.Steps)+t.Omitted)
	}
	return bw.Flush()
}

// appendJSON appends the step as json.Marshal writes it (without HTML
// escapes), by hand: a trace has up to MaxTraceSteps of them.
func (st *TraceStep) appendJSON(b []byte) []byte {
	b = append(b, `{"i":`...)
	b = strconv.AppendInt(b, int64(st.I), 10)
	b = append(b, `,"event":"`...)
	b = append(b, st.Event...)
	b = append(b, `","line":`...)
	b = strconv.AppendInt(b, int64(st.Line), 10)
	b = append(b, `,"func":`...)
	b = appendString(b, st.Func)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(st.Depth), 10)
	b = append(b, `,"vars":`...)
	if len(st.Vars) == 0 {
		b = append(b, "{}"...)
	} else {
		b = append(b, st.Vars...)
	}
	if st.Value != nil {
		b = append(b, `,"value":`...)
		b = appendString(b, *st.Value)
	}
	if st.Error != nil {
		b = append(b, `,"error":`...)
		b = appendString(b, *st.Error)
	}
	b = append(b, `,"out":`...)
	b = strconv.AppendInt(b, int64(st.Out), 10)
	b = append(b, `,"draw":`...)
	b = strconv.AppendInt(b, int64(st.Draw), 10)
	return append(b, '}')
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
