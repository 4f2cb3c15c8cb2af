package kidrun

import (
	"encoding/json"
	"fmt"
	"math"

	"kidcoder/backend/settings"
)

// paceLine is a "pace" or "finish" event as its control line: the window's
// speed dial, which the runner applies to the turtle's waits at once
// (docs/runner-protocol.md, "Pacing"). It goes through the control pipe
// because the pacing happens inside the sandbox: the program itself waits,
// so only the program can hurry. A pace is within the dial's bounds, which
// the runner holds to as well.
func (e Event) paceLine() ([]byte, error) {
	if e.Type == "finish" {
		return []byte(`{"type":"finish"}`), nil
	}
	if math.IsNaN(e.Speed) || e.Speed < settings.MinPace || e.Speed > settings.MaxPace {
		return nil, fmt.Errorf("%w: a pace is %g to %g times CPython's", ErrBadEvent, settings.MinPace, settings.MaxPace)
	}
	return json.Marshal(struct {
		Type  string  `json:"type"`
		Speed float64 `json:"speed"`
	}{e.Type, e.Speed})
}
