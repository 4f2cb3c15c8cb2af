package kidrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"kidcoder/backend/safefile"
)

// Bounds on an events file (docs/contracts.md §3).
const (
	MaxTimelineBytes  = 1 << 20
	MaxTimelineEvents = 10000
	maxTimelineAt     = time.Hour
	// closeAfterLast is when a timeline without "close" closes the drawing:
	// this long after its last event.
	closeAfterLast = time.Second
)

// Timed is one event of a timeline and when it is due, from the start of the run.
type Timed struct {
	At    time.Duration
	Event Event
}

// Timeline is a scripted run's events in the order they are due; it
// always ends with the drawing closing.
type Timeline []Timed

// ErrBadTimeline is returned (wrapped, with the line number) for an events
// file that is not one well-formed event per line.
var ErrBadTimeline = errors.New("not an events file")

// scripted is one line of an events file as written.
type scripted struct {
	AtMS   *float64 `json:"at_ms"`
	Type   string   `json:"type"`
	Key    string   `json:"key"`
	X      *float64 `json:"x"`
	Y      *float64 `json:"y"`
	Button *int     `json:"button"`
	Text   *string  `json:"text"`
}

// ReadTimeline reads an events file the safe way: a regular file, never
// through a link, of at most MaxTimelineBytes.
func ReadTimeline(path string) (Timeline, error) {
	b, err := safefile.ReadFile(path, MaxTimelineBytes)
	if err != nil {
		return nil, err
	}
	return ParseTimeline(b)
}

// ParseTimeline reads one JSON object per line (blank lines are skipped),
// each expanded into the control events it stands for, in the order they
// are due (lines due at the same time keep their order). Without a
// "close", the drawing closes closeAfterLast after the last event.
func ParseTimeline(data []byte) (Timeline, error) {
	if len(data) > MaxTimelineBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrBadTimeline, MaxTimelineBytes)
	}
	var tl Timeline
	lines, closed := 0, false
	for n, raw := range bytes.Split(data, []byte("\n")) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		if lines++; lines > MaxTimelineEvents {
			return nil, fmt.Errorf("%w: more than %d events", ErrBadTimeline, MaxTimelineEvents)
		}
		evs, at, err := parseScripted(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrBadTimeline, n+1, err)
		}
		for _, ev := range evs {
			closed = closed || ev.Type == "close"
			tl = append(tl, Timed{At: at, Event: ev})
		}
	}
	sort.SliceStable(tl, func(i, j int) bool { return tl[i].At < tl[j].At })
	if !closed {
		last := time.Duration(0)
		if len(tl) > 0 {
			last = tl[len(tl)-1].At
		}
		tl = append(tl, Timed{At: last + closeAfterLast, Event: Event{Type: "close"}})
	}
	if _, err := tl.lines(); err != nil {
		return nil, err
	}
	return tl, nil
}

// parseScripted turns one line into its events and their time, checked as
// Run.Send will check them.
func parseScripted(raw []byte) ([]Event, time.Duration, error) {
	var s scripted
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, 0, fmt.Errorf("not one JSON object of known fields: %w", err)
	}
	if dec.More() {
		return nil, 0, errors.New("more than one JSON value on the line")
	}
	if s.AtMS == nil || math.IsNaN(*s.AtMS) || *s.AtMS < 0 || *s.AtMS > float64(maxTimelineAt/time.Millisecond) {
		return nil, 0, errors.New("at_ms is a number of milliseconds from 0 to 3600000")
	}
	at := time.Duration(*s.AtMS * float64(time.Millisecond))
	if err := s.onlyItsFields(); err != nil {
		return nil, 0, err
	}
	evs, err := s.events()
	if err != nil {
		return nil, 0, err
	}
	for _, ev := range evs {
		if _, err := ev.line(); err != nil {
			return nil, 0, err
		}
	}
	return evs, at, nil
}

// onlyItsFields refuses a field that the line's type does not use, so a
// mistyped line is caught instead of played as something else.
func (s scripted) onlyItsFields() error {
	key := s.Key != ""
	point := s.X != nil || s.Y != nil || s.Button != nil
	text := s.Text != nil
	var stray bool
	switch s.Type {
	case "key", "keydown", "keyup":
		stray = point || text
	case "click", "mousedown", "mouseup", "mousemove":
		stray = key || text
	case "answer":
		stray = key || point
	case "close":
		stray = key || point || text
	}
	if stray {
		return errors.New("a field that a " + s.Type + " line does not take")
	}
	return nil
}

// events are the control events one scripted line stands for: a key
// stroke or a click is a press then a release.
func (s scripted) events() ([]Event, error) {
	key := func(down ...bool) []Event {
		var evs []Event
		for _, d := range down {
			evs = append(evs, Event{Type: "key", Key: s.Key, Down: d})
		}
		return evs
	}
	mouse := func(actions ...string) ([]Event, error) {
		if s.X == nil || s.Y == nil {
			return nil, errors.New(s.Type + " needs x and y")
		}
		button := 1
		if s.Button != nil {
			button = *s.Button
		}
		var evs []Event
		for _, a := range actions {
			evs = append(evs, Event{Type: "mouse", Action: a, X: *s.X, Y: *s.Y, Button: button})
		}
		return evs, nil
	}
	switch s.Type {
	case "key":
		return key(true, false), nil
	case "keydown":
		return key(true), nil
	case "keyup":
		return key(false), nil
	case "click":
		return mouse("down", "up")
	case "mousedown":
		return mouse("down")
	case "mouseup":
		return mouse("up")
	case "mousemove":
		return mouse("move")
	case "answer":
		return []Event{{Type: "answer", Text: s.Text}}, nil
	case "close":
		return []Event{{Type: "close"}}, nil
	}
	return nil, fmt.Errorf("%w: the type is key, keydown, keyup, click, mousedown, mouseup, mousemove, answer or close", ErrBadEvent)
}

// lines are the timeline as the runner reads it (docs/runner-protocol.md,
// "Scripted runs"): each event's control line with its at_ms, in order,
// then script_end.
func (tl Timeline) lines() ([][]byte, error) {
	out := make([][]byte, 0, len(tl)+1)
	for _, te := range tl {
		line, err := te.Event.line()
		if err != nil {
			return nil, err
		}
		at := strconv.AppendInt([]byte(`{"at_ms":`), te.At.Milliseconds(), 10)
		line = append(append(at, ','), line[1:]...)
		if len(line) > maxScriptLine {
			return nil, fmt.Errorf("%w: an event line of more than %d bytes", ErrBadTimeline, maxScriptLine)
		}
		out = append(out, line)
	}
	return append(out, []byte(`{"type":"script_end"}`)), nil
}

// maxScriptLine is the longest line of a timeline: the pipe takes it in one
// write, so nothing comes inside it (sandbox.Process.SendControlInOrder).
const maxScriptLine = 4095

// sendScript gives a scripted run its whole timeline as it starts. The
// runner keeps the timeline's clock itself: it plays each event when its
// own clock reaches it and the program can take it (docs/contracts.md §3),
// so nothing here waits on time.
func (r *Run) sendScript(tl Timeline) {
	lines, err := tl.lines()
	if err != nil {
		return // ParseTimeline refuses such a timeline before any run
	}
	// An error means the run ended before it read its timeline: it needs no more of it.
	_ = r.proc.SendControlInOrder(lines)
}
