package kidrun

import (
	"time"

	"kidcoder/backend/settings"
	"kidcoder/sandbox"
)

// MaxReplaySteps bounds the drawing steps a result carries for replay
// (Request.ReplaySteps) where the reader did not see them live: `run
// --json`, run_python and a pack's checked run. A drawing whose steps do
// not fit comes back as its SVG alone.
const MaxReplaySteps = 128 << 10

// MaxDrawingSteps bounds Request.ReplaySteps: a pack's turtle checks read
// the drawing's steps on the host, up to this much.
const MaxDrawingSteps = 4 << 20

// PolicyFor is the one way a time limit becomes a run's limits, for the
// window, packs, the command line and the AI-tutor server alike: base's
// bounds with that wall clock (none: base's), and CPU time never below it.
func PolicyFor(base sandbox.Policy, timeout time.Duration) sandbox.Policy {
	if timeout > 0 {
		base.WallTime = timeout
		base.CPUTime = max(base.CPUTime, timeout)
	}
	return base
}

// SettingsTimeout is the time limit the family chose, within the settings' bounds.
func SettingsTimeout(s settings.Settings) time.Duration {
	return time.Duration(s.Clamp().TimeoutSeconds) * time.Second
}

// ClampTimeout is a time limit asked for in seconds, within the settings'
// bounds (1 to 60 s); def when none was asked for.
func ClampTimeout(seconds *float64, def time.Duration) time.Duration {
	if seconds == nil {
		return def
	}
	v := min(max(*seconds, settings.MinTimeout), settings.MaxTimeout)
	return time.Duration(v * float64(time.Second))
}
