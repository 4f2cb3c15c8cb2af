package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// CardURI is the classroom card's resource, shown by hosts beside run_python.
const CardURI = "ui://kidcoder/classroom.html"

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

type runArgs struct {
	Code           *string  `json:"code"`
	Stdin          *string  `json:"stdin"`
	TimeoutSeconds *float64 `json:"timeout_seconds"`
	Lang           string   `json:"lang"`
	Events         string   `json:"events"`
}

func (s *Server) addRun() {
	s.mcp.AddTool(&mcp.Tool{
		Name:         "run_python",
		Title:        "Run Python (Kid Coder sandbox)",
		Description:  text.Get("mcp.tool.run_python", s.lang, nil),
		InputSchema:  runInputSchema,
		OutputSchema: resultSchema,
		Meta:         mcp.Meta{"ui": map[string]any{"resourceUri": CardURI}},
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, s.runPython)
}

func ptr[T any](v T) *T { return &v }

func (s *Server) runPython(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a runArgs
	if err := decode(req, &a); err != nil {
		return nil, err
	}
	lang, err := s.langOf("run_python", a.Lang)
	if err != nil {
		return nil, err
	}
	if err := s.checkCode("run_python", a.Code, lang); err != nil {
		return nil, err
	}
	if a.TimeoutSeconds != nil && !(*a.TimeoutSeconds > 0) {
		return nil, invalid("run_python: timeout_seconds must be a positive number of seconds")
	}
	var tl kidrun.Timeline
	if strings.TrimSpace(a.Events) != "" {
		if tl, err = kidrun.ParseTimeline([]byte(a.Events)); err != nil {
			return nil, invalid("run_python: events: %v", err)
		}
	}
	if err := s.noEngine(); err != nil {
		return unavailable(err, lang), nil
	}
	stdin := []byte{}
	if a.Stdin != nil {
		stdin = []byte(*a.Stdin)
	}
	release, err := s.turn(ctx, req, "run_python", lang)
	if err != nil {
		return nil, err
	}
	defer release()

	policy := kidrun.PolicyFor(s.eng.Policy(), s.timeout(a.TimeoutSeconds))
	run, err := s.eng.Start(ctx, kidrun.Request{Code: []byte(*a.Code), Name: "main.py", Lang: lang, Stdin: stdin, Policy: &policy,
		Live: tl != nil, ReplaySteps: kidrun.MaxReplaySteps}, nil)
	if err != nil {
		return unavailable(err, lang), nil
	}
	// The next run finds a sandbox started ahead, with matplotlib when this one used it.
	s.eng.KeepWarm(kidrun.Warmth{Matplotlib: kidrun.UsesMatplotlib([]byte(*a.Code))})
	if s.onStart != nil {
		s.onStart()
	}
	// A cancelled request (notifications/cancelled) or a closed session stops the run at once.
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case <-ctx.Done():
			run.Stop()
		case <-stopped:
		}
	}()
	if tl != nil {
		go run.Play(ctx, tl)
	}
	res := run.Wait()
	if s.onRun != nil {
		s.onRun(res)
	}
	return runResult(res, lang), nil
}

// unavailable is the result of a tool that would run code when nothing
// can run: never unsandboxed. Its structured content is what `kidcoder run
// --json` says then (status sandbox_unavailable, exit code 3), with the
// command that fixes it as "fix".
func unavailable(err error, lang string) *mcp.CallToolResult {
	fix := fixOf(err)
	msg := text.Get("sandbox.unavailable", lang, map[string]string{"reason": err.Error()})
	if fix != "" {
		msg += "\n" + text.Get("sandbox.fix", lang, map[string]string{"fix": fix})
	}
	res := &kidrun.Result{Status: string(sandbox.StatusUnavailable), ExitCode: exitUnavailable, Images: []kidrun.Image{},
		Error: &kidrun.ErrorInfo{Type: "SandboxUnavailable", Message: err.Error(), Hint: msg}}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}},
		StructuredContent: answer{Result: res, Fix: fix}}
}

// exitUnavailable is the exit code `kidcoder run` gives when nothing can run.
const exitUnavailable = 3

// fixOf is the command that makes err go away, or "" when none is known.
func fixOf(err error) string {
	var ue *sandbox.UnavailableError
	if errors.As(err, &ue) {
		return ue.Fix
	}
	if errors.Is(err, kidrun.ErrNoPython) {
		return "sudo apt install python3"
	}
	return ""
}

// answer is run_python's structured content: the `run --json` object, and
// the fix when the sandbox is unavailable.
type answer struct {
	*kidrun.Result
	Fix string `json:"fix,omitempty"`
}

// errNoEngine stands for a server made without an engine and without a reason.
var errNoEngine = errors.New("no sandbox was set up")

// noEngine is why nothing can run, or nil when the engine is there.
func (s *Server) noEngine() error {
	if s.eng != nil {
		return nil
	}
	if s.engErr != nil {
		return s.engErr
	}
	return errNoEngine
}

// runResult is the tool result of a run: the console and the friendly
// error as text, each drawing and plot as a PNG image (a drawing's SVG
// beside it), and the `kidcoder run --json` object as structured content.
func runResult(res *kidrun.Result, lang string) *mcp.CallToolResult {
	var b strings.Builder
	b.WriteString(res.Stdout)
	if res.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(res.Stderr)
	}
	if res.Error != nil && res.Error.Hint != "" {
		line := ""
		if res.Error.Line != nil {
			line = " " + text.Get("mcp.line", lang, map[string]string{"line": strconv.Itoa(*res.Error.Line)})
		}
		fmt.Fprintf(&b, "\n💡 %s%s\n", res.Error.Hint, line)
	}
	if res.Message != "" {
		fmt.Fprintf(&b, "\n%s\n", res.Message)
	}
	if b.Len() == 0 {
		b.WriteString(text.Get("mcp.no_output", lang, nil))
	}
	content := []mcp.Content{&mcp.TextContent{Text: b.String()}}
	drawings := 0
	for _, im := range res.Images {
		data, err := base64.StdEncoding.DecodeString(im.Data)
		if err != nil {
			continue
		}
		switch im.Mime {
		case "image/png":
			content = append(content, &mcp.ImageContent{MIMEType: "image/png", Data: data})
		case "image/svg+xml":
			drawings++
			if png, err := svgToPNG(string(data)); err == nil {
				content = append(content, &mcp.ImageContent{MIMEType: "image/png", Data: png})
			}
			content = append(content, &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: fmt.Sprintf("kidcoder://run/turtle-%d.svg", drawings), MIMEType: "image/svg+xml", Text: string(data)}})
		}
	}
	return &mcp.CallToolResult{
		Content:           content,
		StructuredContent: res,
		IsError:           res.Status != string(sandbox.StatusOK) || res.ExitCode != 0,
	}
}
