// Every event the Go app emits, by name (app/events.go). The run's events are
// the run engine's and come from the generated contract.

import { EventRunDone, EventRunInputDone, EventRunLive, EventRunOutput, EventRunWaiting } from './contract.gen';

// A run's printed output, its input() waits, a live run's frames (screen,
// draw, listen, dialog or bye: docs/runner-protocol.md, "Live frames") and its result.
export { EventRunDone, EventRunInputDone, EventRunLive, EventRunOutput, EventRunWaiting };
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
