package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
	"kidcoder/backend/packs"
	"kidcoder/backend/settings"
	"kidcoder/sandbox"
)

var (
	engOnce sync.Once
	engine  *kidrun.Engine
	engErr  error
)

// sandboxEngine is the real sandbox, or a skip when this machine has none.
func sandboxEngine(t *testing.T) *kidrun.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("runs programs in the sandbox")
	}
	engOnce.Do(func() {
		engine, engErr = kidrun.New(kidrun.Options{CacheDir: filepath.Join(os.TempDir(), "kidcoder-mcp-test-cache")})
		if engErr == nil {
			_, engErr = engine.Check(context.Background())
		}
	})
	if errors.Is(engErr, sandbox.ErrUnavailable) || errors.Is(engErr, kidrun.ErrNoPython) {
		t.Skipf("sandbox unavailable: %v", engErr)
	}
	if engErr != nil {
		t.Fatal(engErr)
	}
	return engine
}

// connect serves s to an in-process client of the SDK.
func connect(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.mcp.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func lessonsDir(t *testing.T) (string, *lessons.Library) {
	t.Helper()
	root := t.TempDir()
	lib, err := lessons.NewLibrary(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, lib
}

// testCard stands for the built classroom card, which the command brings.
var testCard = []byte("<!doctype html><title>课堂 card</title>")

// newServer is a server whose runs, unless a call asks for less, have the
// longest time a child's run may (settings.MaxTimeout): the drawings and
// checks run here do real work, whose verdict must not rest on a busy
// machine's speed; the tests of a timeout ask for theirs.
func newServer(t *testing.T, eng *kidrun.Engine, lib *lessons.Library, allowWrite bool) *Server {
	set := settings.Settings{Lang: "en", TimeoutSeconds: settings.MaxTimeout}
	return New(Options{Engine: eng, Settings: set, Lessons: lib, AllowWrite: allowWrite, Card: testCard})
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func TestToolsListed(t *testing.T) {
	_, lib := lessonsDir(t)
	cs := connect(t, newServer(t, nil, lib, false))
	want := []string{"check_lesson", "explain_error", "list_lessons", "read_lesson", "run_python"}
	if got := toolNames(t, cs); !slices.Equal(got, want) {
		t.Fatalf("tools without --allow-write: %v, want %v", got, want)
	}
	lt, _ := cs.ListTools(context.Background(), nil)
	for _, tool := range lt.Tools {
		if tool.Name != "run_python" {
			continue
		}
		ui, _ := tool.Meta["ui"].(map[string]any)
		if ui["resourceUri"] != CardURI {
			t.Errorf("run_python _meta = %v, want ui.resourceUri %s", tool.Meta, CardURI)
		}
		out, _ := tool.OutputSchema.(map[string]any)
		if out["type"] != "object" || out["properties"].(map[string]any)["stdout"] == nil {
			t.Errorf("run_python output schema = %v", tool.OutputSchema)
		}
	}
	// A calling host that ignores the list still cannot write.
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_lesson", Arguments: map[string]any{"path": "a.py", "code": "x"}})
	if err == nil {
		t.Fatal("write_lesson answered without --allow-write")
	}

	cs = connect(t, newServer(t, nil, lib, true))
	if got := toolNames(t, cs); !slices.Contains(got, "write_lesson") {
		t.Fatalf("tools with --allow-write: %v", got)
	}
	// Without a lessons folder only the folder-free tools are there.
	cs = connect(t, newServer(t, nil, nil, true))
	if got := toolNames(t, cs); !slices.Equal(got, []string{"explain_error", "run_python"}) {
		t.Fatalf("tools without a lessons folder: %v", got)
	}
}

// wantInvalid asserts a JSON-RPC invalid-params error mentioning what.
func wantInvalid(t *testing.T, cs *mcp.ClientSession, tool string, args any, what string) {
	t.Helper()
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams || !strings.Contains(we.Message, what) {
		t.Errorf("%s %v: got %v, want invalid params about %q", tool, args, err, what)
	}
}

func TestBadArgumentsAreJSONRPCErrors(t *testing.T) {
	_, lib := lessonsDir(t)
	cs := connect(t, newServer(t, nil, lib, true))
	wantInvalid(t, cs, "run_python", map[string]any{"cod": "print(1)"}, `unknown field "cod"`)
	wantInvalid(t, cs, "run_python", map[string]any{}, `"code" is required`)
	wantInvalid(t, cs, "run_python", map[string]any{"code": 5}, "bad arguments")
	wantInvalid(t, cs, "run_python", map[string]any{"code": "1", "lang": "fr"}, `lang must be "zh" or "en"`)
	wantInvalid(t, cs, "run_python", map[string]any{"code": "1", "timeout_seconds": -1}, "timeout_seconds")
	wantInvalid(t, cs, "run_python", map[string]any{"code": "1", "events": "{not json"}, "events")
	wantInvalid(t, cs, "explain_error", map[string]any{"lang": "zh"}, `"code" is required`)
	wantInvalid(t, cs, "read_lesson", map[string]any{}, `"path" is required`)
	wantInvalid(t, cs, "read_lesson", map[string]any{"path": "../outside.py"}, "read_lesson")
	wantInvalid(t, cs, "write_lesson", map[string]any{"path": "../outside.py", "code": "x"}, "write_lesson")

	big := strings.Repeat("#", MaxCodeBytes+1)
	wantInvalid(t, cs, "run_python", map[string]any{"code": big}, "at most 1 MiB")
	wantInvalid(t, cs, "explain_error", map[string]any{"code": big}, "at most 1 MiB")
	wantInvalid(t, cs, "write_lesson", map[string]any{"code": big, "path": "big.py"}, "at most 1 MiB")
	// Exactly 1 MiB is allowed through the bound (a comment, written as is).
	res := call(t, cs, "write_lesson", map[string]any{"path": "big.py", "code": big[1:]})
	if res.IsError {
		t.Fatalf("a 1 MiB lesson was refused: %s", textOf(res))
	}
}

func TestLessonsReadAndList(t *testing.T) {
	root, lib := lessonsDir(t)
	if err := os.Mkdir(filepath.Join(root, "第1周"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "第1周", "star.py"), []byte("print('⭐')\n"), 0o644)
	os.WriteFile(filepath.Join(root, "第1周", "star.md"), []byte("画一颗星星。\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.py")
	os.WriteFile(outside, []byte("secret"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, newServer(t, nil, lib, false))

	var tree lessons.Node
	structured(t, call(t, cs, "list_lessons", nil), &tree)
	if len(tree.Children) != 1 || tree.Children[0].Name != "第1周" || tree.Children[0].Children[0].Path != "第1周/star.py" {
		t.Fatalf("tree = %+v", tree)
	}
	var l lessonView
	structured(t, call(t, cs, "read_lesson", map[string]any{"path": "第1周/star.py"}), &l)
	if l.Content != "print('⭐')\n" || l.Instructions != "画一颗星星。\n" || l.Version == "" {
		t.Fatalf("read_lesson = %+v", l)
	}
	wantInvalid(t, cs, "read_lesson", map[string]any{"path": "link.py"}, "read_lesson")
	wantInvalid(t, cs, "read_lesson", map[string]any{"path": outside}, "read_lesson")
}

func TestWriteLessonKeepsBoth(t *testing.T) {
	root, lib := lessonsDir(t)
	cs := connect(t, newServer(t, nil, lib, true))
	var w written
	structured(t, call(t, cs, "write_lesson", map[string]any{"path": "hello.py", "code": "print('一')\n"}), &w)
	if b, _ := os.ReadFile(filepath.Join(root, "hello.py")); string(b) != "print('一')\n" || w.AsidePath != "" {
		t.Fatalf("first write: %q, %+v", b, w)
	}
	// Based on the version read: replaced in place.
	structured(t, call(t, cs, "write_lesson", map[string]any{"path": "hello.py", "code": "print('二')\n", "base_version": w.Version}), &w)
	if b, _ := os.ReadFile(filepath.Join(root, "hello.py")); string(b) != "print('二')\n" || w.AsidePath != "" {
		t.Fatalf("second write: %q, %+v", b, w)
	}
	// The child changed it meanwhile: both versions are kept.
	os.WriteFile(filepath.Join(root, "hello.py"), []byte("print('孩子的')\n"), 0o644)
	structured(t, call(t, cs, "write_lesson", map[string]any{"path": "hello.py", "code": "print('三')\n", "base_version": w.Version}), &w)
	if b, _ := os.ReadFile(filepath.Join(root, "hello.py")); string(b) != "print('三')\n" {
		t.Fatalf("after the conflict the lesson holds %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(w.AsidePath))); w.AsidePath == "" || string(b) != "print('孩子的')\n" {
		t.Fatalf("the child's version was not kept: %+v, %q", w, b)
	}
	// Nothing but the two lessons is left behind (no temporary files).
	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 2 {
		t.Fatalf("lessons folder holds %v", names)
	}
}

func TestPromptsAndCard(t *testing.T) {
	cs := connect(t, newServer(t, nil, nil, false))
	ctx := context.Background()
	lp, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range lp.Prompts {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"explain_program", "give_hint", "set_exercise"}) {
		t.Fatalf("prompts = %v", names)
	}
	code := "age = 9\nprint(f\"{age}\")"
	for lang, word := range map[string]string{"zh": "孩子", "en": "child"} {
		gp, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "explain_program", Arguments: map[string]string{"code": code, "age": "9", "lang": lang}})
		if err != nil {
			t.Fatal(err)
		}
		msg := gp.Messages[0].Content.(*mcp.TextContent).Text
		if !strings.Contains(msg, code) || !strings.Contains(msg, word) {
			t.Errorf("explain_program in %s: %s", lang, msg)
		}
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "give_hint", Arguments: map[string]string{"task": "x"}}); err == nil {
		t.Error("give_hint without code answered")
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: CardURI})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].MIMEType != "text/html;profile=mcp-app" || rr.Contents[0].Text != string(testCard) {
		t.Fatalf("card resource = %+v", rr.Contents)
	}
}

