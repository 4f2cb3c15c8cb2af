package sandbox

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// livePolicy is testPolicy with the given wall clock, run CPU and idle time.
func livePolicy(wall, cpu, idle time.Duration) Policy {
	p := testPolicy()
	p.WallTime, p.CPUTime, p.IdleTime = wall, cpu, idle
	return p
}

// eachContainment runs f as the subtest name, as this machine bounds runs
// and, where that is a control group, once more in the rlimits fallback.
func eachContainment(t *testing.T, name string, f func(t *testing.T)) {
	t.Helper()
	needSandbox(t)
	mech := ContainmentInfo().Mechanism
	t.Run(name+"/"+mech, f)
	if mech != MechRlimits {
		restore := withoutGroups()
		defer restore()
		t.Run(name+"/"+MechRlimits, f)
	}
}

// A live run's clocks still stop what is busy: a runaway loop, a helper
// thread or process that computes while the program waits, and a program
// that sleeps with input the host gave it left unread, are all stopped
// by the wall clock, far from the 60 s they wanted.
func TestLiveBusyRunStoppedAtWallClock(t *testing.T) {
	for name, tt := range map[string]struct {
		code  string
		stdin string
		event bool
	}{
		"runaway loop":                {code: "while True:\n    pass\n"},
		"thread computes, main waits": {code: "import os, threading\ndef spin():\n    while True: pass\nthreading.Thread(target=spin, daemon=True).start()\nos.read(4, 1)\n"},
		"helper computes, main waits": {code: "import os\nif os.fork() == 0:\n    while True: pass\nos.read(4, 1)\n"},
		"event left unread in fd 4":   {code: "import time\ntime.sleep(60)\n", event: true},
		"typed line left unread":      {code: "import time\ntime.sleep(60)\n", stdin: "x\n"},
	} {
		eachContainment(t, name, func(t *testing.T) {
			p := startCode(t, tt.code, Spec{Policy: livePolicy(time.Second, 60*time.Second, time.Minute), Frames: true, Live: true}, nil)
			if tt.event {
				if err := p.SendControl([]byte(`{"type":"close"}`)); err != nil {
					t.Fatal(err)
				}
			}
			if tt.stdin != "" {
				p.WriteInput([]byte(tt.stdin))
			}
			p.CloseInput()
			o := p.Wait()
			if o.Status != StatusTimeout || o.Limit != "" || o.Duration > 20*time.Second {
				t.Errorf("%s: %s limit=%q after %v, want the wall clock's timeout", name, o.Status, o.Limit, o.Duration)
			}
		})
	}
}

// A live program that sleeps briefly between long busy stretches gets no
// more than its limit for each stretch: the first one, six times longer
// than the limit, is where it ends, by the wall clock or by the run's CPU.
// A stretch is 6 s of the program's own CPU, not of the clock on the wall:
// on a busy machine, where a run gets a fraction of a core, it still holds
// more than the CPU limit.
func TestLiveBusyStretchesStoppedEach(t *testing.T) {
	code := `import time
for i in range(1, 4):
    print("STRETCH", i, flush=True)
    end = time.process_time() + 6
    while time.process_time() < end:
        pass
    time.sleep(0.5)
print("OUTLASTED")
`
	for _, tt := range []struct {
		name  string
		pol   Policy
		limit string
	}{
		{"wall", livePolicy(time.Second, 60*time.Second, time.Minute), ""},
		{"cpu", livePolicy(60*time.Second, time.Second, time.Minute), "cpu"},
	} {
		eachContainment(t, tt.name, func(t *testing.T) {
			rec := &recorder{}
			p := startCode(t, code, Spec{Policy: tt.pol, Frames: true, Live: true}, rec)
			o := p.Wait()
			out := string(o.Stdout)
			if o.Status != StatusTimeout || o.Limit != tt.limit || !strings.Contains(out, "STRETCH 1") || strings.Contains(out, "STRETCH 2") {
				t.Errorf("%s: %s limit=%q after %v: %q", tt.name, o.Status, o.Limit, o.Duration, out)
			}
		})
	}
}

// A live program that waits (sleeps, or blocks on its events, or on
// input()) for longer than the whole wall clock is not stopped: waiting
// sets a live run's clocks back. Short busy stretches between waits add
// up to more than the wall clock and still pass. The same sleep in a
// normal run is stopped, as before.
func TestLiveWaitingIsNotStoppedByWallClock(t *testing.T) {
	pol := livePolicy(1500*time.Millisecond, 60*time.Second, time.Minute)
	for name, code := range map[string]string{
		"sleep":           "import time\ntime.sleep(4)\nprint('WOKE')\n",
		"waits on events": "import select\nselect.select([4], [], [], 4)\nprint('WOKE')\n",
		"busy then waits": "import time\nfor i in range(6):\n    end = time.time() + 0.4\n    while time.time() < end:\n        pass\n    time.sleep(0.6)\nprint('WOKE')\n",
	} {
		eachContainment(t, name, func(t *testing.T) {
			p := startCode(t, code, Spec{Policy: pol, Frames: true, Live: true}, nil)
			p.CloseInput()
			o := p.Wait()
			if o.Status != StatusOK || string(o.Stdout) != "WOKE\n" {
				t.Errorf("%s: %s limit=%q after %v: %q %q", name, o.Status, o.Limit, o.Duration, o.Stdout, o.Stderr)
			}
		})
	}
	eachContainment(t, "input", func(t *testing.T) {
		rec := &recorder{}
		p := startCode(t, "import sys\nprint('ASK', flush=True)\nprint(sys.stdin.readline().strip())\n", Spec{Policy: pol, Frames: true, Live: true}, rec)
		onOutput(rec, "ASK", func() {
			time.AfterFunc(4*time.Second, func() { p.WriteInput([]byte("typed\n")) })
		})
		if o := p.Wait(); o.Status != StatusOK || string(o.Stdout) != "ASK\ntyped\n" {
			t.Errorf("input(): %s limit=%q after %v: %q", o.Status, o.Limit, o.Duration, o.Stdout)
		}
	})
	needSandbox(t)
	p := startCode(t, "import time\ntime.sleep(4)\nprint('WOKE')\n", Spec{Policy: pol, Frames: true}, nil)
	if o := p.Wait(); o.Status != StatusTimeout {
		t.Errorf("a normal run's sleep: %s after %v, want the wall clock's timeout", o.Status, o.Duration)
	}
}

