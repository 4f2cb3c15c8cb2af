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

// unavailable is the result when nothing could run: never unsandboxed.
func unavailable(err error, lang string) *mcp.CallToolResult {
	msg := text.Get("sandbox.unavailable", lang, map[string]string{"reason": err.Error()})
	var ue *sandbox.UnavailableError
	if errors.As(err, &ue) && ue.Fix != "" {
		msg += "\n" + text.Get("sandbox.fix", lang, map[string]string{"fix": ue.Fix})
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
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