func TestRunChineseAndEmoji(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	res := call(t, cs, "run_python", map[string]any{"code": "name = input()\nprint('你好，' + name + ' 🐢')", "stdin": "小明\n"})
	var r kidrun.Result
	structured(t, res, &r)
	if res.IsError || r.Status != "ok" || r.Stdout != "你好，小明 🐢\n" || !strings.Contains(textOf(res), "你好，小明 🐢") {
		t.Fatalf("run: isError=%v %+v %q", res.IsError, r, textOf(res))
	}
}

func TestRunErrorIsExplained(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	res := call(t, cs, "run_python", map[string]any{"code": "print(1)\nprint(nmae)", "lang": "zh"})
	var r kidrun.Result
	structured(t, res, &r)
	if !res.IsError || r.Status != "error" || r.Error == nil || r.Error.Hint == "" || !strings.Contains(textOf(res), r.Error.Hint) {
		t.Fatalf("error run: isError=%v %+v", res.IsError, r)
	}
}

func TestTurtleDrawingIsPNG(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	res := call(t, cs, "run_python", map[string]any{"code": "import turtle\nfor i in range(5):\n    turtle.forward(100)\n    turtle.right(144)\n"})
	var r kidrun.Result
	structured(t, res, &r)
	if len(r.Images) != 1 || r.Images[0].Mime != "image/svg+xml" || r.Images[0].Data != "" {
		t.Fatalf("structured images %+v: the drawing, its data in the content only", r.Images)
	}
	var pngs, svgs int
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.ImageContent:
			img, err := png.Decode(bytes.NewReader(c.Data))
			if err != nil || c.MIMEType != "image/png" {
				t.Fatalf("image %s: %v", c.MIMEType, err)
			}
			if b := img.Bounds(); b.Dx() < 10 || b.Dx() > maxRasterSide || b.Dy() > maxRasterSide {
				t.Fatalf("image bounds %v", b)
			}
			pngs++
		case *mcp.EmbeddedResource:
			if c.Resource.MIMEType != "image/svg+xml" || !strings.HasPrefix(c.Resource.Text, "<svg") {
				t.Fatalf("embedded %+v", c.Resource)
			}
			svgs++
		}
	}
	if pngs != 1 || svgs != 0 || res.IsError {
		t.Fatalf("a drawing gave %d PNGs and %d SVGs (isError %v): %s", pngs, svgs, res.IsError, textOf(res))
	}
}

