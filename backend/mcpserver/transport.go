package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one message on stdin, as the SDK's own transport does.
const MaxLineBytes = mcp.DefaultMaxLineLength

// MaxInFlight bounds the calls of a session read and not yet answered on
// stdout, with the messages queued for it: past it, stdin is not read
// until an answer is written (see flow).
const MaxInFlight = 16

// Stdio is the transport of `kidcoder mcp`: the SDK's newline-delimited JSON
// over r and w, behind two guards a desktop host needs.
//
// The SDK ends the session at the first line it cannot decode, so every
// line is checked before the SDK reads it: one that is not JSON gets a
// JSON-RPC -32700 reply, one that is JSON but not a JSON-RPC message (or a
// batch, which MCP no longer has) gets -32600 (with its id when it has a
// usable one), and the server goes on.
//
// The SDK answers a cancelled call once its handler returns, while MCP says
// a cancelled request gets no response: the answer to a call the client
// cancelled (notifications/cancelled) before it was written is dropped.
//
// A client that sends calls and does not read the answers is not read
// from either once MaxInFlight calls wait for theirs, so it can never grow
// the server (see flow).
func Stdio(r io.Reader, w io.Writer) mcp.Transport {
	out := &lockedWriter{w: w}
	return &stdio{
		inner: &mcp.IOTransport{Reader: io.NopCloser(&lineGuard{in: bufio.NewReader(r), out: out}), Writer: out},
	}
}

type stdio struct {
	inner mcp.Transport
	// onDrop, when set (tests), hears the id of every answer dropped.
	onDrop func(jsonrpc.ID)
	// onPause, when set (tests), hears how many calls are open (read, not
	// yet answered) and how many messages are queued each time reading
	// stops for MaxInFlight.
	onPause func(open, queued int)
	// onQueued, when set (tests), hears the queue's length each time a
	// message joins it.
	onQueued func(queued int)
}

func (t *stdio) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newFlow(c, t), nil
}

// lockedWriter keeps the guard's replies and the SDK's messages whole: each
// writes one line in one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// lineGuard passes on only the lines the SDK can read, and answers the rest.
type lineGuard struct {
	in      *bufio.Reader
	out     io.Writer
	pending []byte // a checked line, with its newline, not yet read
	err     error
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		line, tooLong, err := readLine(g.in, MaxLineBytes)
		g.err = err
		if tooLong {
			g.reply(jsonrpc.CodeInvalidRequest, "the message is longer than the most one line may hold (16 MiB)", nil)
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if code, msg := check(line); code != 0 {
			g.reply(code, msg, idOf(line))
			continue
		}
		g.pending = append(line, '\n')
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// readLine reads up to and without the next newline. A line past max is
// read to its end and dropped (tooLong), so one huge line costs no memory.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// check is 0 for a line the SDK reads as one message, else the JSON-RPC
// error code and message of the reply.
func check(line []byte) (code int, msg string) {
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, "parse error: the line is not JSON"
	}
	if line[0] == '[' {
		return jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported (MCP has none since 2025-06-18)"
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return 0, ""
}

// idOf is the id of a line that is JSON but not a message, when it has
// one a client could be waiting on (a number or a string), else nil.
func idOf(line []byte) any {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	if id, err := jsonrpc.MakeID(m.ID); err != nil || !id.IsValid() {
		return nil
	}
	return m.ID
}

// reply writes a JSON-RPC error for a line the SDK could not read, with
// the line's id when it has one (so the call it was fails rather than
// waits), else null, as JSON-RPC asks.
func (g *lineGuard) reply(code int, msg string, id any) {
	b, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: int64(code), Message: msg}})
	g.out.Write(append(b, '\n'))
}

// flow is the connection of one stdio session. It keeps the server's
// memory flat whatever the client does: a call counts from when it is read
// until its answer is written on stdout, and once MaxInFlight are counted
// no more is read from stdin until one is written, so a client that sends
// and never reads fills its own pipe and waits, instead of the server
// holding its replies. Answers are queued and written in order by one
// goroutine, never by the handler that made them, so an answer the client
// does not take never holds up the SDK's reading of the next message (the
// SDK handles notifications and initialize one at a time, behind it).
//
// It also drops the answer to a call its client cancelled before it was
// written.
//
// Nothing here waits on the client's answers to the server's own calls
// (the server makes none): while reading is paused they would not be read.
type flow struct {
	mcp.Connection
	t *stdio

	mu sync.Mutex
	// open holds the calls read whose answer is not yet queued, true once
	// cancelled. Only open or queued calls can be cancelled, so an id is
	// never held past its answer and a client that reuses it is answered.
	open  map[jsonrpc.ID]bool
	queue []queued // handed to Write, not yet written; the first may be being written
	// room is closed, and replaced, each time open or queue shrinks.
	room   chan struct{}
	werr   error         // the first write that failed; every later Write fails with it
	wake   chan struct{} // tells the writer the queue has work
	done   chan struct{} // closed by Close
	closed bool
}

