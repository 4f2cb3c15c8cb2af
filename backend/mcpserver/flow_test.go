package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stuckOut is a host's end of the server's stdout that takes the first
// `take` lines and then reads nothing more: every later Write waits until
// the test ends, when it fails.
type stuckOut struct {
	take  int
	lines chan []byte // the lines taken
	mu    sync.Mutex
	n     int
	gone  chan struct{}
}

func (o *stuckOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.n++
	take := o.n <= o.take
	o.mu.Unlock()
	if take {
		o.lines <- append([]byte(nil), p...)
		return len(p), nil
	}
	<-o.gone
	return 0, io.ErrClosedPipe
}

func heapNow() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestClientThatNeverReadsCannotGrowTheServer: a host sends 300,000
// tools/list calls and never reads an answer (the red team's 20,000 made
// the server hold 300 MiB, 274,000 made it 3.8 GiB). The server reads
// MaxInFlight of them, and the few lines its reader buffers, then stops
// reading stdin, so the host's pipe fills and it waits; the heap stays
// flat. The verdict counts lines and bytes, never time: the host's writes
// return only for lines the server took.
func TestClientThatNeverReadsCannotGrowTheServer(t *testing.T) {
	const calls = 300_000
	const heapGuard = 256 << 20 // the old server passes this long before the last call
	for _, tc := range []struct {
		name string
		take int // stdout lines the host reads: the answer to initialize, or none
	}{
		{"after initialize", 1},
		{"not even initialize's answer", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := heapNow()
			inR, inW := io.Pipe()
			out := &stuckOut{take: tc.take, lines: make(chan []byte, 1), gone: make(chan struct{})}
			tr := Stdio(inR, out).(*stdio)
			type pause struct{ open, queued int }
			paused := make(chan pause, 1)
			tr.onPause = func(open, queued int) {
				select {
				case paused <- pause{open, queued}:
				default:
				}
			}
			full := make(chan struct{})
			var fullOnce sync.Once
			tr.onQueued = func(n int) {
				if n == MaxInFlight {
					fullOnce.Do(func() { close(full) })
				}
			}
			ss, err := newServer(t, nil, nil, false).mcp.Connect(context.Background(), tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			var sent atomic.Int64
			line := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", id) }
			hostDone := make(chan error, 1)
			go func() {
				write := func(s string) error { _, err := io.WriteString(inW, s); return err }
				err := write(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}` + "\n")
				if err == nil && tc.take > 0 {
					<-out.lines
				}
				if err == nil {
					err = write(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
				}
				for id := 1; id <= calls && err == nil; id++ {
					if err = write(line(id)); err == nil {
						sent.Add(1)
					}
					if id%5000 == 0 && heapNow() > base+heapGuard {
						err = fmt.Errorf("the heap grew past %d MiB after %d unanswered calls", heapGuard>>20, id)
					}
				}
				hostDone <- err
			}()
			var p pause
			select {
			case p = <-paused:
			case err := <-hostDone:
				if err == nil {
					err = errors.New("the server read every call")
				}
				t.Fatalf("%v, with no answer written: it never stopped reading", err)
			}
			if p.open+p.queued != MaxInFlight {
				t.Errorf("paused with %d open and %d queued, want %d in all", p.open, p.queued, MaxInFlight)
			}
			// Every call read is answered and its answer queued, behind
			// initialize's too when that was not read: an answer the host
			// does not take holds up nothing but itself.
			select {
			case <-full:
			case err := <-hostDone:
				t.Fatalf("the host stopped (%v) before %d answers were queued", err, MaxInFlight)
			}
			took, grown := sent.Load(), int64(heapNow())-int64(base)
			t.Logf("paused with %d answers queued, after taking %d of %d calls; heap %+.1f MiB",
				MaxInFlight, took, calls, float64(grown)/(1<<20))
			// What the reader may hold beyond the calls counted: one message
			// decoded, the line behind it, and a 4 KiB buffer of lines.
			if readAhead := int64(2 + 4096/len(line(calls)) + 1); took > MaxInFlight+readAhead {
				t.Errorf("the server took %d calls, want at most %d + %d", took, MaxInFlight, readAhead)
			}
			if grown > 8<<20 {
				t.Errorf("the heap grew %.1f MiB, want at most 8", float64(grown)/(1<<20))
			}
			inR.CloseWithError(io.ErrClosedPipe)
			close(out.gone)
			<-hostDone
			ss.Wait()
		})
	}
}

// gateOut holds every write until the host opens it, then passes them on.
type gateOut struct {
	open chan struct{}
	w    io.Writer
}

func (g *gateOut) Write(p []byte) (int, error) {
	<-g.open
	return g.w.Write(p)
}

// lateHost is a host that writes lines to the server and reads its answers
// only once the gate opens.
type lateHost struct {
	in      *io.PipeWriter
	tr      *stdio
	gate    *gateOut
	answers chan map[string]any
	queued  chan int
}

func newLateHost(t *testing.T) *lateHost {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &lateHost{in: inW, gate: &gateOut{open: make(chan struct{}), w: outW},
		answers: make(chan map[string]any, 4096), queued: make(chan int, 4096)}
	h.tr = Stdio(inR, h.gate).(*stdio)
	h.tr.onQueued = func(n int) { h.queued <- n }
	ss, err := newServer(t, nil, nil, false).mcp.Connect(context.Background(), h.tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		dec := json.NewDecoder(outR)
		for {
			var m map[string]any
			if dec.Decode(&m) != nil {
				close(h.answers)
				return
			}
			h.answers <- m
		}
	}()
	t.Cleanup(func() { inW.Close(); ss.Wait(); outW.Close() })
	h.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`)
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

func (h *lateHost) send(t *testing.T, line string) {
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		t.Errorf("the server stopped reading: %v", err)
	}
}

// TestHostThatReadsLateGetsEveryAnswer: once the host reads, the server
// reads again, and every one of 1,000 calls sent while it did not read is
// answered once.
func TestHostThatReadsLateGetsEveryAnswer(t *testing.T) {
	h := newLateHost(t)
	const calls = 1000
	sent := make(chan struct{})
	go func() {
		for id := 1; id <= calls; id++ {
			h.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id))
		}
		close(sent)
	}()
	for n := range h.queued {
		if n == MaxInFlight {
			break
		}
	}
	close(h.gate.open)
	seen := map[float64]int{}
	for len(seen) < calls+1 {
		m, ok := <-h.answers
		if !ok {
			t.Fatalf("stdout ended after %d answers", len(seen))
		}
		id, _ := m["id"].(float64)
		if seen[id]++; seen[id] > 1 || m["result"] == nil {
			t.Fatalf("answer %v: %v", id, m)
		}
	}
	<-sent
}

// TestCancelledQueuedAnswerIsDropped: an answer the host cancelled while
// it waited in the queue is never written.
func TestCancelledQueuedAnswerIsDropped(t *testing.T) {
	h := newLateHost(t)
	dropped := make(chan jsonrpc.ID, 1)
	h.tr.onDrop = func(id jsonrpc.ID) { dropped <- id }
	h.send(t, `{"jsonrpc":"2.0","id":"late","method":"tools/list"}`)
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"late"}}`)
	h.send(t, `{"jsonrpc":"2.0","id":"next","method":"tools/list"}`)
	// initialize's answer, then "late" and "next": all three queued, so the
	// cancel, read before "next", found "late" queued or open.
	for n := range h.queued {
		if n == 3 {
			break
		}
	}
	close(h.gate.open)
	var ids []any
	for len(ids) < 2 {
		m := <-h.answers
		ids = append(ids, m["id"])
	}
	if ids[0] != 0.0 || ids[1] != "next" {
		t.Fatalf("answers %v, want initialize's and next's only", ids)
	}
	if id := <-dropped; id.Raw() != "late" {
		t.Fatalf("dropped %v", id.Raw())
	}
}
