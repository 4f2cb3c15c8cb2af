package app

import (
	"encoding/json"

	"kidcoder/backend/lessons"
)

// Event names the app emits; mirrored in frontend/src/lib/events.ts.
const (
	EventRunOutput    = "run:output"
	EventRunWaiting   = "run:waiting"
	EventRunInputDone = "run:input-done"
	EventRunDone      = "run:done"
	// EventRunLive carries LiveEvent: a live run's screen, drawing steps,
	// focus, dialog or window-closed frame.
	EventRunLive = "run:live"
	EventStatus  = "sandbox:status"
	// EventLessons carries lessons.ChangedEvent: the tree, or the folder's problem.
	EventLessons = lessons.EventChanged
	// EventLessonChanged carries lessons.LessonChangedEvent about the open lesson.
	EventLessonChanged = lessons.EventLessonChanged
)

// DemoRunID is the run id of the star demo the app starts by itself; the
// window learns it from SandboxStatus.DemoRunID. The ids the window makes
// itself begin with "run-", so they never meet it.
const DemoRunID = "star-demo"

// Emitter sends an event to the frontend. The Wails runtime is one; tests use a fake.
type Emitter interface {
	Emit(event string, data any)
}

// OutputEvent is the payload of EventRunOutput.
type OutputEvent struct {
	RunID  string `json:"runId"`
	Stream string `json:"stream"`
	Text   string `json:"text"`
}

// WaitingEvent is the payload of EventRunWaiting.
type WaitingEvent struct {
	RunID  string `json:"runId"`
	Prompt string `json:"prompt"`
}

// RunEvent is the payload of EventRunInputDone.
type RunEvent struct {
	RunID string `json:"runId"`
}

// DoneEvent is the payload of EventRunDone.
type DoneEvent struct {
	RunID  string `json:"runId"`
	Result any    `json:"result"`
}

// LiveEvent is the payload of EventRunLive: one live frame of the runner
// (docs/runner-protocol.md, "Live frames"), bounded by the host but written
// inside the sandbox: the window only draws and shows it.
type LiveEvent struct {
	RunID string          `json:"runId"`
	Frame json.RawMessage `json:"frame"`
}
