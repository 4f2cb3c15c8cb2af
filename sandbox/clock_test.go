package sandbox

import (
	"errors"
	"testing"
	"time"
)

// A normal run's clock: waiting is a sum over the run that never resets,
// everything else is wall time, and the run's CPU is its total.
func TestPlainClock(t *testing.T) {
	p := Policy{WallTime: time.Second, CPUTime: time.Second, IdleTime: time.Second}
	c := newClock(false, nil)
	now := time.Now()
	for range 3 {
		c.charge(600*time.Millisecond, true, 0, now)
		c.charge(400*time.Millisecond, false, 0, now)
	}
	if err := c.idleOver(p, now); !errors.Is(err, errIdleLimit) {
		t.Errorf("1.8 s of waiting in three stretches: %v, want the idle limit", err)
	}
	if err := c.busyOver(p); !errors.Is(err, errTimeout) {
		t.Errorf("1.2 s of wall time in three stretches: %v, want the wall clock", err)
	}
	c = newClock(false, nil)
	c.charge(100*time.Millisecond, false, 1500*time.Millisecond, now)
	if err := c.busyOver(p); !errors.Is(err, errCPULimit) {
		t.Errorf("1.5 s of the run's CPU: %v, want the CPU limit", err)
	}
}

// A live run's clock: a waiting interval sets busy wall time and busy CPU
// back to zero; time without input ends the run as quiet, however much of
// it was waiting.
func TestLiveClock(t *testing.T) {
	p := Policy{WallTime: time.Second, CPUTime: time.Second, IdleTime: time.Minute}
	start := time.Now()
	input := start
	c := newClock(true, func() time.Time { return input })
	cpu := time.Duration(0)
	for range 10 { // 0.9 s busy, then a wait: each stretch is under the limits
		for range 9 {
			cpu += 100 * time.Millisecond
			c.charge(100*time.Millisecond, false, cpu, start)
		}
		c.charge(50*time.Millisecond, true, cpu, start)
		if err := c.busyOver(p); err != nil {
			t.Fatalf("stretches under the limits: %v", err)
		}
	}
	for range 11 {
		c.charge(100*time.Millisecond, false, cpu, start)
	}
	if err := c.busyOver(p); !errors.Is(err, errTimeout) {
		t.Errorf("1.1 s busy since the last wait: %v, want the wall clock", err)
	}
	c.charge(50*time.Millisecond, true, cpu, start)
	c.charge(50*time.Millisecond, false, cpu+1100*time.Millisecond, start)
	if err := c.busyOver(p); !errors.Is(err, errCPULimit) {
		t.Errorf("1.1 s of CPU since the last wait: %v, want the CPU limit", err)
	}
	if err := c.idleOver(p, start.Add(59*time.Second)); err != nil {
		t.Errorf("59 s without input: %v", err)
	}
	if err := c.idleOver(p, start.Add(61*time.Second)); !errors.Is(err, errQuietLimit) || limitName(err) != "quiet" {
		t.Errorf("61 s without input: %v, want quiet", err)
	}
	input = start.Add(30 * time.Second)
	if err := c.idleOver(p, start.Add(61*time.Second)); err != nil {
		t.Errorf("31 s after the last input: %v", err)
	}
}

// A live run's processes may each use an hour of CPU; a normal run's, the policy's.
func TestLiveProcessCPU(t *testing.T) {
	p := DefaultPolicy()
	if got := rlimitsOf(p, false, false).CPU; got != 10 {
		t.Errorf("normal run: RLIMIT_CPU %d s", got)
	}
	if got := rlimitsOf(p, true, false).CPU; got != 3600 {
		t.Errorf("live run: RLIMIT_CPU %d s", got)
	}
	// A live process SIGKILLed after 20 s of CPU was not at its limit.
	if s, _, _ := verdict(observation{exitCode: 137, cpu: 20 * time.Second, policy: p, live: true}); s != StatusKilled {
		t.Errorf("live SIGKILL at 20 s of CPU: %s", s)
	}
	if s, _, _ := verdict(observation{cause: errQuietLimit, exitCode: 137, policy: p, live: true}); s != StatusTimeout {
		t.Errorf("quiet: %s", s)
	}
}
