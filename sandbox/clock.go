package sandbox

import (
	"errors"
	"time"
)

// liveProcessCPU is the per-process CPU limit (RLIMIT_CPU) of a live run: a
// game may play for an hour, while the run's busy CPU and wall clocks
// (liveClock) stop a runaway loop at the policy's own limits.
const liveProcessCPU = time.Hour

// errQuietLimit ends a live run that got no input from the host for Policy.IdleTime.
var errQuietLimit = errors.New("sandbox: no input for too long")

// runClock is the supervisor's account of a run's time, fed one sample
// interval at a time with the host's own evidence.
type runClock interface {
	// charge counts the interval d that ended at now: waited is true when
	// the host saw the run wait at both of its ends, cpuTotal is the run's
	// CPU as read at its end.
	charge(d time.Duration, waited bool, cpuTotal time.Duration, now time.Time)
	// busyOver is the cause when the run passed its wall clock or CPU limit, else nil.
	busyOver(p Policy) error
	// idleOver is the cause when the run passed its allowance for waiting, else nil.
	idleOver(p Policy, now time.Time) error
}

// newClock is the clock a run's spec calls for; lastInput says when the
// host last gave a live run input.
func newClock(live bool, lastInput func() time.Time) runClock {
	if live {
		return &liveClock{lastInput: lastInput}
	}
	return &plainClock{}
}

// plainClock is a normal run's: the wall clock counts all time but the time
// the run waited for input, which is a sum over the run that no toggling resets.
type plainClock struct {
	wall, idle, cpu time.Duration
}

// charge counts d as waiting or as wall time.
func (c *plainClock) charge(d time.Duration, waited bool, cpuTotal time.Duration, _ time.Time) {
	if waited {
		c.idle += d
	} else {
		c.wall += d
	}
	c.cpu = cpuTotal
}

// busyOver checks the wall clock before the run's CPU: one busy process
// passes both in the same sample when they are equal, and "ran too long"
// is what the child did.
func (c *plainClock) busyOver(p Policy) error {
	switch {
	case c.wall > p.WallTime:
		return errTimeout
	case c.cpu > p.CPUTime:
		return errCPULimit
	}
	return nil
}

// idleOver checks the summed waiting time against Policy.IdleTime.
func (c *plainClock) idleOver(p Policy, _ time.Time) error {
	if c.idle > p.IdleTime {
		return errIdleLimit
	}
	return nil
}

// liveClock is a live run's: the wall clock and the run's CPU count busy
// time since the run last waited (a waiting interval sets both back to
// zero), and the run ends quietly after Policy.IdleTime without input.
type liveClock struct {
	busy      time.Duration // wall time since the run last waited
	cpuBase   time.Duration // the run's CPU when it last waited
	cpu       time.Duration // the run's CPU at the last sample
	lastInput func() time.Time
}

// charge sets the clocks back on a waiting interval and adds d otherwise.
func (c *liveClock) charge(d time.Duration, waited bool, cpuTotal time.Duration, _ time.Time) {
	c.cpu = cpuTotal
	if waited {
		c.busy, c.cpuBase = 0, cpuTotal
		return
	}
	c.busy += d
}

// busyOver checks busy wall time, then busy CPU, as plainClock does.
func (c *liveClock) busyOver(p Policy) error {
	switch {
	case c.busy > p.WallTime:
		return errTimeout
	case c.cpu-c.cpuBase > p.CPUTime:
		return errCPULimit
	}
	return nil
}

// idleOver checks the time since the host last gave the run input.
func (c *liveClock) idleOver(p Policy, now time.Time) error {
	if now.Sub(c.lastInput()) > p.IdleTime {
		return errQuietLimit
	}
	return nil
}
