package kidrun

import (
	"math"
	"strconv"

	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// Outcome is how a run ended, as the child is told it: a message of the one
// catalogue (python/messages.json) and the values the message names. The
// window, the command line and the AI-tutor server all word it from Key and
// Values, so the same end reads the same everywhere.
type Outcome struct {
	// Key is the message: a bound that ended the run, the child's Stop, or
	// the step at which setting the sandbox up failed (setup.failed).
	Key string `json:"key" enum:"limit.stopped,limit.cpu,limit.idle,limit.quiet,limit.files,limit.timeout,limit.memory,limit.output,limit.killed,setup.failed" ts:"OutcomeKey"`
	// Values fill the message's {names}: every value any of them uses,
	// already formatted ("10", "512 MB", "5").
	Values map[string]string `json:"values"`
}

// outcomeOf is the outcome of a finished run, or nil for a run that ended
// by itself (its status then says all: ok, an error, an exit code).
func outcomeOf(r *Result, setup *sandbox.SetupError) *Outcome {
	key := ""
	switch {
	case setup != nil:
		return &Outcome{Key: setupFailed, Values: setupValues(setup)}
	case r.Stopped:
		key = "limit.stopped"
	case r.Limit != "":
		key = "limit." + r.Limit
	case r.Status == string(sandbox.StatusTimeout):
		key = "limit.timeout"
	case r.Status == string(sandbox.StatusMemory):
		key = "limit.memory"
	case r.Status == string(sandbox.StatusOutput):
		key = "limit.output"
	case r.Status == string(sandbox.StatusKilled):
		key = "limit.killed"
	default:
		return nil
	}
	return &Outcome{Key: key, Values: limitValues(r.Limits)}
}

// setupFailed is the outcome of a run whose sandbox could not be set up.
const setupFailed = "setup.failed"

// setupValues name a failed set-up step and the kernel's word for it (its
// errno, or the step's own words when it has none).
func setupValues(e *sandbox.SetupError) map[string]string {
	why := e.Errno()
	if why == "" {
		why = e.Err.Error()
	}
	return map[string]string{"step": e.Step, "error": why}
}

// limitValues are the run's bounds as the messages name them.
func limitValues(l Limits) map[string]string {
	return map[string]string{
		"seconds": strconv.FormatFloat(l.WallSeconds, 'f', -1, 64),
		"cpu":     strconv.FormatFloat(l.CPUSeconds, 'f', -1, 64),
		"idle":    strconv.FormatFloat(l.IdleSeconds, 'f', -1, 64),
		"minutes": strconv.FormatFloat(math.Round(l.IdleSeconds/6)/10, 'f', -1, 64),
		"files":   strconv.FormatInt(l.ScratchFiles, 10),
		"memory":  sizeText(l.MemoryMiB << 20),
		"size":    sizeText(l.OutputKiB << 10),
	}
}

// Text is the outcome in lang, from the catalogue.
func (o *Outcome) Text(lang string) string {
	if o == nil {
		return ""
	}
	return text.Get(o.Key, lang, o.Values)
}

// sizeText is a size as the window shows it (frontend formatSize): "64 KB",
// "1 MB", "1.5 MB", "4 GB".
func sizeText(bytes int64) string {
	const mib = 1 << 20
	oneDecimal := func(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }
	switch {
	case bytes < mib:
		return strconv.FormatInt(max(1, int64(math.Round(float64(bytes)/1024))), 10) + " KB"
	case bytes >= 1024*mib:
		return oneDecimal(float64(bytes)/(1024*mib)) + " GB"
	}
	return oneDecimal(float64(bytes)/mib) + " MB"
}
