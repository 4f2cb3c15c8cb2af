package kidrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"kidcoder/backend/safefile"
	"kidcoder/sandbox"
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

// Play sends the timeline's events to a live run, each when it is due,
// counted from when the program's code began to run (the sandbox's and
// the interpreter's start, which a busy machine stretches, do not count).
// An event waits until the program can take it (a key until listen(), a
// click or drag until its handler is set, an answer until its dialog
// asks, the close until the program takes input or waits in mainloop();
// readiness.takes), as a child in the window acts only on what the
// program shows, and the rest of the timeline moves by that wait: a slow
// machine plays the same game. It returns once every event was offered
// or the run or ctx is over; dropped counts the events the program did
// not take in time (its control pipe was full), which are lost as a flood
// of key repeats would be.
func (r *Run) Play(ctx context.Context, tl Timeline) (dropped int, err error) {
	if !r.live {
		return 0, ErrNotLive
	}
	var origin time.Time
	if _, err := r.await(ctx, func() (bool, <-chan struct{}) {
		at, changed := r.coll.ready.started()
		origin = at
		return !at.IsZero(), changed
	}); err != nil {
		return 0, playEnded(err)
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var shift time.Duration
	answered := 0
	for _, te := range tl {
		timer.Reset(time.Until(origin.Add(te.At + shift)))
		select {
		case <-timer.C:
		case <-r.done:
			return dropped, nil
		case <-ctx.Done():
			return dropped, ctx.Err()
		}
		waited, err := r.await(ctx, func() (bool, <-chan struct{}) { return r.coll.ready.takes(te.Event, answered) })
		if err != nil {
			return dropped, playEnded(err)
		}
		shift += waited
		if te.Event.Type == "answer" {
			answered++
		}
		switch err := r.Send(te.Event); {
		case errors.Is(err, sandbox.ErrControlFull):
			dropped++
		case err != nil:
			return dropped, nil // the program no longer reads events: it is ending
		}
	}
	return dropped, nil
}

// errRunOver is await's error when the run ended first.
var errRunOver = errors.New("the run is over")

// await returns once ready() holds, and how long that took (0 when it held
// at once); ready's channel is closed when it should be asked again. It
// gives up when the run ends (errRunOver) or ctx does (ctx's error).
func (r *Run) await(ctx context.Context, ready func() (bool, <-chan struct{})) (time.Duration, error) {
	ok, changed := ready()
	if ok {
		return 0, nil
	}
	from := time.Now()
	for !ok {
		select {
		case <-changed:
		case <-r.done:
			return 0, errRunOver
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		ok, changed = ready()
	}
	return time.Since(from), nil
}

// playEnded is what Play returns for await's error: nothing when the run
// ended first, as when it ends between two events.
func playEnded(err error) error {
	if errors.Is(err, errRunOver) {
		return nil
	}
	return err
}