func TestRunawayLoopIsStopped(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	res := call(t, cs, "run_python", map[string]any{"code": "while True:\n    pass\n", "timeout_seconds": 1})
	var r kidrun.Result
	structured(t, res, &r)
	if !res.IsError || r.Status != "timeout" || r.Limits.WallSeconds != 1 || r.Message == "" || !strings.Contains(textOf(res), r.Message) {
		t.Fatalf("runaway: isError=%v %+v", res.IsError, r)
	}
	// A timeout past the settings' bound is clamped to it.
	res = call(t, cs, "run_python", map[string]any{"code": "print(1)", "timeout_seconds": 3600})
	structured(t, res, &r)
	if r.Limits.WallSeconds != settings.MaxTimeout {
		t.Fatalf("timeout 3600 ran with %v s", r.Limits.WallSeconds)
	}
}

func TestExplainErrorOnlyParses(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	var ex explained
	res := call(t, cs, "explain_error", map[string]any{"code": "for i in range(3)\n    print(i)\n", "lang": "en"})
	structured(t, res, &ex)
	if !ex.SyntaxError || ex.Error == nil || ex.Error.Line == nil || *ex.Error.Line != 1 || ex.Error.Hint == "" || res.IsError {
		t.Fatalf("explain_error: %+v %s", ex, textOf(res))
	}
	// A program that would fail when run is only parsed: no syntax error.
	res = call(t, cs, "explain_error", map[string]any{"code": "import sys\nprint('ran')\nsys.exit(3)\n"})
	structured(t, res, &ex)
	if ex.SyntaxError || ex.Error != nil || strings.Contains(textOf(res), "ran") {
		t.Fatalf("a valid program: %+v %s", ex, textOf(res))
	}
}

