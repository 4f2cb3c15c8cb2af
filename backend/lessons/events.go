package lessons

import "kidcoder/backend/text"

// Emitter is how the package reports to the UI; the app forwards to the
// Wails runtime, tests record. Emit must not call back into the Library.
type Emitter interface{ Emit(event string, data any) }

// Event names, mirrored in app/events.go and the frontend's events.ts.
const (
	// EventChanged carries a ChangedEvent: the lessons tree as it is now,
	// or the problem with the folder.
	EventChanged = "lessons:changed"
	// EventLessonChanged carries a LessonChangedEvent about the open lesson.
	EventLessonChanged = "lessons:lesson-changed"
)

// ChangedEvent is the payload of EventChanged. It is sent once when
// watching starts and after every change that alters the tree.
type ChangedEvent struct {
	Root    string   `json:"root"`
	Tree    *Node    `json:"tree"`              // nil when Problem is set
	Problem *Problem `json:"problem,omitempty"` // e.g. folder_missing while the folder is gone
}

// Kinds of LessonChangedEvent.
const (
	// LessonReloaded: the open lesson changed on disk and the editor had no
	// unsaved edits; Lesson holds the new content and version.
	LessonReloaded = "reloaded"
	// LessonKeptBoth: the open lesson changed on disk while the editor had
	// unsaved edits. The disk version was copied to AsidePath; the editor
	// keeps its text and should save it with Version as the base.
	LessonKeptBoth = "kept-both"
	// LessonDeleted: the open lesson was deleted or moved away on disk. The
	// editor keeps its text; saving writes the file again.
	LessonDeleted = "deleted"
	// LessonUnreadable: the open lesson became too large, binary or not a
	// plain file (a FIFO or link put in its place); Problem says which. The
	// editor keeps its text.
	LessonUnreadable = "unreadable"
	// LessonRenamed: the open lesson was renamed or moved on disk (the same
	// file, or one new lesson with its content): it is open as NewPath from
	// now on, Version its state there. The editor keeps its text, unsaved
	// edits included, and saves it under NewPath. When the file also changed,
	// a second event for NewPath follows (reloaded or kept-both).
	LessonRenamed = "renamed"
)

// LessonChangedEvent is the payload of EventLessonChanged.
type LessonChangedEvent struct {
	Path      string    `json:"path"`
	Kind      string    `json:"kind"`
	Lesson    *Lesson   `json:"lesson,omitempty"`
	Version   string    `json:"version,omitempty"`
	AsidePath string    `json:"asidePath,omitempty"`
	NewPath   string    `json:"newPath,omitempty"` // LessonRenamed: where the lesson is now
	Message   text.Text `json:"message"`
	Problem   *Problem  `json:"problem,omitempty"`
}
