package app

import (
	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
)

// Event names the app emits; the run events are the session's
// (kidrun.Event*), and the window's names are generated from them.
const (
	EventRunOutput    = kidrun.EventOutput
	EventRunWaiting   = kidrun.EventWaiting
	EventRunInputDone = kidrun.EventInputDone
	EventRunDone      = kidrun.EventDone
	EventRunLive      = kidrun.EventLive
	EventStatus       = "sandbox:status"
	// EventLessons carries lessons.ChangedEvent: the tree, or the folder's problem.
	EventLessons = lessons.EventChanged
	// EventLessonChanged carries lessons.LessonChangedEvent about the open lesson.
	EventLessonChanged = lessons.EventLessonChanged
	// EventClosing asks the window, which is about to close, for the
	// editor's unsaved text; it answers with CloseReady. No payload.
	EventClosing = "app:closing"
)

// DemoRunID is the run id of the star demo the app starts by itself; the
// window learns it from SandboxStatus.DemoRunID.
const DemoRunID = kidrun.DemoRunID

// Emitter sends an event to the frontend. The Wails runtime is one; tests use a fake.
type Emitter interface {
	Emit(event string, data any)
}

// The run events' payloads, defined by the run engine.
type (
	OutputEvent  = kidrun.OutputEvent
	WaitingEvent = kidrun.WaitingEvent
	RunEvent     = kidrun.InputDoneEvent
	DoneEvent    = kidrun.DoneEvent
	LiveEvent    = kidrun.LiveEvent
)
