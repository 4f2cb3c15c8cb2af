package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/packs"
)

// importChecksPack imports the example pack with its exercise's checks
// made n output checks with a stdin each (a run each) and returns the lesson.
func importChecksPack(t *testing.T, root string, n int) string {
	t.Helper()
	src, file := filepath.Join(t.TempDir(), "pack"), filepath.Join(t.TempDir(), "p.kidpack")
	if err := packs.New(src); err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(src, packs.ManifestName)
	b, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var checks []any
	for i := range n {
		checks = append(checks, map[string]any{"type": "output", "stdin": strconv.Itoa(i) + "\n", "expect": "hi", "match": "contains",
			"message": map[string]any{"zh": "再试试。", "en": "Try again."}})
	}
	m["exercises"].([]any)[0].(map[string]any)["checks"] = checks
	b, _ = json.Marshal(m)
	if err := os.WriteFile(mf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := packs.BuildFile(src, file); err != nil {
		t.Fatal(err)
	}
	pl, err := packs.Import(file, root, "en")
	if err != nil {
		t.Fatal(err)
	}
	return pl.Exercises[0].Lesson
}

// connectHearing is connect with a client that passes each progress
// notification to heard.
func connectHearing(t *testing.T, s *Server, heard chan<- *mcp.ProgressNotificationParams) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { heard <- r.Params }})
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func checkParams(lesson, code string) *mcp.CallToolParams {
	p := &mcp.CallToolParams{Name: "check_lesson", Arguments: map[string]any{"path": lesson, "code": code, "lang": "en"}}
	p.SetProgressToken("tok")
	return p
}

// A client that asks with a progress token hears each run of the check
// start, in order, 1 to N, before the result.
func TestCheckLessonProgress(t *testing.T) {
	root, lib := lessonsDir(t)
	lesson := importChecksPack(t, root, 3)
	heard := make(chan *mcp.ProgressNotificationParams, 10)
	cs := connectHearing(t, newServer(t, sandboxEngine(t), lib, false), heard)
	res, err := cs.CallTool(context.Background(), checkParams(lesson, "print('hi')\n"))
	if err != nil || res.IsError {
		t.Fatalf("check_lesson: %v", err)
	}
	var c checked
	structured(t, res, &c)
	if !c.Passed {
		t.Fatalf("the check failed: %s", textOf(res))
	}
	for i := range 3 {
		p := await(t, heard, "a progress notification")
		if p.ProgressToken != "tok" || p.Progress != float64(i) || p.Total != 3 || p.Message != "checking "+strconv.Itoa(i+1)+" of 3…" {
			t.Errorf("notification %d: %+v", i, p)
		}
	}
}

// A cancelled request (notifications/cancelled) stops the check: the run
// going ends and no other starts.
func TestCancelledCheckLessonStops(t *testing.T) {
	root, lib := lessonsDir(t)
	lesson := importChecksPack(t, root, 4)
	heard := make(chan *mcp.ProgressNotificationParams, 10)
	cs := connectHearing(t, newServer(t, sandboxEngine(t), lib, false), heard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, checkParams(lesson, "import time\ntime.sleep(3600)\n"))
		errc <- err
	}()
	if p := await(t, heard, "the first run to start"); p.Progress != 0 {
		t.Fatalf("first notification %+v", p)
	}
	cancel()
	if err := await(t, errc, "the cancelled call to return"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The session's turn is free again only once the check has ended.
	res := call(t, cs, "run_python", map[string]any{"code": "print('next')"})
	if res.IsError || !strings.Contains(textOf(res), "next") {
		t.Fatalf("the call after a cancelled check: %s", textOf(res))
	}
	if n := len(heard); n != 0 {
		t.Errorf("%d more runs of the check started after it was cancelled", n)
	}
}
