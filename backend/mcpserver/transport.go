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
}

func (t *stdio) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &dropCancelled{Connection: c, open: map[jsonrpc.ID]bool{}, t: t}, nil
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

// dropCancelled drops the answer to a call its client cancelled.
type dropCancelled struct {
	mcp.Connection
	mu sync.Mutex
	// open holds the calls read and not yet answered, true once cancelled.
	// Only open calls can be cancelled, so an id is never held past its
	// answer and a client that reuses it is answered.
	open map[jsonrpc.ID]bool
	t    *stdio
}

func (c *dropCancelled) Read(ctx context.Context) (jsonrpc.Message, error) {
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
					if _, ok := c.open[id]; ok {
						c.open[id] = true
					}
				}
			}
		}
		c.mu.Unlock()
	}
	return msg, err
}

func (c *dropCancelled) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		cancelled, open := c.open[resp.ID]
		if open {
			delete(c.open, resp.ID)
		}
		c.mu.Unlock()
		if cancelled {
			if c.t.onDrop != nil {
				c.t.onDrop(resp.ID)
			}
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}
