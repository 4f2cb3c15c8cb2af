package kidrun

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"

	"kidcoder/sandbox"
)

// Bounds on what the host accepts from the runner's result frame. Frames come
// from inside the sandbox, so the child could have forged them: they only
// ever add pictures and an explanation, never decide the verdict.
const (
	maxImages      = 64
	maxPromptRunes = 2000
	maxTextRunes   = 4000
	maxLiveFrame   = 1 << 20  // one live frame (docs/runner-protocol.md, "Live frames")
	maxLiveDraw    = 48 << 20 // all draw frames of one run
)

// report is the runner's last well-formed result frame, cleaned.
type report struct {
	Error   *ErrorInfo
	Images  []Image
	Drawing json.RawMessage
	Notices []string
	Checks  []CheckResult
}

// collector turns the sandbox's byte streams and frames into text events and
// the runner's report. The sandbox calls it from one goroutine; output goes
// to the observer through the run's one batcher, which sends what it holds
// before any other event, and the run's state through its state gate.
type collector struct {
	obs     Observer
	live    LiveObserver // obs, when it hears live frames; else nil
	out     *batcher     // the run's output on its way to obs
	state   *stateGate   // waiting, input done and listen on their way to obs
	drawing *liveGate    // screen, draw, dialog and bye on their way to live; nil without live
	silent  bool         // no observer: output is not passed on
	pending [3][]byte    // an incomplete UTF-8 sequence held back per stream
	rep     report
	// drawBytes counts the live draw frames passed on; past maxLiveDraw the
	// window gets no more and shows the final picture when the run ends.
	drawBytes int
}

func newCollector(obs Observer) *collector {
	c := &collector{}
	if obs == nil {
		// Nobody hears the run as it happens (the result has the output):
		// no text is decoded or batched for it.
		obs, c.silent = nopObserver{}, true
	}
	// The batcher's and the state gate's timers send too: one at a time,
	// as an Observer is promised.
	ser := &serialObserver{obs: obs}
	c.obs = ser
	if lo, ok := obs.(LiveObserver); ok {
		ser.live, c.live = lo, ser
	}
	c.out = newBatcher(c.obs.Output)
	c.state = newStateGate(c.obs, c.live, c.out.Flush)
	if c.live != nil {
		c.drawing = newLiveGate(c.live, c.out.Flush)
	}
	return c
}

func (c *collector) Output(s sandbox.Stream, data []byte) {
	if c.silent {
		return
	}
	i := 1
	name := "stdout"
	if s == sandbox.Stderr {
		i, name = 2, "stderr"
	}
	buf := append(c.pending[i], data...)
	cut := completeUTF8(buf)
	c.pending[i] = append([]byte(nil), buf[cut:]...)
	if cut > 0 {
		c.out.Output(name, ValidText(buf[:cut]))
	}
}

// dropCut forgets the bytes held back when the output bound ended the run:
// they start a character the bound cut off, which shown would read "�".
func (c *collector) dropCut() { c.pending[1], c.pending[2] = nil, nil }

// flush hands over bytes held back at the end of a stream (invalid then,
// so replaced) and all output the batcher holds, sends the drawing's
// frames that wait, and closes the state gate: the result says how the
// run ended.
func (c *collector) flush() {
	for i, name := range [3]string{"", "stdout", "stderr"} {
		if i > 0 && len(c.pending[i]) > 0 {
			c.out.Output(name, ValidText(c.pending[i]))
			c.pending[i] = nil
		}
	}
	if c.drawing != nil {
		c.drawing.close()
	}
	c.state.close()
	c.out.Flush()
}

