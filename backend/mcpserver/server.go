package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/buildinfo"
	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
	"kidcoder/backend/settings"
	"kidcoder/backend/text"
)

// MaxCodeBytes bounds the code of every tool call, as the window bounds a lesson.
const MaxCodeBytes = lessons.MaxLessonSize

// MaxWaiting is how many runs of one session may wait behind the one running.
const MaxWaiting = 4

// CodeBusy is the JSON-RPC error code of a call refused because MaxWaiting
// runs of its session already wait: a server-defined code (JSON-RPC keeps
// -32000 to -32099 for them), since neither the arguments nor the server are
// at fault and the same call may succeed once the queue drains.
const CodeBusy = -32010

// Options configure a Server.
type Options struct {
	// Engine runs the code; nil when none could be made, and then every
	// tool that would run code answers sandbox_unavailable with the fix.
	Engine *kidrun.Engine
	// EngineErr is why Engine is nil.
	EngineErr error
	Settings  settings.Settings // the window's settings: timeout, language
	// Lessons is the lessons folder; nil leaves out the lesson tools.
	Lessons *lessons.Library
	// AllowWrite adds write_lesson.
	AllowWrite bool
	// Card is the classroom card's HTML (an MCP App), served as CardURI;
	// the command that starts the server brings the built one.
	Card []byte
}

// Server is the MCP server of one kidcoder process.
type Server struct {
	mcp    *mcp.Server
	eng    *kidrun.Engine
	engErr error
	set    settings.Settings
	lib    *lessons.Library
	lang   string
	card   []byte

	mu    sync.Mutex
	gates map[*mcp.ServerSession]*gate

	// onRun, when set (tests), hears every finished run_python run.
	onRun func(*kidrun.Result)
	// onStart, when set (tests), hears every run_python run as it starts.
	onStart func()
	// onQueue, when set (tests), hears how many runs of a session are in
	// its queue (the running one included) each time one joins it.
	onQueue func(n int)
}

// New makes the server with its tools, prompts and the card resource.
func New(opts Options) *Server {
	s := &Server{eng: opts.Engine, engErr: opts.EngineErr, set: opts.Settings.Clamp(), lib: opts.Lessons, gates: map[*mcp.ServerSession]*gate{}, card: opts.Card}
	s.lang = s.set.Lang
	if s.lang == "" {
		s.lang = text.System()
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "kidcoder", Title: "Kid Coder", Version: buildinfo.Version},
		&mcp.ServerOptions{Instructions: text.Get("mcp.instructions", s.lang, nil)})
	s.addRun()
	s.addExplain()
	if s.lib != nil {
		s.addLessons(opts.AllowWrite)
	}
	s.addPrompts()
	s.addCard()
	return s
}

// MCP is the SDK server, for transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t (stdio for `kidcoder mcp`) until it leaves.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error { return s.mcp.Run(ctx, t) }

// gate lets one run of a session go at a time, with at most MaxWaiting behind it.
type gate struct {
	turn    chan struct{} // holds a token while a run goes
	waiting int           // guarded by Server.mu
}

// errBusy is returned when MaxWaiting runs already wait.
var errBusy = errors.New("busy")

// acquire waits for the session's turn; release must follow a nil error.
func (s *Server) acquire(ctx context.Context, ss *mcp.ServerSession) (release func(), err error) {
	s.mu.Lock()
	g := s.gates[ss]
	if g == nil {
		g = &gate{turn: make(chan struct{}, 1)}
		s.gates[ss] = g
	}
	if g.waiting >= MaxWaiting+1 { // the running one counts as waiting until it leaves
		s.mu.Unlock()
		return nil, errBusy
	}
	g.waiting++
	n := g.waiting
	s.mu.Unlock()
	if s.onQueue != nil {
		s.onQueue(n)
	}
	leave := func() {
		s.mu.Lock()
		g.waiting--
		if g.waiting == 0 {
			delete(s.gates, ss)
		}
		s.mu.Unlock()
	}
	select {
	case g.turn <- struct{}{}:
		release := func() { <-g.turn; leave() }
		if err := ctx.Err(); err != nil { // cancelled while it waited: nothing starts
			release()
			return nil, err
		}
		return release, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}

// turn waits for the session's turn to use the sandbox; a full queue is a
// JSON-RPC error saying so.
func (s *Server) turn(ctx context.Context, req *mcp.CallToolRequest, tool, lang string) (func(), error) {
	release, err := s.acquire(ctx, req.Session)
	if errors.Is(err, errBusy) {
		return nil, &jsonrpc.Error{Code: CodeBusy,
			Message: tool + ": " + text.Get("mcp.busy", lang, map[string]string{"n": strconv.Itoa(MaxWaiting)})}
	}
	return release, err
}

// invalid is the JSON-RPC error for bad arguments.
func invalid(format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, a...)}
}

// decode reads a tool's arguments strictly: unknown fields and wrong types
// are JSON-RPC errors naming the tool, never a guess.
func decode(req *mcp.CallToolRequest, v any) error {
	raw := req.Params.Arguments
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytesReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid("%s: bad arguments: %v", req.Params.Name, err)
	}
	return nil
}

// checkCode bounds code to MaxCodeBytes.
func (s *Server) checkCode(tool string, code *string, lang string) error {
	if code == nil {
		return invalid("%s: %q is required", tool, "code")
	}
	if len(*code) > MaxCodeBytes {
		return invalid("%s: %s", tool, text.Get("mcp.too_large", lang, map[string]string{"mib": "1"}))
	}
	return nil
}

// langOf is the language a call asked for, or the settings' one.
func (s *Server) langOf(tool, l string) (string, error) {
	switch l {
	case "":
		return s.lang, nil
	case text.Zh, text.En:
		return l, nil
	}
	return "", invalid("%s: lang must be \"zh\" or \"en\", not %q", tool, l)
}

// timeout is the window's timeout, or the call's clamped as the settings clamp it.
func (s *Server) timeout(sec *float64) time.Duration {
	return kidrun.ClampTimeout(sec, kidrun.SettingsTimeout(s.set))
}
