package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/text"
)

// prompt is one tutor prompt: its message, in zh and en, with {name}
// placeholders filled from the arguments.
type prompt struct {
	name string
	args []string // the first is required
}

var prompts = []prompt{
	{"explain_program", []string{"code", "age"}},
	{"set_exercise", []string{"level", "topic"}},
	{"give_hint", []string{"code", "task"}},
}

func (s *Server) addPrompts() {
	for _, p := range prompts {
		mp := &mcp.Prompt{Name: p.name, Title: text.Get("mcp.prompt."+p.name+".title", s.lang, nil),
			Description: text.Get("mcp.prompt."+p.name+".description", s.lang, nil)}
		for i, a := range append(p.args, "lang") {
			mp.Arguments = append(mp.Arguments, &mcp.PromptArgument{Name: a, Required: i == 0,
				Description: text.Get("mcp.prompt.arg."+a, s.lang, nil)})
		}
		s.mcp.AddPrompt(mp, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			args := req.Params.Arguments
			lang, err := s.langOf(p.name, args["lang"])
			if err != nil {
				return nil, err
			}
			if args[p.args[0]] == "" {
				return nil, invalid("%s: %q is required", p.name, p.args[0])
			}
			// One pass, so a {name} inside the child's code stays as written.
			var pairs []string
			for _, a := range p.args {
				v := args[a]
				if v == "" {
					v = text.Get("mcp.prompt.unset", lang, nil)
				}
				pairs = append(pairs, "{"+a+"}", v)
			}
			msg := strings.NewReplacer(pairs...).Replace(text.Get("mcp.prompt."+p.name, lang, nil))
			return &mcp.GetPromptResult{
				Description: text.Get("mcp.prompt."+p.name+".title", lang, nil),
				Messages: []*mcp.PromptMessage{{Role: "user",
					Content: &mcp.TextContent{Text: msg}}},
			}, nil
		})
	}
}

// CardMIME is the MCP Apps type of an app's HTML.
const CardMIME = "text/html;profile=mcp-app"

func (s *Server) addCard() {
	s.mcp.AddResource(&mcp.Resource{URI: CardURI, Name: "classroom", Title: text.Get("mcp.card.title", s.lang, nil),
		Description: text.Get("mcp.card.description", s.lang, nil), MIMEType: CardMIME},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: CardURI, MIMEType: CardMIME, Text: string(s.card)}}}, nil
		})
}
