package kidrun

import (
	"sync"
	"time"
)

// Bounds on how often a run's output reaches the window. Each event costs
// the webview a script evaluation and a wake-up however little it carries,
// so a program printing line by line is sent as one event a frame or so.
const (
	outputEvery    = 33 * time.Millisecond
	outputMaxBytes = 64 << 10
	// outputGather is how long a line waits for more lines once the
	// interval has passed. Output that does not end a line waits the whole
	// interval for the rest of it: print writes its arguments, separators
	// and newline one by one, and a slow machine may read them one by one.
	outputGather = 3 * time.Millisecond
)

type outChunk struct {
	stream string
	text   []byte // grown in place: a flood arrives in many small pieces
}

// batcher passes a run's output on in order: at most once per
// interval, a finished line no later than gather after the interval has
// passed (so a single print is not held back), an unfinished one after a
// whole interval, and anything as soon as maxBytes wait. Flush sends what
// waits; call it before any other event of the run so order is kept.
type batcher struct {
	emit     func(stream, text string)
	interval time.Duration
	gather   time.Duration
	maxBytes int

	mu      sync.Mutex // held while emitting, so a timer's flush and a caller's never interleave
	pending []outChunk
	size    int
	last    time.Time
	timer   *time.Timer
	due     time.Time // when timer fires
}

func newBatcher(emit func(stream, text string)) *batcher {
	return &batcher{emit: emit, interval: outputEvery, gather: outputGather, maxBytes: outputMaxBytes}
}

func (t *batcher) Output(stream, text string) {
	if text == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := len(t.pending); n > 0 && t.pending[n-1].stream == stream {
		t.pending[n-1].text = append(t.pending[n-1].text, text...)
	} else {
		t.pending = append(t.pending, outChunk{stream, []byte(text)})
	}
	t.size += len(text)
	if t.size >= t.maxBytes {
		t.flushLocked()
		return
	}
	wait := t.interval
	if text[len(text)-1] == '\n' {
		wait = max(t.gather, t.interval-time.Since(t.last))
	}
	due := time.Now().Add(wait)
	if t.timer != nil {
		if !due.Before(t.due) || !t.timer.Stop() {
			return // the timer comes soon enough, or is firing now
		}
	}
	t.timer, t.due = time.AfterFunc(wait, t.Flush), due
}

// Flush sends all output waiting now.
func (t *batcher) Flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
}

func (t *batcher) flushLocked() {
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	if len(t.pending) == 0 {
		return
	}
	for _, c := range t.pending {
		t.emit(c.stream, string(c.text))
	}
	t.pending, t.size, t.last = nil, 0, time.Now()
}