func (c *collector) Frame(payload []byte) {
	// The type first: each type's fields are read only for that type, so
	// a live frame's own fields (a dialog's "error": false) never clash
	// with the result's.
	switch kind := frameType(payload); kind {
	case "listen":
		if len(payload) <= maxLiveFrame && json.Valid(payload) {
			c.state.listen(json.RawMessage(append([]byte(nil), payload...)))
		}
		return
	case "loop", "pointer":
		return // what the program can take now: the runner plays a timeline by it itself
	case "dialog":
		c.liveFrame(kind, payload)
		return
	case "screen", "draw", "bye":
		c.liveFrame(kind, payload)
		return
	}
	var f struct {
		Type    string          `json:"type"`
		Prompt  string          `json:"prompt"`
		Error   *ErrorInfo      `json:"error"`
		Images  []Image         `json:"images"`
		Drawing json.RawMessage `json:"drawing"`
		Notices []string        `json:"notices"`
		Checks  []CheckResult   `json:"checks"`
	}
	if err := json.Unmarshal(payload, &f); err != nil {
		return
	}
	switch f.Type {
	// The input frames only tell the window to show or hide the answer
	// box: the sandbox's clocks go by what the host sees, never by frames.
	case "input":
		c.state.input(clip(f.Prompt, maxPromptRunes))
	case "input_done":
		c.state.inputDone()
	case "result":
		rep := report{Error: f.Error.clean()}
		for _, im := range f.Images {
			if len(rep.Images) < maxImages && im.valid() {
				rep.Images = append(rep.Images, im)
			}
		}
		// Unmarshal has checked the whole frame, the drawing in it too.
		if len(f.Drawing) > 0 && !bytes.Equal(f.Drawing, []byte("null")) {
			rep.Drawing = f.Drawing
		}
		for _, n := range f.Notices {
			if len(rep.Notices) < 20 {
				rep.Notices = append(rep.Notices, clip(n, maxTextRunes))
			}
		}
		for _, ch := range f.Checks {
			if len(rep.Checks) < MaxCheckFiles {
				rep.Checks = append(rep.Checks, CheckResult{OK: ch.OK, Message: clip(ch.Message, maxTextRunes)})
			}
		}
		c.rep = rep
	}
}

// frameType is a frame's "type". The runner writes it first, and reading
// it from there spares a pass over a result frame of many megabytes; any
// other frame is read whole. Either way the type only picks how the frame
// is read next, and that reading checks it in full.
func frameType(payload []byte) string {
	const head = `{"type":"`
	if rest, ok := bytes.CutPrefix(payload, []byte(head)); ok {
		if end := bytes.IndexByte(rest, '"'); end > 0 && end <= 16 && bytes.IndexByte(rest[:end], '\\') < 0 {
			return string(rest[:end])
		}
	}
	var kind struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(payload, &kind) != nil {
		return ""
	}
	return kind.Type
}

// liveFrame passes a live frame on to a LiveObserver, within the frame and draw bounds.
func (c *collector) liveFrame(kind string, payload []byte) {
	if c.live == nil || len(payload) > maxLiveFrame || !json.Valid(payload) {
		return
	}
	if kind == "draw" {
		if c.drawBytes+len(payload) > maxLiveDraw {
			return
		}
		c.drawBytes += len(payload)
	}
	c.drawing.frame(kind, payload)
}

func (c *collector) report() report { return c.rep }

// completeUTF8 returns how much of b can be decoded now: all of it but a
// trailing sequence that the next chunk may complete.
func completeUTF8(b []byte) int {
	for back := 1; back <= 3 && back <= len(b); back++ {
		c := b[len(b)-back]
		if c < 0x80 {
			return len(b)
		}
		if c >= 0xF5 || c == 0xC0 || c == 0xC1 {
			return len(b) // never valid: nothing to wait for
		}
		if c >= 0xC2 { // a lead byte: is its sequence complete?
			need := 2
			switch {
			case c >= 0xF0:
				need = 4
			case c >= 0xE0:
				need = 3
			}
			if back < need {
				return len(b) - back
			}
			return len(b)
		}
	}
	return len(b)
}

// ValidText is b as UTF-8 text with invalid bytes replaced by U+FFFD.
func ValidText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

func clip(s string, runes int) string {
	s = ValidText([]byte(s))
	if utf8.RuneCountInString(s) <= runes {
		return s
	}
	r := []rune(s)
	return string(r[:runes]) + "…"
}

// serialObserver makes the calls of several goroutines into one Observer
// one at a time; live is set when the Observer is a LiveObserver.
type serialObserver struct {
	mu   sync.Mutex
	obs  Observer
	live LiveObserver
}

func (s *serialObserver) Output(stream, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.obs.Output(stream, text)
}

func (s *serialObserver) Waiting(prompt string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.obs.Waiting(prompt)
}

func (s *serialObserver) InputDone() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.obs.InputDone()
}

func (s *serialObserver) Live(frame json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live.Live(frame)
}

type nopObserver struct{}

func (nopObserver) Output(string, string) {}
func (nopObserver) Waiting(string)        {}
func (nopObserver) InputDone()            {}
