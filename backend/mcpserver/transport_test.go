package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/settings"
	"kidcoder/sandbox"
)

// wire is an SDK client talking to s over Stdio, as a host talks to
// `kidcoder mcp`, with a way to slip raw lines onto the server's stdin.
type wire struct {
	cs *mcp.ClientSession
	tr *stdio
	in *io.PipeWriter // the server's stdin; the client writes here too
	// errs hears the replies with a null id (to lines that were not
	// messages): the SDK client cannot read those, so they go here instead.
	errs chan badReply

	mu  sync.Mutex
	ids []string // ids of the responses the client was given
}

// badReply is the server's answer to a line that was not a message.
type badReply struct {
	id string // as JSON
	jsonrpc.Error
}

func newWire(t *testing.T, s *Server) *wire {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cliR, cliW := io.Pipe()
	w := &wire{in: inW, errs: make(chan badReply, 16)}
	w.tr = Stdio(inR, outW).(*stdio)
	ctx := context.Background()
	ss, err := s.mcp.Connect(ctx, w.tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer cliW.Close()
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Error  *jsonrpc.Error  `json:"error"`
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", sc.Bytes())
				return
			}
			// Bad lines are answered with a null id, or the test's own "bad-…" id.
			if string(m.ID) == "null" || strings.HasPrefix(string(m.ID), `"bad-`) {
				w.errs <- badReply{string(m.ID), *m.Error}
				continue
			}
			if m.Method == "" {
				w.mu.Lock()
				w.ids = append(w.ids, string(m.ID))
				w.mu.Unlock()
			}
			cliW.Write(append(sc.Bytes(), '\n'))
		}
	}()
	w.cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: cliR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.cs.Close(); ss.Wait(); outW.Close() })
	return w
}

func TestBadLinesAreAnsweredAndServingGoesOn(t *testing.T) {
	w := newWire(t, newServer(t, nil, nil, false))
	for _, tc := range []struct {
		name, line string
		code       int64
		id         string // the reply's, as JSON
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":"bad-1","method":"tools/list"`, jsonrpc.CodeParseError, "null"},
		{"garbage", `hello?`, jsonrpc.CodeParseError, "null"},
		{"half a UTF-8 line", "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":\"\xe4\xbd", jsonrpc.CodeParseError, "null"},
		{"a string", `"tools/list"`, jsonrpc.CodeInvalidRequest, "null"},
		{"wrong version", `{"jsonrpc":"1.0","id":"bad-2","method":"ping"}`, jsonrpc.CodeInvalidRequest, `"bad-2"`},
		{"a method that is not a string", `{"jsonrpc":"2.0","id":"bad-3","method":5}`, jsonrpc.CodeInvalidRequest, `"bad-3"`},
		{"an object as id", `{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":"bad-4","method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null"},
		{"too long", `{"x":"` + strings.Repeat("长", MaxLineBytes/3) + `"}`, jsonrpc.CodeInvalidRequest, "null"},
	} {
		if _, err := w.in.Write([]byte(tc.line + "\n")); err != nil {
			t.Fatalf("%s: the server stopped reading: %v", tc.name, err)
		}
		if e := await(t, w.errs, "the reply to a bad line"); e.Code != tc.code || e.id != tc.id {
			t.Errorf("%s: reply %s %d %q, want id %s and code %d", tc.name, e.id, e.Code, e.Message, tc.id, tc.code)
		}
		// The session goes on: the next request is answered.
		if got := toolNames(t, w.cs); len(got) != 2 {
			t.Fatalf("after %s: tools %v", tc.name, got)
		}
	}
	// Blank lines are not messages and get no reply.
	w.in.Write([]byte("\n  \r\n"))
	if got := toolNames(t, w.cs); len(got) != 2 {
		t.Fatalf("after blank lines: tools %v", got)
	}
	select {
	case e := <-w.errs:
		t.Fatalf("a blank line was answered: %+v", e)
	default:
	}
}

func TestCancelledCallGetsNoReply(t *testing.T) {
	s := newServer(t, sandboxEngine(t), nil, false)
	started := make(chan struct{}, 1)
	ended := make(chan *kidrun.Result, 1)
	s.onStart = func() {
		select {
		case started <- struct{}{}:
		default:
		}
	}
	s.onRun = func(r *kidrun.Result) {
		select {
		case ended <- r:
		default:
		}
	}
	w := newWire(t, s)
	dropped := make(chan jsonrpc.ID, 1)
	w.tr.onDrop = func(id jsonrpc.ID) { dropped <- id }

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := w.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_python", Arguments: loop})
		errc <- err
	}()
	await(t, started, "the run to start")
	cancel() // the client sends notifications/cancelled
	await(t, errc, "the cancelled call to return")
	if r := await(t, ended, "the cancelled run to end"); !r.Stopped {
		t.Fatalf("the cancelled run was not stopped: %+v", r)
	}
	id := await(t, dropped, "the cancelled call's answer to be dropped")
	// The next call of the session is answered as usual.
	res := call(t, w.cs, "run_python", map[string]any{"code": "print('next')"})
	if res.IsError || textOf(res) != "next\n" {
		t.Fatalf("the call after a cancelled one: isError=%v %q", res.IsError, textOf(res))
	}
	raw, _ := json.Marshal(id.Raw())
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, got := range w.ids {
		if got == string(raw) {
			t.Fatalf("the cancelled call %s was answered (answers: %v)", raw, w.ids)
		}
	}
}

func TestNoSandboxEveryRunningToolSaysWhyAndTheFix(t *testing.T) {
	root, lib := lessonsDir(t)
	_, lesson := importScaffoldPack(t, root)
	why := &sandbox.UnavailableError{Code: "bwrap_missing", Reason: "bwrap is not installed", Fix: "sudo apt install bubblewrap"}
	for _, tc := range []struct {
		name string
		err  error
		fix  string
	}{
		{"no sandbox", fmt.Errorf("%w", why), "sudo apt install bubblewrap"},
		{"no Python", fmt.Errorf("%w: python9 was not found", kidrun.ErrNoPython), "sudo apt install python3"},
	} {
		s := New(Options{EngineErr: tc.err, Settings: settings.Settings{Lang: "zh"}, Lessons: lib, Card: testCard})
		w := newWire(t, s)
		// It serves: the tools are listed.
		if got := toolNames(t, w.cs); len(got) != 5 {
			t.Fatalf("%s: tools %v", tc.name, got)
		}
		for tool, args := range map[string]map[string]any{
			"run_python":    {"code": "print(1)"},
			"explain_error": {"code": "print(1"},
			"check_lesson":  {"path": lesson},
		} {
			res := call(t, w.cs, tool, args)
			var a struct {
				kidrun.Result
				Fix string `json:"fix"`
			}
			structured(t, res, &a)
			if !res.IsError || a.Status != "sandbox_unavailable" || a.Fix != tc.fix || !strings.Contains(textOf(res), tc.fix) ||
				!strings.Contains(textOf(res), "解决办法") {
				t.Errorf("%s, %s: isError=%v %+v %q", tc.name, tool, res.IsError, a, textOf(res))
			}
		}
		// What needs no sandbox still works.
		if res := call(t, w.cs, "list_lessons", nil); res.IsError {
			t.Errorf("%s: list_lessons: %s", tc.name, textOf(res))
		}
	}
}
