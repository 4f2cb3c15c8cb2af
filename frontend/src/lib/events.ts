// Mirror of app/events.go: every event the Go app emits, by name.

export const EventRunOutput = 'run:output';
export const EventRunWaiting = 'run:waiting';
export const EventRunInputDone = 'run:input-done';
export const EventRunDone = 'run:done';
export const EventStatus = 'sandbox:status';
// Reserved for the lessons watcher; nothing listens yet.
export const EventLessonsChanged = 'lessons:changed';

export type EventName =
  | typeof EventRunOutput
  | typeof EventRunWaiting
  | typeof EventRunInputDone
  | typeof EventRunDone
  | typeof EventStatus
  | typeof EventLessonsChanged;
