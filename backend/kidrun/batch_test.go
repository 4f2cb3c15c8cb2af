package kidrun

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// sink records what a throttle emits and signals each emit.
type sink struct {
	mu   sync.Mutex
	got  []outChunk
	each chan struct{}
}

func newSink() *sink { return &sink{each: make(chan struct{}, 1024)} }

func (s *sink) emit(stream, text string) {
	s.mu.Lock()
	s.got = append(s.got, outChunk{stream, []byte(text)})
	s.mu.Unlock()
	s.each <- struct{}{}
}

func (s *sink) events() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.got {
		out = append(out, c.stream+":"+string(c.text))
	}
	return out
}

func TestOutputThrottle(t *testing.T) {
	tests := []struct {
		name   string
		writes [][2]string
		before []string // sent before Flush
		after  []string // sent by Flush
	}{
		{"pieces wait and join", [][2]string{{"stdout", "a\n"}, {"stdout", "b\n"}, {"stdout", "c\n"}}, nil, []string{"stdout:a\nb\nc\n"}},
		{"streams keep their order", [][2]string{{"stdout", "a"}, {"stdout", "b"}, {"stderr", "E"}, {"stdout", "c"}}, nil, []string{"stdout:ab", "stderr:E", "stdout:c"}},
		{"empty pieces are nothing", [][2]string{{"stdout", ""}, {"stdout", "x"}, {"stdout", ""}}, nil, []string{"stdout:x"}},
		{"past the byte bound it goes at once", [][2]string{{"stdout", "a"}, {"stdout", strings.Repeat("z", 10)}, {"stdout", "b"}}, []string{"stdout:a" + strings.Repeat("z", 10)}, []string{"stdout:b"}},
		{"nothing waiting, nothing sent", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSink()
			// Timers of an hour never fire during the test: only the bound and Flush send.
			th := &batcher{emit: s.emit, interval: time.Hour, gather: time.Hour, maxBytes: 8}
			for _, w := range tc.writes {
				th.Output(w[0], w[1])
			}
			if got := s.events(); strings.Join(got, "|") != strings.Join(tc.before, "|") {
				t.Fatalf("before Flush: emitted %q, want %q", got, tc.before)
			}
			th.Flush()
			if got := s.events()[len(tc.before):]; strings.Join(got, "|") != strings.Join(tc.after, "|") {
				t.Fatalf("by Flush: emitted %q, want %q", got, tc.after)
			}
		})
	}
}

// TestOutputThrottleTimer: a print is sent by the timer after the gather
// time; what comes within the interval after it waits for the interval.
func TestOutputThrottleTimer(t *testing.T) {
	s := newSink()
	th := &batcher{emit: s.emit, interval: 200 * time.Millisecond, gather: time.Millisecond, maxBytes: 1 << 20}
	next := func() time.Time {
		select {
		case <-s.each:
		case <-time.After(5 * time.Second):
			t.Fatalf("the waiting output was never sent: %q", s.events())
		}
		return time.Now()
	}
	th.Output("stdout", "hi")
	th.Output("stdout", "\n")
	first := next()
	for i := 0; i < 1000; i++ {
		th.Output("stdout", "line\n")
	}
	if took := next().Sub(first); took < 150*time.Millisecond {
		t.Errorf("the second event came %v after the first, sooner than the interval", took)
	}
	th.Flush() // nothing left: no third event
	got := s.events()
	if len(got) != 2 || got[0] != "stdout:hi\n" || got[1] != "stdout:"+strings.Repeat("line\n", 1000) {
		t.Fatalf("emitted %d events: %.60q", len(got), got)
	}
}

// TestOutputThrottleWaitsForTheLine: the pieces of one print come as one
// event however slowly they are read, and output that ends no line is
// sent after the interval.
func TestOutputThrottleWaitsForTheLine(t *testing.T) {
	s := newSink()
	th := &batcher{emit: s.emit, interval: 100 * time.Millisecond, gather: time.Millisecond, maxBytes: 1 << 20}
	start := time.Now()
	th.Output("stdout", "UP")
	time.Sleep(10 * time.Millisecond) // a slow reader: the pieces come apart
	th.Output("stdout", " (10.00,0.00)")
	th.Output("stdout", "\n")
	select {
	case <-s.each:
	case <-time.After(5 * time.Second):
		t.Fatal("the line was never sent")
	}
	if took := time.Since(start); took >= 100*time.Millisecond {
		t.Errorf("a finished line waited %v, the whole interval", took)
	}
	th.Output("stdout", "name? ")
	unfinished := time.Now()
	select {
	case <-s.each:
	case <-time.After(5 * time.Second):
		t.Fatal("the unfinished line was never sent")
	}
	if took := time.Since(unfinished); took < 90*time.Millisecond {
		t.Errorf("an unfinished line went after %v, before the interval", took)
	}
	if got := s.events(); strings.Join(got, "|") != "stdout:UP (10.00,0.00)\n|stdout:name? " {
		t.Fatalf("emitted %q", got)
	}
}

// A flood of small pieces is a handful of events, and all of it arrives.
func TestOutputThrottleFlood(t *testing.T) {
	s := newSink()
	th := newBatcher(s.emit)
	var want strings.Builder
	for i := 0; i < 100000; i++ {
		line := strings.Repeat("x", i%7) + "\n"
		want.WriteString(line)
		th.Output("stdout", line)
	}
	th.Flush()
	var got strings.Builder
	for _, e := range s.events() {
		got.WriteString(strings.TrimPrefix(e, "stdout:"))
	}
	if got.String() != want.String() {
		t.Fatalf("the output changed on the way: %d bytes sent, %d received", want.Len(), got.Len())
	}
	if n := len(s.events()); n > 2+want.Len()/outputMaxBytes+int(time.Second/outputEvery)*10 {
		t.Errorf("%d events for %d bytes", n, want.Len())
	}
}

// callRecorder is an Observer that keeps every output call.
type callRecorder struct {
	mu    sync.Mutex
	calls int
	out   []outChunk
}

func (r *callRecorder) Output(stream, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.out = append(r.out, outChunk{stream, []byte(text)})
}
func (r *callRecorder) Waiting(string) {}
func (r *callRecorder) InputDone()     {}

// TestOutputCoalescedInOrder: a run's output reaches its observer batched
// by the engine's one batcher, the two streams in the order they were written.
func TestOutputCoalescedInOrder(t *testing.T) {
	e := testEngine(t)
	rec := &callRecorder{}
	// Two pipes have no common order; the pauses let each write arrive
	// before the next, so arrival order is write order.
	code := `import sys, time
for i in range(3000):
    print("o%d" % i, flush=True)
for i in range(3):
    time.sleep(0.3)
    print("e%d" % i, file=sys.stderr, flush=True)
    time.sleep(0.3)
    print("x%d" % i, flush=True)
`
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "order.py", Stdin: []byte{}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Wait(); res.Status != "ok" {
		t.Fatalf("%s %q", res.Status, res.Stderr)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.calls >= 3000 {
		t.Errorf("%d observer calls for 3000 flushed lines: not coalesced", rec.calls)
	}
	var seq []string
	for _, c := range rec.out {
		for _, l := range strings.Fields(string(c.text)) {
			if l[0] == 'e' || l[0] == 'x' {
				seq = append(seq, l)
			}
		}
	}
	// Each stderr line was written (and flushed) well before the next stdout line.
	if got := strings.Join(seq, " "); got != "e0 x0 e1 x1 e2 x2" {
		t.Errorf("order across streams: %s", got)
	}
}
