package kidrun

import "encoding/json"

// The events a Session emits, by name (docs/app-api.md, "Events"). Their
// payloads are the types below, which the window's types are generated from.
const (
	EventOutput    = "run:output"
	EventWaiting   = "run:waiting"
	EventInputDone = "run:input-done"
	// EventLive carries a live run's screen, drawing steps, focus, dialog
	// or window-closed frame.
	EventLive = "run:live"
	EventDone = "run:done"
)

// DemoRunID is the run id of the star demo a Session starts by itself.
// The ids the window makes itself begin with "run-", so they never meet it.
const DemoRunID = "star-demo"

// OutputEvent is the payload of EventOutput: what the program printed.
type OutputEvent struct {
	RunID  string `json:"runId"`
	Stream string `json:"stream" enum:"stdout,stderr"`
	Text   string `json:"text"`
}

// WaitingEvent is the payload of EventWaiting: the program waits in input().
type WaitingEvent struct {
	RunID  string `json:"runId"`
	Prompt string `json:"prompt"`
}

// InputDoneEvent is the payload of EventInputDone: input() has its line.
type InputDoneEvent struct {
	RunID string `json:"runId"`
}

// LiveEvent is the payload of EventLive: one live frame of the runner
// (docs/runner-protocol.md, "Live frames"), bounded by the host but written
// inside the sandbox, so the window only draws and shows it.
type LiveEvent struct {
	RunID string          `json:"runId"`
	Frame json.RawMessage `json:"frame"`
}

// DoneEvent is the payload of EventDone: the run's result. It is the last
// event of a run; only then may its id be used again.
type DoneEvent struct {
	RunID  string  `json:"runId"`
	Result *Result `json:"result" nonnil:"true"`
}