// A live run that gets no input for IdleTime ends as a timeout with limit
// "quiet", however still it is; events or typed lines keep it going.
func TestLiveQuietRunEnds(t *testing.T) {
	eachContainment(t, "no input", func(t *testing.T) {
		p := startCode(t, "import select\nselect.select([4], [], [], 60)\nprint('WOKE')\n",
			Spec{Policy: livePolicy(30*time.Second, 30*time.Second, time.Second), Frames: true, Live: true}, nil)
		o := p.Wait()
		if o.Status != StatusTimeout || o.Limit != "quiet" || o.Duration > 20*time.Second || strings.Contains(string(o.Stdout), "WOKE") {
			t.Errorf("%s limit=%q after %v, want quiet", o.Status, o.Limit, o.Duration)
		}
	})
	for name, tt := range map[string]struct {
		code string
		give func(p *Process) error
	}{
		"events": {"import os\nf = os.fdopen(4)\nfor i in range(8):\n    f.readline()\nprint('DONE')\n",
			func(p *Process) error { return p.SendControl([]byte(`{"type":"key","key":"Up","down":true}`)) }},
		"typed lines": {"import sys\nfor i in range(8):\n    sys.stdin.readline()\nprint('DONE')\n",
			func(p *Process) error { return p.WriteInput([]byte("x\n")) }},
	} {
		eachContainment(t, name, func(t *testing.T) {
			p := startCode(t, tt.code, Spec{Policy: livePolicy(30*time.Second, 30*time.Second, 1500*time.Millisecond), Frames: true, Live: true}, nil)
			// Eight inputs 0.4 s apart: 3.2 s in all, each gap far under the 1.5 s allowed.
			for range 8 {
				time.Sleep(400 * time.Millisecond)
				if err := tt.give(p); err != nil {
					t.Fatal(err)
				}
			}
			if o := p.Wait(); o.Status != StatusOK || string(o.Stdout) != "DONE\n" {
				t.Errorf("%s: %s limit=%q after %v: %q", name, o.Status, o.Limit, o.Duration, o.Stdout)
			}
		})
	}
}

// slowHandler takes its time over every frame, so a flooding program
// soon fills the frame pipe too.
type slowHandler struct{}

func (slowHandler) Output(Stream, []byte) {}
func (slowHandler) Frame([]byte)          { time.Sleep(time.Millisecond) }

// A program that never reads its control pipe, or floods frames instead,
// cannot hold the host: every SendControl returns within a bounded wait,
// and once the pipe is full the line is dropped with ErrControlFull.
func TestLiveSendControlNeverBlocks(t *testing.T) {
	line := []byte(`{"type":"answer","text":"` + strings.Repeat("x", 1000) + `"}`)
	for name, code := range map[string]string{
		"never reads fd 4": "import time\ntime.sleep(60)\n",
		"floods frames":    "import os, struct\nb = b'{\"type\":\"draw\",\"steps\":[],\"from\":0}'\nwhile True:\n    os.write(3, struct.pack('>I', len(b)) + b)\n",
	} {
		eachContainment(t, name, func(t *testing.T) {
			p := startCode(t, code, Spec{Policy: livePolicy(time.Minute, time.Minute, time.Minute), Frames: true, Live: true}, slowHandler{})
			full := false
			for i := 0; i < 1000 && !full; i++ {
				began := time.Now()
				err := p.SendControl(line)
				if took := time.Since(began); took > 2*time.Second {
					t.Fatalf("%s: SendControl took %v", name, took)
				}
				switch {
				case errors.Is(err, ErrControlFull):
					full = true
				case err != nil:
					t.Fatalf("%s: SendControl: %v", name, err)
				}
			}
			p.Stop()
			o := p.Wait()
			if !full || !o.Stopped {
				t.Errorf("%s: control pipe full %v; %s stopped=%v after %v", name, full, o.Status, o.Stopped, o.Duration)
			}
		})
	}
}

// A live run needs its control pipe.
func TestLiveNeedsFrames(t *testing.T) {
	if err := checkSpec(Spec{Python: testPython, Policy: DefaultPolicy(), Live: true}); err == nil {
		t.Fatal("a live spec without frames was accepted")
	}
}

// The host's own copy of a live run's stdin never keeps a write waiting
// for a reader that is gone: input larger than the pipe, for a program
// that ends without reading it, fails once the run is over.
func TestLiveStdinWriteEndsWithTheRun(t *testing.T) {
	needSandbox(t)
	p := startCode(t, "print('bye')\n", Spec{Policy: livePolicy(5*time.Second, 5*time.Second, time.Minute), Frames: true, Live: true}, nil)
	wrote := make(chan error, 1)
	go func() { wrote <- p.WriteInput(make([]byte, 1<<20)) }()
	select {
	case err := <-wrote:
		if err == nil {
			t.Error("1 MiB written to a program that read none of it")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the write to stdin still waits after the run ended")
	}
	if o := p.Wait(); o.Status != StatusOK || string(o.Stdout) != "bye\n" {
		t.Errorf("%s %q", o.Status, o.Stdout)
	}
}
