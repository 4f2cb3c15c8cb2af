package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
	"kidcoder/backend/packs"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

func (s *Server) addLessons(allowWrite bool) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	s.mcp.AddTool(&mcp.Tool{Name: "list_lessons", Title: "List lessons", Description: text.Get("mcp.tool.list_lessons", s.lang, nil),
		InputSchema: emptySchema, Annotations: ro}, s.listLessons)
	s.mcp.AddTool(&mcp.Tool{Name: "read_lesson", Title: "Read a lesson", Description: text.Get("mcp.tool.read_lesson", s.lang, nil),
		InputSchema: pathSchema, Annotations: ro}, s.readLesson)
	s.mcp.AddTool(&mcp.Tool{Name: "check_lesson", Title: "Check an exercise", Description: text.Get("mcp.tool.check_lesson", s.lang, nil),
		InputSchema: checkSchema, Annotations: ro}, s.checkLesson)
	if allowWrite {
		s.mcp.AddTool(&mcp.Tool{Name: "write_lesson", Title: "Write a lesson", Description: text.Get("mcp.tool.write_lesson", s.lang, nil),
			InputSchema: writeSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}, s.writeLesson)
	}
}

// jsonResult is a tool result whose text is v as indented JSON and whose
// structured content is v.
func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: v}, nil
}

// pathProblem is the JSON-RPC error for a lesson path the folder refuses
// (outside it, a link, not a lesson, missing), in the server's language.
func (s *Server) pathProblem(tool string, err error) error {
	return invalid("%s: %s", tool, lessons.ProblemOf(err).In(s.lang))
}

func (s *Server) listLessons(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := decode(req, &struct{}{}); err != nil {
		return nil, err
	}
	tree, err := s.lib.List()
	if err != nil {
		return toolError(lessons.ProblemOf(err).In(s.lang)), nil
	}
	return jsonResult(tree)
}

type pathArgs struct {
	Path *string `json:"path"`
}

func (p pathArgs) get(tool string) (string, error) {
	if p.Path == nil || *p.Path == "" {
		return "", invalid("%s: %q is required", tool, "path")
	}
	return *p.Path, nil
}

// lessonView is read_lesson's result: the lesson, its task text and, for a
// lesson from an exercise pack, the exercise.
type lessonView struct {
	*lessons.Lesson
	Exercise *exerciseView `json:"exercise,omitempty"`
}

type exerciseView struct {
	ID     string    `json:"id"`
	Title  text.Text `json:"title"`
	Checks int       `json:"checks"`
	Hints  int       `json:"hints"`
}

func (s *Server) readLesson(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a pathArgs
	if err := decode(req, &a); err != nil {
		return nil, err
	}
	rel, err := a.get("read_lesson")
	if err != nil {
		return nil, err
	}
	l, err := s.lib.Open(rel)
	if err != nil {
		return nil, s.pathProblem("read_lesson", err)
	}
	v := lessonView{Lesson: l}
	if abs, err := s.lib.AbsPath(rel); err == nil {
		if in, ex, err := packs.FindLesson(abs); err == nil {
			v.Exercise = &exerciseView{ID: ex.ID, Title: ex.Title, Checks: len(ex.Checks), Hints: len(ex.Hints)}
			if v.Instructions == "" {
				v.Instructions, _ = in.Instructions(ex.ID, s.lang)
			}
		}
	}
	return jsonResult(v)
}

type writeArgs struct {
	Path        *string `json:"path"`
	Code        *string `json:"code"`
	BaseVersion string  `json:"base_version"`
}

// written is write_lesson's result.
type written struct {
	lessons.SaveResult
	// AsidePath holds what was on disk when it was not base_version.
	AsidePath string `json:"asidePath,omitempty"`
}

func (s *Server) writeLesson(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a writeArgs
	if err := decode(req, &a); err != nil {
		return nil, err
	}
	rel, err := pathArgs{a.Path}.get("write_lesson")
	if err != nil {
		return nil, err
	}
	if err := s.checkCode("write_lesson", a.Code, s.lang); err != nil {
		return nil, err
	}
	// The window's rules: an atomic write, and when the file on disk is
	// not the version the code was based on, both are kept.
	res, err := s.lib.Save(rel, *a.Code, a.BaseVersion, lessons.SaveOptions{})
	out := written{SaveResult: res}
	if errors.Is(err, lessons.ErrConflict) {
		var kept lessons.KeptBoth
		kept, err = s.lib.KeepBoth(rel, *a.Code, lessons.SaveOptions{})
		out = written{SaveResult: kept.SaveResult, AsidePath: kept.AsidePath}
	}
	switch lessons.CodeOf(err) {
	case "":
		if err != nil {
			return toolError(err.Error()), nil
		}
	case lessons.CodeWriteFailed, lessons.CodeNeedsConversion, lessons.CodeTooLarge, lessons.CodeBadName:
		// A name the folder's rule refuses is the model's to change: the
		// text says how, as the window's does.
		return toolError(lessons.ProblemOf(err).In(s.lang)), nil
	default:
		return nil, s.pathProblem("write_lesson", err)
	}
	return jsonResult(out)
}

