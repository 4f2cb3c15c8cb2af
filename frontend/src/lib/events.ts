// Mirror of app/events.go: every event the Go app emits, by name.

export const EventRunOutput = 'run:output';
export const EventRunWaiting = 'run:waiting';
export const EventRunInputDone = 'run:input-done';
export const EventRunDone = 'run:done';
// A live run's frame: screen, draw, listen, dialog or bye (docs/runner-protocol.md, "Live frames").
export const EventRunLive = 'run:live';
export const EventStatus = 'sandbox:status';
// The lessons tree as it is now, or the folder's problem.
export const EventLessonsChanged = 'lessons:changed';
// The open lesson changed on disk: reloaded, kept both, deleted or unreadable.
export const EventLessonChanged = 'lessons:lesson-changed';

export type EventName =
  | typeof EventRunOutput
  | typeof EventRunWaiting
  | typeof EventRunInputDone
  | typeof EventRunDone
  | typeof EventRunLive
  | typeof EventStatus
  | typeof EventLessonsChanged
  | typeof EventLessonChanged;
