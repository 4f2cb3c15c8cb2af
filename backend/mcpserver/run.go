package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
	Trace          bool     `json:"trace"`
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
		Timeline: tl, ReplaySteps: kidrun.MaxReplaySteps, Trace: a.Trace}, nil)
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

// runResult is the tool result of a run, sized for a chat host (about 25k
// tokens): the console and the friendly error as text, cut to a head and
// a tail; each drawing and plot once, as a PNG image block (a drawing
// rasterized from its checked SVG); and as structured content the
// `kidcoder run --json` object with stdout and stderr cut the same way and
// each image's data left empty: the images with empty data are, in order,
// the content's image blocks (docs/mcp.md). A drawing too complex to
// rasterize within its budget is left out of both and said in words. The
// drawing's replay steps stay unless the answer would pass maxAnswerBytes.
func runResult(res *kidrun.Result, lang string) *mcp.CallToolResult {
	console := res.Stdout
	if res.Stderr != "" {
		if console != "" && !strings.HasSuffix(console, "\n") {
			console += "\n"
		}
		console += res.Stderr
	}
	var b strings.Builder
	b.WriteString(cut(console, lang))
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
	out := *res
	out.Stdout, out.Stderr = cut(res.Stdout, lang), cut(res.Stderr, lang)
	var steps string
	out.Trace, steps = compactTrace(res.Trace, lang)
	b.WriteString(steps)
	out.Images = make([]kidrun.Image, 0, len(res.Images))
	var pictures []mcp.Content
	size := 2*b.Len() + len(out.Stdout) + len(out.Stderr) + len(out.Drawing)
	for _, im := range res.Images {
		data, err := base64.StdEncoding.DecodeString(im.Data)
		if err == nil && im.Mime == "image/svg+xml" {
			data, err = svgToPNG(string(data))
		}
		if errors.Is(err, errTooComplex) {
			// Left out, said in words: drawing it would hold up the queue.
			msg := text.Get("mcp.picture_complex", lang, nil)
			fmt.Fprintf(&b, "\n%s\n", msg)
			out.Notices = append(slices.Clip(out.Notices), msg)
			continue
		}
		if err != nil {
			// A picture that cannot be a PNG stays where it was, so it is still there once.
			out.Images = append(out.Images, im)
			size += len(im.Data)
			continue
		}
		out.Images = append(out.Images, kidrun.Image{Mime: im.Mime})
		pictures = append(pictures, &mcp.ImageContent{MIMEType: "image/png", Data: data})
		size += base64.StdEncoding.EncodedLen(len(data))
	}
	content := append([]mcp.Content{&mcp.TextContent{Text: b.String()}}, pictures...)
	if size > maxAnswerBytes {
		out.Drawing = nil
	}
	return &mcp.CallToolResult{
		Content:           content,
		StructuredContent: answer{Result: &out},
		IsError:           res.Status != string(sandbox.StatusOK) || res.ExitCode != 0,
	}
}

// Bounds of a run's answer. A console text longer than keepHead+keepTail
// keeps its first keepHead and last keepTail bytes (about 4k tokens in
// all, Chinese included); the answer, pictures and all, stays under
// maxAnswerBytes by leaving out the drawing's replay, which the picture shows.
const (
	keepHead       = 8 << 10
	keepTail       = 8 << 10
	maxAnswerBytes = 200 << 10
)

// cut is s whole when it is short, else its head and tail around a line
// saying how much was left out. Cuts fall on line ends where a line is
// not longer than half the part kept, and never inside a character.
func cut(s, lang string) string {
	if len(s) <= keepHead+keepTail+keepHead/4 {
		return s
	}
	head := keepHead
	if i := strings.LastIndexByte(s[:head], '\n'); i >= head/2 {
		head = i + 1
	}
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - keepTail
	if i := strings.IndexByte(s[tail:], '\n'); i >= 0 && i < keepTail/2 {
		tail += i + 1
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	left := s[head:tail]
	lines := strings.Count(left, "\n")
	if !strings.HasSuffix(left, "\n") {
		lines++ // a line cut in two counts as left out
	}
	marker := text.Get("mcp.cut.lines", lang, map[string]string{"n": strconv.Itoa(lines)})
	if lines < 2 {
		marker = text.Get("mcp.cut.chars", lang, map[string]string{"n": strconv.Itoa(utf8.RuneCountInString(left))})
	}
	sep := ""
	if !strings.HasSuffix(s[:head], "\n") {
		sep = "\n"
	}
	return s[:head] + sep + marker + "\n" + s[tail:]
}