type checkArgs struct {
	Path *string `json:"path"`
	Code *string `json:"code"`
	Lang string  `json:"lang"`
}

// checked is check_lesson's result: the verdict of every check, and the
// hints the child has seen so far.
type checked struct {
	*packs.Report
	Hints []packs.Hint `json:"hints"`
}

func (s *Server) checkLesson(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a checkArgs
	if err := decode(req, &a); err != nil {
		return nil, err
	}
	lang, err := s.langOf("check_lesson", a.Lang)
	if err != nil {
		return nil, err
	}
	rel, err := pathArgs{a.Path}.get("check_lesson")
	if err != nil {
		return nil, err
	}
	var code string
	if a.Code != nil {
		if err := s.checkCode("check_lesson", a.Code, lang); err != nil {
			return nil, err
		}
		code = *a.Code
	} else {
		l, err := s.lib.Open(rel)
		if err != nil {
			return nil, s.pathProblem("check_lesson", err)
		}
		code = l.Content
	}
	abs, err := s.lib.AbsPath(rel)
	if err != nil {
		return nil, s.pathProblem("check_lesson", err)
	}
	in, ex, err := packs.FindLesson(abs)
	if errors.Is(err, packs.ErrNotInPack) {
		return nil, invalid("check_lesson: %s", text.Get("mcp.not_exercise", lang, map[string]string{"path": rel}))
	}
	if err != nil {
		return toolError(text.Get("pack.error.unusable", lang, map[string]string{"error": err.Error()})), nil
	}
	if err := s.noEngine(); err != nil {
		return unavailable(err, lang), nil
	}
	release, err := s.turn(ctx, req, "check_lesson", lang)
	if err != nil {
		return nil, err
	}
	defer release()
	policy := kidrun.PolicyFor(s.eng.Policy(), s.timeout(nil))
	// The attempt is not recorded: the child's progress is the child's own.
	// A cancelled request (notifications/cancelled) ends ctx, and with it the check.
	c := packs.Checker{Runner: packs.EngineRunner{Engine: s.eng, Policy: &policy}, Lang: lang, Progress: progressTo(ctx, req, lang)}
	rep, err := c.Exercise(ctx, in, ex, []byte(code))
	if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, kidrun.ErrNoPython) {
		return unavailable(err, lang), nil
	}
	if err != nil {
		return toolError(text.Get("pack.error.unusable", lang, map[string]string{"error": err.Error()})), nil
	}
	hints, _ := in.ShownHints(ex.ID, lang)
	if hints == nil {
		hints = []packs.Hint{}
	}
	var b strings.Builder
	key := "mcp.check.failed"
	if rep.Passed {
		key = "mcp.check.passed"
	}
	b.WriteString(text.Get(key, lang, nil) + "\n")
	for _, r := range rep.Results {
		mark := "✅"
		if !r.OK {
			mark = "❌"
		}
		fmt.Fprintf(&b, "%s %d. %s", mark, r.Index+1, r.Type)
		if r.Message != "" {
			b.WriteString(": " + r.Message)
		}
		if r.Detail != "" {
			b.WriteString(" (" + r.Detail + ")")
		}
		b.WriteByte('\n')
	}
	if rep.Note != "" {
		b.WriteString(rep.Note + "\n")
	}
	for _, h := range hints {
		fmt.Fprintf(&b, "💡 %d/%d %s\n", h.Index+1, h.Total, h.Text)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}},
		StructuredContent: checked{Report: rep, Hints: hints}}, nil
}

// progressTo sends each check run's start as a progress notification,
// when the request asked for them with a progress token; nil otherwise.
func progressTo(ctx context.Context, req *mcp.CallToolRequest, lang string) func(packs.CheckProgress) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	return func(p packs.CheckProgress) {
		msg := text.Get("pack.checks.progress", lang, map[string]string{"n": strconv.Itoa(p.Run), "total": strconv.Itoa(p.Runs)})
		// A client that does not read its notifications only loses them.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Message: msg,
			Progress: float64(p.Run - 1), Total: float64(p.Runs)})
	}
}

// toolError is a tool result that failed, with its reason for the model.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}
