package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// explainProgram compiles the child's file (a data file of the run) and
// explains the first syntax error with the runner's own explainer. compile
// only parses: the child's code never runs. Parsing untrusted code is
// still done in the sandbox, as pack source checks are.
const explainProgram = `import json, os, kiderrors
path = os.path.abspath(%s)
with open(path, "rb") as f:
    src = f.read().decode("utf-8", "replace")
out = {"syntax_error": False}
try:
    compile(src, path, "exec", dont_inherit=True)
except Exception as e:
    out = kiderrors.Explainer(%s, path).explain(e, (), src)
    out["syntax_error"] = True
print()
print(json.dumps(out))
`

// explained is explain_error's structured result.
type explained struct {
	SyntaxError bool              `json:"syntax_error"`
	Error       *kidrun.ErrorInfo `json:"error"`
}

type explainArgs struct {
	Code *string `json:"code"`
	Lang string  `json:"lang"`
}

func (s *Server) addExplain() {
	s.mcp.AddTool(&mcp.Tool{
		Name:        "explain_error",
		Title:       "Explain a syntax error",
		Description: text.Get("mcp.tool.explain_error", s.lang, nil),
		InputSchema: explainSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, s.explainError)
}

func (s *Server) explainError(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a explainArgs
	if err := decode(req, &a); err != nil {
		return nil, err
	}
	lang, err := s.langOf("explain_error", a.Lang)
	if err != nil {
		return nil, err
	}
	if err := s.checkCode("explain_error", a.Code, lang); err != nil {
		return nil, err
	}
	if err := s.noEngine(); err != nil {
		return unavailable(err, lang), nil
	}
	release, err := s.turn(ctx, req, "explain_error", lang)
	if err != nil {
		return nil, err
	}
	defer release()
	ex, err := s.parse(ctx, *a.Code, lang)
	if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, kidrun.ErrNoPython) {
		return unavailable(err, lang), nil
	}
	if err != nil {
		return nil, err
	}
	msg := text.Get("mcp.no_syntax_error", lang, nil)
	if ex.SyntaxError {
		msg = "💡 " + ex.Error.Hint
		if ex.Error.Line != nil {
			msg += " " + text.Get("mcp.line", lang, map[string]string{"line": strconv.Itoa(*ex.Error.Line)})
		}
		msg += "\n(" + ex.Error.Type + ": " + ex.Error.Message + ")"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, StructuredContent: ex}, nil
}

// parse runs explainProgram on code in the sandbox.
func (s *Server) parse(ctx context.Context, code, lang string) (*explained, error) {
	dir, err := os.MkdirTemp("", "kidcoder-explain-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	sub := filepath.Join(dir, "main.py")
	if err := os.WriteFile(sub, []byte(code), 0o644); err != nil {
		return nil, err
	}
	prog := fmt.Sprintf(explainProgram, strconv.QuoteToASCII("main.py"), strconv.QuoteToASCII(lang))
	run, err := s.eng.Start(ctx, kidrun.Request{Code: []byte(prog), Name: "explain_error.py", Lang: lang, Stdin: []byte{}, DataFiles: []string{sub}}, nil)
	if err != nil {
		return nil, err
	}
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
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	var out struct {
		SyntaxError bool   `json:"syntax_error"`
		Type        string `json:"type"`
		Message     string `json:"message"`
		Line        *int   `json:"line"`
		Hint        string `json:"hint"`
	}
	if res.Status != string(sandbox.StatusOK) || json.Unmarshal([]byte(lines[len(lines)-1]), &out) != nil {
		return nil, fmt.Errorf("explain_error: the parse gave no verdict (%s)", res.Status)
	}
	ex := &explained{SyntaxError: out.SyntaxError}
	if out.SyntaxError {
		ex.Error = &kidrun.ErrorInfo{Type: out.Type, Message: out.Message, Line: out.Line, Hint: out.Hint}
	}
	return ex, nil
}
