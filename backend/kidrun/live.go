package kidrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// Event is one input event for a live run: a key, the pointer, the drawing
// closing, or the answer to a dialog (docs/runner-protocol.md, "Control lines").
type Event struct {
	// Type is "key", "mouse", "close", "answer", "pace", "finish", "pause"
	// or "resume".
	Type string `json:"type"`
	// Key is a Tk keysym ("Up", "space", "a", "Return") for "key".
	Key string `json:"key,omitempty"`
	// Down is true for a press, false for a release ("key").
	Down bool `json:"down,omitempty"`
	// Action is "down", "up" or "move" for "mouse".
	Action string `json:"action,omitempty"`
	// X and Y are turtle world coordinates ("mouse").
	X float64 `json:"x,omitempty"`
	Y float64 `json:"y,omitempty"`
	// Button is 1, 2 or 3 ("mouse").
	Button int `json:"button,omitempty"`
	// Text is the answer to a dialog; nil when the child cancelled ("answer").
	Text *string `json:"text,omitempty"`
	// Speed is how many times CPython's pace the turtle draws at ("pace",
	// settings.MinPace to MaxPace); "finish" drops pacing for the rest of the run.
	Speed float64 `json:"speed,omitempty"`
}

// Bounds on an event's fields.
const (
	maxKeyLen     = 32
	maxAnswerRune = 2000
	maxCoordinate = 1e9
)

// ErrBadEvent is returned by Send for an event that is not well formed.
var ErrBadEvent = errors.New("not a well-formed event")

// ErrNotLive is returned by Send for a run that was not started Live.
var ErrNotLive = errors.New("the run does not take events")

// line is the event as its control line: the one JSON object the runner
// reads, holding only the fields of its type.
func (e Event) line() ([]byte, error) {
	bad := func(why string) ([]byte, error) { return nil, fmt.Errorf("%w: %s", ErrBadEvent, why) }
	var v any
	switch e.Type {
	case "key":
		if !keysym(e.Key) {
			return bad("a key is 1 to 32 letters, digits or _")
		}
		v = struct {
			Type string `json:"type"`
			Key  string `json:"key"`
			Down bool   `json:"down"`
		}{e.Type, e.Key, e.Down}
	case "mouse":
		if e.Action != "down" && e.Action != "up" && e.Action != "move" {
			return bad("a mouse action is down, up or move")
		}
		if e.Button < 1 || e.Button > 3 {
			return bad("a mouse button is 1, 2 or 3")
		}
		for _, c := range []float64{e.X, e.Y} {
			if math.IsNaN(c) || math.Abs(c) > maxCoordinate {
				return bad("coordinates are numbers within ±1e9")
			}
		}
		v = struct {
			Type   string  `json:"type"`
			Action string  `json:"action"`
			X      float64 `json:"x"`
			Y      float64 `json:"y"`
			Button int     `json:"button"`
		}{e.Type, e.Action, e.X, e.Y, e.Button}
	case "close", "pause", "resume":
		v = struct {
			Type string `json:"type"`
		}{e.Type}
	case "answer":
		if e.Text != nil && (!utf8.ValidString(*e.Text) || utf8.RuneCountInString(*e.Text) > maxAnswerRune) {
			return bad("an answer is valid text of at most 2000 characters")
		}
		v = struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}{e.Type, e.Text}
	case "pace", "finish":
		return e.paceLine()
	default:
		return bad("the type is key, mouse, close, answer, pace, finish, pause or resume")
	}
	return json.Marshal(v) // json escapes newlines: one line
}

// keysym reports whether k looks like a Tk keysym: 1 to 32 ASCII letters, digits or '_'.
func keysym(k string) bool {
	if k == "" || len(k) > maxKeyLen {
		return false
	}
	for _, c := range []byte(k) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// LiveObserver is an Observer that also hears a live run's frames (screen,
// draw, listen, dialog, bye): each is the runner's JSON object, bounded in
// size but otherwise as the program's side wrote it, so nothing in it may
// decide anything.
type LiveObserver interface {
	Observer
	Live(frame json.RawMessage)
}

// Send gives a live run one event. It never blocks for long: a program that
// does not take its events loses the event instead (ErrControlFull).
func (r *Run) Send(ev Event) error {
	if !r.live {
		return ErrNotLive
	}
	line, err := ev.line()
	if err != nil {
		return err
	}
	return r.proc.SendControl(line)
}
