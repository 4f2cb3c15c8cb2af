package app

import (
	"encoding/json"
	"os"
	"sync"
	"time"
)

// LogEvents wraps shell so that every event is also appended to path as one
// JSON line. End-to-end tests read it to see what the real app did.
func LogEvents(shell Shell, path string) Shell {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return shell
	}
	return &eventLog{Shell: shell, f: f}
}

type eventLog struct {
	Shell
	mu sync.Mutex
	f  *os.File
}

func (l *eventLog) Emit(event string, data any) {
	l.Shell.Emit(event, data)
	l.Note(event, data)
}

// Note appends a line for something the window did that is not an event
// to the page (its page loaded, say), so a test that fails can tell how far
// the window got.
func (l *eventLog) Note(event string, data any) {
	line, err := json.Marshal(map[string]any{"name": event, "data": data, "at": time.Now().UnixMilli()})
	if err != nil {
		return
	}
	l.mu.Lock()
	l.f.Write(append(line, '\n'))
	l.mu.Unlock()
}