func TestCheckLessonOnAPack(t *testing.T) {
	eng := sandboxEngine(t)
	root, lib := lessonsDir(t)
	src, lesson := importScaffoldPack(t, root)
	solution, err := os.ReadFile(filepath.Join(src, "exercises", "square", "solution.py"))
	if err != nil || lesson == "" {
		t.Fatalf("no lesson imported from the pack (%v)", err)
	}
	cs := connect(t, newServer(t, eng, lib, false))

	var c checked
	res := call(t, cs, "check_lesson", map[string]any{"path": lesson, "code": string(solution), "lang": "en"})
	structured(t, res, &c)
	if !c.Passed || len(c.Results) == 0 || !strings.Contains(textOf(res), "Every check passed") {
		t.Fatalf("the solution: %+v %s", c, textOf(res))
	}
	// The saved lesson is the starter, which fails with the teacher's messages.
	res = call(t, cs, "check_lesson", map[string]any{"path": lesson, "lang": "en"})
	structured(t, res, &c)
	failed := c.Failed()
	if c.Passed || len(failed) == 0 || failed[0].Message == "" || !strings.Contains(textOf(res), failed[0].Message) {
		t.Fatalf("the starter: %+v %s", c, textOf(res))
	}
	// A lesson not from a pack has no checks.
	os.WriteFile(filepath.Join(root, "mine.py"), []byte("print(1)\n"), 0o644)
	wantInvalid(t, cs, "check_lesson", map[string]any{"path": "mine.py"}, "exercise pack")
}

