// Package safefiletest holds the guard the attack tests of hostile files
// share: a call that reads a file the app does not control must return
// promptly and within a memory bound.
package safefiletest

import (
	"runtime/metrics"
	"testing"
	"time"
)

// Bounds of Promptly: generous, so a slow machine never trips them, yet far
// below a FIFO waited on forever or a link to /dev/zero read to its end.
const (
	Wait  = 10 * time.Second
	Alloc = 512 << 20
)

// Promptly runs fn and fails the test if it has not returned within Wait
// or allocates more than Alloc bytes on the way, whichever comes first.
func Promptly[T any](t testing.TB, what string, fn func() T) T {
	t.Helper()
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocated := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	start := allocated()
	done := make(chan T, 1)
	go func() { done <- fn() }()
	deadline := time.After(Wait)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case v := <-done:
			return v
		case <-deadline:
			t.Fatalf("%s: still blocked after %v", what, Wait)
		case <-tick.C:
			if n := allocated() - start; n > Alloc {
				t.Fatalf("%s: allocated %d MiB and counting", what, n>>20)
			}
		}
	}
}
