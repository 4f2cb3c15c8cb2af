package cli

import (
	"testing"
	"time"
)

// pack check's --timeout stretches an exercise's budget as it stretches
// each run: never below the child's 60 s, within --timeout's ten minutes.
func TestPackCheckBudget(t *testing.T) {
	for _, tt := range []struct {
		seconds float64
		want    time.Duration
	}{
		{0, time.Minute},
		{5, time.Minute},
		{10, time.Minute},
		{30, 3 * time.Minute},
		{1e9, time.Hour},
	} {
		if got := checkBudget(tt.seconds); got != tt.want {
			t.Errorf("--timeout %v: budget %v, want %v", tt.seconds, got, tt.want)
		}
	}
}
