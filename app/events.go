package app

import "kidcoder/backend/lessons"

// Event names the app emits; mirrored in frontend/src/lib/events.ts.
const (
	EventRunOutput    = "run:output"
	EventRunWaiting   = "run:waiting"
	EventRunInputDone = "run:input-done"
	EventRunDone      = "run:done"
	EventStatus       = "sandbox:status"
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
