// Package kidruntest holds the limits that tests of real runs share: a
// test's verdict never rests on how fast a busy machine does a program's
// real work under a child's time bound.
package kidruntest

import (
	"time"

	"kidcoder/sandbox"
)

// Roomy is the wall clock and CPU time of RoomyPolicy: far above the
// slowest real work a test runs (a first matplotlib import on a fresh,
// busy machine took 17 s in a clean-clone CI), yet a run that hangs
// still ends well inside go test's own 10 minutes.
const Roomy = 3 * time.Minute

// RoomyPolicy is the sandbox's default policy with clocks that no test
// checks: for the runs of a test of output, pictures or checks, whose
// program does real work. A test of a time bound sets that bound itself,
// on a program that does nothing but wait or loop, so that the bound, not
// the machine's speed, decides it.
func RoomyPolicy() sandbox.Policy {
	p := sandbox.DefaultPolicy()
	p.WallTime, p.CPUTime = Roomy, Roomy
	return p
}
