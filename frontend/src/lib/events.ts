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
// The window is about to close: hand over the editor's unsaved text (CloseReady).
export const EventClosing = 'app:closing';
// A check's next run starts: run n of total (app.CheckProgressEvent).
export const EventCheckProgress = 'check:progress';
// The key the app presses in the window after EventClosing (app.CloseKey),
// behind every key already on its way to the page: once it has come, the
// editor holds every key pressed before the close. WebKitGTK gives it F24's
// key code, and names it "Unidentified" where the keyboard has no F24.
export const CloseKey = 'F24';
const CloseKeyCode = 135;

export function isCloseKey(e: { key: string; keyCode: number }): boolean {
  return e.key === CloseKey || e.keyCode === CloseKeyCode;
}

export type EventName =
  | typeof EventRunOutput
  | typeof EventRunWaiting
  | typeof EventRunInputDone
  | typeof EventRunDone
  | typeof EventRunLive
  | typeof EventStatus
  | typeof EventLessonsChanged
  | typeof EventLessonChanged
  | typeof EventClosing
  | typeof EventCheckProgress;
