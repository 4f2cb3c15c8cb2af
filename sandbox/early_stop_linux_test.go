package sandbox

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestStopRightAfterStart ends runs at every moment of their start-up,
// before the sandbox's init is known included: Wait must always return,
// and nothing of the program may go on.
func TestStopRightAfterStart(t *testing.T) {
	needSandbox(t)
	for i := range 40 {
		for _, how := range []string{"stop", "cancel"} {
			t.Run(fmt.Sprintf("%s-%d", how, i), func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				spec := Spec{Frames: i%2 == 0}
				p := startCodeCtx(t, ctx, "import time\nprint('R', flush=True)\ntime.sleep(60)\n", spec, nil)
				if d := time.Duration(i%8) * time.Millisecond; d > 0 {
					time.Sleep(d)
				}
				if how == "stop" {
					p.Stop()
				} else {
					cancel()
				}
				done := make(chan Outcome, 1)
				go func() { done <- p.Wait() }()
				select {
				case o := <-done:
					if o.Status == StatusOK {
						t.Fatalf("a run stopped at start-up ended %s", o.Status)
					}
				case <-time.After(30 * time.Second):
					t.Fatal("Wait did not return after an early stop")
				}
			})
		}
	}
}
