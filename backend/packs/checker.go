package packs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
)

// RunRequest is one sandboxed run the checker needs.
type RunRequest struct {
	Code      []byte
	Name      string // file name, e.g. "01-square.py"
	Lang      string
	Stdin     []byte
	DataFiles []string // host paths, readable by base name beside the program
	// CheckFiles are host paths of teacher check scripts to run after the
	// program, in the same sandbox (docs/packs.md, "code checks").
	CheckFiles []string
	// Events, when not nil, makes the run live and is played into it
	// (an output check's events file).
	Events kidrun.Timeline
}

// RunResult is what the checker needs from a finished run.
type RunResult struct {
	Status  string // the host's verdict: ok, error, timeout, ...
	Stdout  string
	Drawing json.RawMessage
	Hint    string       // kid-friendly explanation of an uncaught error
	Line    int          // its line, 0 if unknown
	Checks  []CodeResult // one per CheckFiles entry, in order, as reported from the sandbox
	// Result is the whole run as the window shows one (output, drawing,
	// error), so the child sees what the checked run did; nil from fakes.
	Result *kidrun.Result
}

// CodeResult is one code check's verdict from python/kidcheck.py.
type CodeResult struct {
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

// Runner runs a program in the sandbox. The real one wraps kidrun (see
// EngineRunner); tests use a fake. Run returns an error only when nothing
// could run (no sandbox): a failing program is a result, not an error.
type Runner interface {
	Run(ctx context.Context, req RunRequest) (*RunResult, error)
}

// Files gives the host path of a pack file (data files, check scripts),
// since the sandbox mounts files from disk.
type Files interface {
	HostPath(packPath string) (string, error)
}

// CheckResult is the verdict of one check.
type CheckResult struct {
	Index   int    `json:"index"`
	Type    string `json:"type"`
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"` // the teacher's message, when it failed
	Detail  string `json:"detail,omitempty"`  // what happened, when that helps
}

// Report is the verdict on one attempt at an exercise.
type Report struct {
	Exercise string        `json:"exercise"`
	Passed   bool          `json:"passed"`
	Results  []CheckResult `json:"results"`
}

// Failed lists the failing results.
func (r *Report) Failed() []CheckResult {
	var out []CheckResult
	for _, c := range r.Results {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

const maxShownOutput = 300

// CheckExercise runs code through every check of ex. Checks that share a
// stdin and an events file share one run; code checks ride along in that
// run; source checks get their own run that only parses the code. Nothing
// here executes code outside the Runner.
func CheckExercise(ctx context.Context, r Runner, files Files, ex *Exercise, code []byte, lang string) (*Report, error) {
	rep := &Report{Exercise: ex.ID, Results: make([]CheckResult, len(ex.Checks))}
	type group struct {
		stdin, events string
		checks        []int
		code          []int
	}
	groups := map[string]*group{}
	var source []int
	for i, c := range ex.Checks {
		rep.Results[i] = CheckResult{Index: i, Type: c.Type}
		stdin, events := ex.Stdin, ""
		switch c.Type {
		case CheckSource:
			source = append(source, i)
			continue
		case CheckOutput:
			stdin, events = c.Stdin, c.Events
		}
		key := stdin + "\x00" + events
		g := groups[key]
		if g == nil {
			g = &group{stdin: stdin, events: events}
			groups[key] = g
		}
		g.checks = append(g.checks, i)
		if c.Type == CheckCode {
			g.code = append(g.code, i)
		}
	}
	var data []string
	for _, d := range ex.Data {
		p, err := files.HostPath(d)
		if errors.Is(err, ErrMissing) {
			continue // the child deleted it: the program meets FileNotFoundError like anywhere else
		}
		if err != nil {
			return nil, err
		}
		data = append(data, p)
	}
	name := ex.ID + ".py"
	for _, key := range sortedKeys(groups) {
		g := groups[key]
		req := RunRequest{Code: code, Name: name, Lang: lang, Stdin: []byte(g.stdin), DataFiles: data}
		if g.events != "" {
			tl, err := readEvents(files, g.events)
			if err != nil {
				return nil, err
			}
			req.Events = tl
		}
		for _, i := range g.code {
			p, err := files.HostPath(ex.Checks[i].File)
			if err != nil {
				return nil, err
			}
			req.CheckFiles = append(req.CheckFiles, p)
		}
		res, err := r.Run(ctx, req)
		if err != nil {
			return nil, err
		}
		codeAt := map[int]int{}
		for k, i := range g.code {
			codeAt[i] = k
		}
		for _, i := range g.checks {
			rep.Results[i] = judge(i, ex.Checks[i], res, codeAt, lang)
		}
	}
	if len(source) > 0 {
		if err := checkSource(ctx, r, ex, code, source, rep, lang); err != nil {
			return nil, err
		}
	}
	rep.Passed = true
	for i := range rep.Results {
		c := &rep.Results[i]
		if !c.OK {
			rep.Passed = false
			c.Message = ex.Checks[i].Message.In(lang)
		}
	}
	return rep, nil
}

// readEvents reads an events file of the pack the safe way: where the pack
// is installed, the child's lessons folder holds it.
func readEvents(files Files, name string) (kidrun.Timeline, error) {
	p, err := files.HostPath(name)
	if err != nil {
		return nil, err
	}
	tl, err := kidrun.ReadTimeline(p)
	if err != nil {
		return nil, fileErr(p, "", plainErr(err, kidrun.MaxTimelineBytes))
	}
	return tl, nil
}

// runProblem says, in lang, why a run that did not end well is no answer:
// the error's hint, else the bound that ended it as the window words it
// (the catalogue's outcome), else its exit code; "" for a run that ended well.
func runProblem(res *RunResult, lang string) string {
	switch res.Status {
	case "ok":
		return ""
	case "error":
		if res.Hint == "" {
			break // nothing to explain with: say how it ended
		}
		hint := res.Hint
		if res.Line > 0 {
			hint += " (" + strconv.Itoa(res.Line) + ")"
		}
		return text.Get("pack.run.error", lang, map[string]string{"hint": hint})
	}
	if r := res.Result; r != nil && r.Outcome != nil {
		return r.Outcome.Text(lang)
	}
	switch {
	case res.Status == "timeout":
		return text.Get("pack.run.timeout", lang, nil)
	case res.Status == "error" && res.Result != nil:
		return text.Get("pack.run.exit", lang, map[string]string{"code": strconv.Itoa(res.Result.ExitCode)})
	}
	return text.Get("pack.run.status", lang, map[string]string{"status": res.Status})
}

func judge(i int, c Check, res *RunResult, codeAt map[int]int, lang string) CheckResult {
	out := CheckResult{Index: i, Type: c.Type}
	problem := runProblem(res, lang)
	switch c.Type {
	case CheckOutput:
		out.OK = res.Status == "ok" && MatchOutput(c.Match, c.Expect, res.Stdout, c.Tolerance)
		switch {
		case problem != "":
			out.Detail = problem
		case !out.OK && strings.TrimSpace(res.Stdout) == "":
			out.Detail = text.Get("pack.run.nothing", lang, nil)
		case !out.OK:
			out.Detail = text.Get("pack.run.printed", lang, map[string]string{"got": shorten(res.Stdout)})
		}
	case CheckTurtle:
		d, err := ParseDrawing(res.Drawing)
		if err == nil {
			out.OK = EvalTurtle(c, d)
		}
		if !out.OK {
			out.Detail = problem
			if out.Detail == "" && (err != nil || len(d.Steps) == 0) {
				out.Detail = text.Get("pack.turtle.none", lang, nil)
			}
		}
	case CheckCode:
		k := codeAt[i]
		switch {
		case k < len(res.Checks):
			out.OK = res.Checks[k].OK && res.Status == "ok"
			if !out.OK {
				out.Detail = problem
				if out.Detail == "" {
					out.Detail = shorten(res.Checks[k].Message)
				}
			}
		case problem != "":
			out.Detail = problem
		default:
			out.Detail = text.Get("pack.code.notrun", lang, nil)
		}
	}
	return out
}

func shorten(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= maxShownOutput {
		return s
	}
	return string([]rune(s)[:maxShownOutput]) + "…"
}

// sourceRuleProgram parses the child's file (given to it as a data file)
// with Python's ast in the sandbox and prints one JSON line of verdicts.
// The child's code is never executed in this run; it is untrusted even for
// parsing, hence the sandbox.
const sourceRuleProgram = `import kidcheck
kidcheck.source_rules_main(%s, %s)
`

// SubmissionName is the file name the child's code has in a source-rule run.
const SubmissionName = "submission.txt"

type sourceRule struct {
	Rule string `json:"rule"`
	Name string `json:"name,omitempty"`
}

func checkSource(ctx context.Context, r Runner, ex *Exercise, code []byte, idx []int, rep *Report, lang string) error {
	var rules []sourceRule
	for _, i := range idx {
		rules = append(rules, sourceRule{Rule: ex.Checks[i].Rule, Name: ex.Checks[i].Name})
	}
	rj, err := json.Marshal(rules)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "kidcoder-source-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sub := filepath.Join(dir, SubmissionName)
	if err := os.WriteFile(sub, code, 0o644); err != nil {
		return err
	}
	prog := fmt.Sprintf(sourceRuleProgram, strconv.QuoteToASCII(SubmissionName), strconv.QuoteToASCII(string(rj)))
	res, err := r.Run(ctx, RunRequest{Code: []byte(prog), Name: "kidcheck_source.py", Lang: lang, Stdin: []byte{}, DataFiles: []string{sub}})
	if err != nil {
		return err
	}
	verdict, err := parseSourceVerdict(res, len(rules))
	for k, i := range idx {
		c := &rep.Results[i]
		switch {
		case err != nil:
			c.Detail = text.Get("pack.source.failed", lang, nil)
		case verdict.SyntaxLine > 0 || verdict.Syntax:
			c.Detail = text.Get("pack.source.syntax", lang, map[string]string{"line": strconv.Itoa(verdict.SyntaxLine)})
		default:
			c.OK = verdict.Results[k]
		}
	}
	return nil
}

// SourceVerdict is the line python/kidcheck.py prints in a source-rule run.
type SourceVerdict struct {
	Results    []bool `json:"results"`
	Syntax     bool   `json:"syntax_error"`
	SyntaxLine int    `json:"line"`
}

var errSourceRun = errors.New("the source-rule run gave no verdict")

func parseSourceVerdict(res *RunResult, n int) (*SourceVerdict, error) {
	if res.Status != "ok" {
		return nil, fmt.Errorf("%w: %s", errSourceRun, res.Status)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	var v SourceVerdict
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &v); err != nil {
		return nil, fmt.Errorf("%w: %v", errSourceRun, err)
	}
	if !v.Syntax && len(v.Results) != n {
		return nil, fmt.Errorf("%w: %d results for %d rules", errSourceRun, len(v.Results), n)
	}
	return &v, nil
}

// tempFiles puts a loaded pack's files on disk for the sandbox to mount.
type tempFiles struct {
	dir  string
	pack *Pack
}

// Materialize writes the pack's files under a new temporary folder; call
// the returned cleanup when done.
func (p *Pack) Materialize() (Files, func(), error) {
	dir, err := os.MkdirTemp("", "kidcoder-pack-")
	if err != nil {
		return nil, nil, err
	}
	names := sortedKeys(p.files)
	for _, n := range names {
		// Files keep their pack paths; data files are mounted by base name,
		// which crossCheck keeps unique across the pack.
		target := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
		if err := os.WriteFile(target, p.files[n], 0o644); err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
	}
	return &tempFiles{dir: dir, pack: p}, func() { os.RemoveAll(dir) }, nil
}

func (t *tempFiles) HostPath(p string) (string, error) {
	if _, ok := t.pack.files[p]; !ok || CheckEntryName(p) != nil {
		return "", fileErr(t.pack.Source, p, ErrMissing)
	}
	return filepath.Join(t.dir, filepath.FromSlash(path.Clean(p))), nil
}