// await is the next value from c. Its deadline only turns a hang into a
// failure: a verdict never waits on the clock.
func await[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("still waiting for %s after a minute", what)
		panic("unreachable")
	}
}

// loop runs until it is stopped: a timeout of the settings' longest.
var loop = map[string]any{"code": "while True:\n    pass\n", "timeout_seconds": settings.MaxTimeout}

func TestCancelledRequestStopsItsRun(t *testing.T) {
	s := newServer(t, sandboxEngine(t), nil, false)
	started := make(chan struct{}, 1)
	ended := make(chan *kidrun.Result, 2)
	s.onStart = func() {
		select {
		case started <- struct{}{}:
		default:
		}
	}
	s.onRun = func(r *kidrun.Result) { ended <- r }
	cs := connect(t, s)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_python", Arguments: loop})
		errc <- err
	}()
	await(t, started, "the run to start")
	cancel() // the client sends notifications/cancelled
	if err := await(t, errc, "the cancelled call to return"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The run itself ends, stopped rather than timed out: it had a minute left.
	if r := await(t, ended, "the cancelled run to end"); !r.Stopped || r.Status == "timeout" {
		t.Fatalf("cancelled run: %+v", r)
	}
	// The session's turn is free again.
	res := call(t, cs, "run_python", map[string]any{"code": "print('next')"})
	if res.IsError || textOf(res) != "next\n" {
		t.Fatalf("the call after a cancelled one: isError=%v %q", res.IsError, textOf(res))
	}
}

func TestFullQueueIsBusyError(t *testing.T) {
	s := newServer(t, sandboxEngine(t), nil, false)
	started := make(chan struct{}, MaxWaiting+2)
	queued := make(chan int, 4*MaxWaiting)
	s.onStart = func() { started <- struct{}{} }
	s.onQueue = func(n int) { queued <- n }
	cs := connect(t, s)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_python", Arguments: loop})
		first <- err
	}()
	await(t, started, "the first run to start")

	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	waiters := make(chan answer, MaxWaiting)
	for i := range MaxWaiting {
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_python",
				Arguments: map[string]any{"code": fmt.Sprintf("print(%d)", i)}})
			waiters <- answer{res, err}
		}()
	}
	for n := 0; n < MaxWaiting+1; {
		n = max(n, await(t, queued, "the queue to fill"))
	}

	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_python", Arguments: map[string]any{"code": "print('one too many')"}})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != CodeBusy || !strings.Contains(we.Message, "run_python: 4 programs are already waiting") {
		t.Fatalf("a call past a full queue: %v, want JSON-RPC error %d saying the queue is full", err, CodeBusy)
	}

	// Cancelling the running one lets every waiting one run, in turn.
	cancel()
	if err := await(t, first, "the cancelled call to return"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	var outs []string
	for range MaxWaiting {
		a := await(t, waiters, "a waiting run to finish")
		if a.err != nil || a.res.IsError {
			t.Fatalf("a waiting run: %v %+v", a.err, a.res)
		}
		outs = append(outs, textOf(a.res))
	}
	slices.Sort(outs)
	if want := []string{"0\n", "1\n", "2\n", "3\n"}; !slices.Equal(outs, want) {
		t.Fatalf("waiting runs printed %q, want %q", outs, want)
	}
}

// importScaffoldPack builds the scaffold pack and imports it into the
// lessons folder root: its source folder and the imported lesson's path.
func importScaffoldPack(t *testing.T, root string) (src, lesson string) {
	t.Helper()
	src, file := filepath.Join(t.TempDir(), "pack"), filepath.Join(t.TempDir(), "p.kidpack")
	if err := packs.New(src); err != nil {
		t.Fatal(err)
	}
	if err := packs.BuildFile(src, file); err != nil {
		t.Fatal(err)
	}
	pl, err := packs.Import(file, root, "en")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range pl.Writes {
		if strings.HasSuffix(w, ".py") {
			lesson = w
		}
	}
	return src, lesson
}
