package packs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
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
	// NotRun: the check's run was not made or did not finish, because the
	// budget was spent or the check was stopped (Report.Ended says which).
	NotRun bool `json:"not_run,omitempty"`
}

// How a check ended that did not make all its runs (Report.Ended).
const (
	EndedOutOfTime = "out_of_time" // the exercise's budget was spent
	EndedStopped   = "stopped"     // the caller's context ended: Stop, Ctrl+C, a cancelled request
)

// Report is the verdict on one attempt at an exercise.
type Report struct {
	Exercise string        `json:"exercise"`
	Passed   bool          `json:"passed"`
	Results  []CheckResult `json:"results"`
	// Ended is EndedOutOfTime or EndedStopped when some checks did not
	// run, "" when all did; Note then says so in the child's language,
	// naming those checks by number.
	Ended string `json:"ended,omitempty"`
	Note  string `json:"note,omitempty"`
	// BudgetSeconds is the time the exercise's runs had together.
	BudgetSeconds float64 `json:"budget_seconds"`
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

// NotRun lists the checks that did not run.
func (r *Report) NotRun() []CheckResult {
	var out []CheckResult
	for _, c := range r.Results {
		if c.NotRun {
			out = append(out, c)
		}
	}
	return out
}

const maxShownOutput = 300

// CheckProgress says which run of an exercise's check starts now.
type CheckProgress struct {
	Run    int   `json:"run"`    // 1 for the first
	Runs   int   `json:"runs"`   // how many the checks need
	Checks []int `json:"checks"` // the checks this run decides, by index
}

// Checker runs an exercise's checks under one budget.
type Checker struct {
	Runner Runner
	Lang   string
	// Budget is the time the exercise's runs get together besides the time
	// their events last (at most MaxEventsTime); 0: CheckBudget.
	Budget time.Duration
	// Progress, when not nil, hears each run just before it starts, in order.
	Progress func(CheckProgress)
}

// errOutOfTime is the cause of a check's context when its budget is spent.
var errOutOfTime = errors.New("the checks' budget is spent")

// CheckExercise is Checker{Runner: r, Lang: lang}.Exercise: the checks
// under CheckBudget, heard by no one.
func CheckExercise(ctx context.Context, r Runner, files Files, ex *Exercise, code []byte, lang string) (*Report, error) {
	return Checker{Runner: r, Lang: lang}.Exercise(ctx, files, ex, code)
}

// Exercise runs code through every check of ex. Checks that share a stdin
// and an events file share one run; code checks ride along in that run;
// source checks get their own run that only parses the code. The runs
// together get one budget; once it is spent, or ctx ends, no run starts
// and the one going ends, and the checks they would have decided are
// reported as not run. Nothing here executes code outside the Runner.
func (c Checker) Exercise(ctx context.Context, files Files, ex *Exercise, code []byte) (*Report, error) {
	lang := c.Lang
	rep := &Report{Exercise: ex.ID, Results: make([]CheckResult, len(ex.Checks))}
	for i, ch := range ex.Checks {
		rep.Results[i] = CheckResult{Index: i, Type: ch.Type}
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
	// Every request is made before the first run, so the budget knows
	// what the events declare and a broken pack runs nothing.
	runs := planRuns(ex)
	reqs := make([]RunRequest, len(runs))
	var events time.Duration
	name := ex.ID + ".py"
	for k, g := range runs {
		if g.source {
			continue
		}
		req := RunRequest{Code: code, Name: name, Lang: lang, Stdin: []byte(g.stdin), DataFiles: data}
		if g.events != "" {
			tl, err := readEvents(files, g.events)
			if err != nil {
				return nil, err
			}
			req.Events = tl
			events += timelineLength(tl)
		}
		for _, i := range g.code {
			p, err := files.HostPath(ex.Checks[i].File)
			if err != nil {
				return nil, err
			}
			req.CheckFiles = append(req.CheckFiles, p)
		}
		reqs[k] = req
	}
	budget := c.Budget
	if budget <= 0 {
		budget = CheckBudget
	}
	budget += min(events, MaxEventsTime)
	rep.BudgetSeconds = budget.Seconds()
	bctx, cancel := context.WithTimeoutCause(ctx, budget, errOutOfTime)
	defer cancel()
	decided := make([]bool, len(ex.Checks))
	for k, g := range runs {
		if bctx.Err() != nil {
			break
		}
		if c.Progress != nil {
			c.Progress(CheckProgress{Run: k + 1, Runs: len(runs), Checks: slices.Clone(g.checks)})
		}
		if g.source {
			err := checkSource(bctx, c.Runner, ex, code, g.checks, rep, lang)
			if bctx.Err() != nil {
				break // cut short: what it found is no verdict
			}
			if err != nil {
				return nil, err
			}
		} else {
			res, err := c.Runner.Run(bctx, reqs[k])
			if bctx.Err() != nil {
				break
			}
			if err != nil {
				return nil, err
			}
			codeAt := map[int]int{}
			for n, i := range g.code {
				codeAt[i] = n
			}
			for _, i := range g.checks {
				rep.Results[i] = judge(i, ex.Checks[i], res, codeAt, lang)
			}
		}
		for _, i := range g.checks {
			decided[i] = true
		}
	}
	if bctx.Err() != nil {
		notRun(rep, decided, errors.Is(context.Cause(bctx), errOutOfTime), budget, lang)
	}
	rep.Passed = true
	for i := range rep.Results {
		r := &rep.Results[i]
		if !r.OK {
			rep.Passed = false
			if !r.NotRun {
				r.Message = ex.Checks[i].Message.In(lang)
			}
		}
	}
	return rep, nil
}

// notRun marks the checks not decided as not run, and says why and which.
func notRun(rep *Report, decided []bool, outOfTime bool, budget time.Duration, lang string) {
	ended, detail, note := EndedStopped, "pack.check.not_run_stopped", "pack.checks.stopped"
	if outOfTime {
		ended, detail, note = EndedOutOfTime, "pack.check.not_run_time", "pack.checks.out_of_time"
	}
	rep.Ended = ended
	var nums []string
	for i, ok := range decided {
		if ok {
			continue
		}
		r := &rep.Results[i]
		*r = CheckResult{Index: r.Index, Type: r.Type, NotRun: true, Detail: text.Get(detail, lang, nil)}
		nums = append(nums, strconv.Itoa(i+1))
	}
	sep := text.Text{Zh: "、", En: ", "}.In(lang)
	seconds := strconv.FormatFloat(math.Round(budget.Seconds()*10)/10, 'f', -1, 64)
	rep.Note = text.Get(note, lang, map[string]string{"seconds": seconds, "checks": strings.Join(nums, sep)})
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