type queued struct {
	msg       jsonrpc.Message
	id        jsonrpc.ID // the call answered, for a response
	cancelled bool
}

func newFlow(c mcp.Connection, t *stdio) *flow {
	f := &flow{Connection: c, t: t, open: map[jsonrpc.ID]bool{}, room: make(chan struct{}),
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go f.writeLoop()
	return f
}

// pending is how many calls and messages hold memory now. Call with mu held.
func (c *flow) pending() int { return len(c.open) + len(c.queue) }

// freed tells waiters there is room. Call with mu held.
func (c *flow) freed() {
	close(c.room)
	c.room = make(chan struct{})
}

// waitRoom returns once fewer than MaxInFlight calls and messages are
// pending, or writing failed (then nothing is held any more).
func (c *flow) waitRoom(ctx context.Context) error {
	paused := false
	for {
		c.mu.Lock()
		open, queued, room := len(c.open), len(c.queue), c.room
		ok := c.pending() < MaxInFlight || c.werr != nil
		c.mu.Unlock()
		if ok {
			return nil
		}
		if !paused && c.t.onPause != nil {
			c.t.onPause(open, queued)
		}
		paused = true
		select {
		case <-room:
		case <-ctx.Done():
			return ctx.Err()
		case <-c.done:
			return io.EOF
		}
	}
}

func (c *flow) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := c.waitRoom(ctx); err != nil {
		return nil, err
	}
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		c.mu.Lock()
		switch {
		case req.IsCall():
			c.open[req.ID] = false
		case req.Method == "notifications/cancelled":
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(req.Params, &p) == nil {
				if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
					c.cancel(id)
				}
			}
		}
		c.mu.Unlock()
	}
	return msg, err
}

// cancel marks the call id cancelled, open or queued. Call with mu held.
func (c *flow) cancel(id jsonrpc.ID) {
	if _, ok := c.open[id]; ok {
		c.open[id] = true
		return
	}
	for i := range c.queue {
		if q := &c.queue[i]; q.id == id && q.id.IsValid() {
			q.cancelled = true
		}
	}
}

// Write queues msg and returns: an answer always (its call was counted when
// read), a message of the server's own when there is room. A notification
// (progress, say) finding the queue full is dropped, since the client is
// not reading; a call of the server's waits for room.
func (c *flow) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	for {
		c.mu.Lock()
		if c.werr != nil || c.closed {
			err := c.werr
			c.mu.Unlock()
			if err == nil {
				err = io.ErrClosedPipe
			}
			return err
		}
		q := queued{msg: msg}
		if isResp {
			cancelled, open := c.open[resp.ID]
			if open {
				delete(c.open, resp.ID)
				q.id, q.cancelled = resp.ID, cancelled
			}
		} else if len(c.queue) >= MaxInFlight {
			room := c.room
			c.mu.Unlock()
			if req, ok := msg.(*jsonrpc.Request); ok && !req.IsCall() {
				return nil
			}
			select {
			case <-room:
				continue
			case <-ctx.Done():
				return ctx.Err()
			case <-c.done:
				return io.ErrClosedPipe
			}
		}
		c.queue = append(c.queue, q)
		n := len(c.queue)
		c.mu.Unlock()
		if c.t.onQueued != nil {
			c.t.onQueued(n)
		}
		select {
		case c.wake <- struct{}{}:
		default:
		}
		return nil
	}
}

// writeLoop writes the queue in order until Close. After a write fails the
// queue is dropped, as nothing more can reach the client.
func (c *flow) writeLoop() {
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.mu.Unlock()
			select {
			case <-c.wake:
				continue
			case <-c.done:
				return
			}
		}
		q := c.queue[0]
		c.mu.Unlock()
		var err error
		if q.cancelled {
			if c.t.onDrop != nil {
				c.t.onDrop(q.id)
			}
		} else {
			err = c.Connection.Write(context.Background(), q.msg)
		}
		c.mu.Lock()
		c.queue[0] = queued{}
		c.queue = c.queue[1:]
		if err != nil && c.werr == nil {
			c.werr, c.queue = err, nil
		}
		c.freed()
		c.mu.Unlock()
	}
}

// Close writes what is queued, as the SDK's own writes would have been
// done by now, then closes the connection.
func (c *flow) Close() error {
	c.mu.Lock()
	for len(c.queue) > 0 && c.werr == nil {
		room := c.room
		c.mu.Unlock()
		<-room
		c.mu.Lock()
	}
	if !c.closed {
		c.closed = true
		close(c.done)
	}
	c.mu.Unlock()
	return c.Connection.Close()
}
