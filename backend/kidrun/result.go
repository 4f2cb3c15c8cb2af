package kidrun

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"

	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// Result is the outcome of one run: the `run --json` object of docs/contracts.md §2
// plus the fields the classroom needs (drawing steps, stop, limits, message).
type Result struct {
	Status     string          `json:"status" enum:"ok,error,timeout,memory_limit,output_limit,killed,sandbox_unavailable" ts:"RunStatus"`
	ExitCode   int             `json:"exit_code"`
	DurationMS int64           `json:"duration_ms"`
	Stdout     string          `json:"stdout"`
	Stderr     string          `json:"stderr"`
	Truncated  bool            `json:"truncated"`
	Error      *ErrorInfo      `json:"error"`
	Images     []Image         `json:"images"`
	Drawing    json.RawMessage `json:"drawing,omitempty" ts:"Drawing | null"`
	Stopped    bool            `json:"stopped,omitempty"`
	// Limit names the bound that ended the run when the status alone does
	// not: "cpu" (the run's CPU time), "idle" (waited for input too long),
	// "quiet" (a live run got no input for the idle time), "files" (the
	// scratch's file count); absent otherwise.
	Limit  string `json:"limit,omitempty" enum:"cpu,idle,quiet,files" ts:"RunLimit"`
	Limits Limits `json:"limits"`
	// Outcome names the limit or stop that ended the run, for each reader
	// to word in its language; absent for a run that ended by itself.
	Outcome *Outcome `json:"outcome,omitempty"`
	// Message is Outcome in the run's language; "" without one.
	Message string   `json:"message,omitempty"`
	Notices []string `json:"notices,omitempty"`
	// Checks are the verdicts of Request.CheckFiles, in order, as reported
	// from inside the sandbox; absent when none ran.
	Checks []CheckResult `json:"checks,omitempty"`
	// Trace is the step-by-step recording of a run asked for with
	// Request.Trace (docs/contracts.md §5); absent otherwise.
	Trace *Trace `json:"trace,omitempty"`
}

// CheckResult is one teacher check's verdict (python/kidcheck.py run_check).
type CheckResult struct {
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

// ErrorInfo is the child's uncaught error, explained.
type ErrorInfo struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Line    *int   `json:"line"`
	Hint    string `json:"hint"`
}

// Image is a drawing or a plot.
type Image struct {
	Mime string `json:"mime" enum:"image/svg+xml,image/png"`
	Data string `json:"data"` // base64
}

// Limits are the bounds the run had, for the messages shown when one is hit.
type Limits struct {
	WallSeconds  float64 `json:"wallSeconds"`
	CPUSeconds   float64 `json:"cpuSeconds"`
	IdleSeconds  float64 `json:"idleSeconds"`
	MemoryMiB    int64   `json:"memoryMiB"`
	OutputKiB    int64   `json:"outputKiB"`
	ScratchFiles int64   `json:"scratchFiles"`
}

// LimitsOf is what policy p says of a run's bounds, as a result names them.
func LimitsOf(p sandbox.Policy) Limits {
	return Limits{
		WallSeconds:  p.WallTime.Seconds(),
		CPUSeconds:   p.CPUTime.Seconds(),
		IdleSeconds:  p.IdleTime.Seconds(),
		MemoryMiB:    p.MemoryBytes >> 20,
		OutputKiB:    p.OutputBytes >> 10,
		ScratchFiles: p.ScratchFiles,
	}
}

func (e *ErrorInfo) clean() *ErrorInfo {
	if e == nil {
		return nil
	}
	out := &ErrorInfo{
		Type:    clip(e.Type, 100),
		Message: clip(e.Message, maxTextRunes),
		Hint:    clip(e.Hint, maxTextRunes),
	}
	if e.Line != nil && *e.Line > 0 {
		l := *e.Line
		out.Line = &l
	}
	return out
}

// valid is the collector's cheap first look at each image of every result
// frame: a known type and a size that can pass checkImages. The full check
// runs once, on the report that stands (buildResult).
func (im Image) valid() bool {
	return (im.Mime == "image/png" || im.Mime == "image/svg+xml") &&
		len(im.Data) <= base64.StdEncoding.EncodedLen(maxImageBytes)
}

// buildResult joins what the host observed with what the runner reported,
// whose drawing the run has checked (checkDrawing) and whose pictures are
// checked here. Everything that decides the verdict comes from the observation.
func buildResult(out sandbox.Outcome, rep report, p sandbox.Policy, lang string) *Result {
	images, left := checkImages(rep.Images)
	r := &Result{
		Status:     string(out.Status),
		ExitCode:   out.ExitCode,
		DurationMS: out.Duration.Milliseconds(),
		Stdout:     ValidText(out.Stdout),
		Stderr:     ValidText(out.Stderr),
		Truncated:  out.Truncated,
		Images:     images,
		Drawing:    rep.Drawing,
		Stopped:    out.Stopped,
		Limit:      out.Limit,
		Notices:    rep.Notices,
		Checks:     rep.Checks,
		Limits:     LimitsOf(p),
	}
	// The runner's explanation only stands beside a verdict that agrees with it.
	if out.Status == sandbox.StatusError || out.Status == sandbox.StatusMemory {
		r.Error = rep.Error
	}
	if left > 0 {
		r.Notices = append(slices.Clip(r.Notices), text.Get("notice.pictures", lang, map[string]string{"n": strconv.Itoa(left)}))
	}
	r.Outcome = outcomeOf(r, out.Setup)
	r.Message = r.Outcome.Text(lang)
	return r
}
