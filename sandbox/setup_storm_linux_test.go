package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// stormSignals are what a busy app's threads are hit by while runs start:
// Go's preemption signal and a child's exit.
var stormSignals = []unix.Signal{unix.SIGURG, unix.SIGCHLD}

// signalStorm sends stormSignals to every thread of this process, and
// starts and reaps short-lived children, until stop is closed.
func signalStorm(stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		pid := os.Getpid()
		for {
			select {
			case <-stop:
				return
			default:
			}
			ents, _ := os.ReadDir("/proc/self/task")
			for _, e := range ents {
				if tid, err := strconv.Atoi(e.Name()); err == nil {
					for _, sig := range stormSignals {
						unix.Tgkill(pid, tid, sig)
					}
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			exec.Command("/bin/true").Run()
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return &wg
}

// A pidfd that cannot answer now says nothing of its process: under a storm
// of signals to every thread, a live process is never taken for dead, and
// a dead one is seen at once.
func TestPidfdExitedUnderSignals(t *testing.T) {
	child := exec.Command("/bin/sleep", "3600")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	fd, err := unix.PidfdOpen(child.Process.Pid, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	stop := make(chan struct{})
	storm := signalStorm(stop)
	defer func() { close(stop); storm.Wait() }()
	const looks = 20000
	for i := 0; i < looks; i++ {
		d := time.Duration(0)
		if i%100 == 0 {
			d = time.Millisecond // a wait, interrupted many times over
		}
		exited, err := pidfdExited(fd, d)
		if err != nil || exited {
			t.Fatalf("look %d at a live process: exited %v, error %v", i, exited, err)
		}
	}
	child.Process.Kill()
	exited, err := pidfdExited(fd, time.Hour)
	if err != nil || !exited {
		t.Fatalf("a killed process: exited %v, error %v", exited, err)
	}
}

// stormResult is one app's count of starts and what went wrong in them.
type stormResult struct {
	starts, stops int
	failures      []string
}

// stormRuns starts n runs of print('ok') from workers goroutines while a
// signal storm hits the process. Every third run is stopped at once and the
// next started without waiting for it, as Run pressed while running does.
// A run that was not stopped must print ok; a stopped one may end either
// way, but no run may end sandbox_unavailable or fail to start.
func stormRuns(n, workers int) stormResult {
	p := DefaultPolicy()
	// The verdict is about setting up, never speed: no bound a slow or
	// busy machine could reach.
	p.WallTime, p.CPUTime = 10*time.Minute, 10*time.Minute
	spec := Spec{Policy: p, Python: testPython, Args: []string{"-I", "-S", "-c", "print('ok')"}}
	stop := make(chan struct{})
	storm := signalStorm(stop)
	defer func() { close(stop); storm.Wait() }()

	var (
		mu   sync.Mutex
		res  stormResult
		next atomic.Int64
		wg   sync.WaitGroup
	)
	fail := func(format string, a ...any) {
		mu.Lock()
		res.failures = append(res.failures, fmt.Sprintf(format, a...))
		mu.Unlock()
	}
	check := func(i int, pr *Process, stopped bool) {
		o := pr.Wait()
		switch {
		case o.Status == StatusUnavailable || o.Setup != nil:
			fail("run %d (stopped %v): %s, setup %v", i, stopped, o.Status, o.Setup)
		case !stopped && (o.Status != StatusOK || string(o.Stdout) != "ok\n"):
			fail("run %d: %s exit %d, stdout %q, stderr %q", i, o.Status, o.ExitCode, o.Stdout, o.Stderr)
		case stopped && !o.Stopped:
			fail("run %d: stopped, but the outcome says not (%s)", i, o.Status)
		}
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var pending sync.WaitGroup
			defer pending.Wait()
			for {
				i := int(next.Add(1))
				if i > n {
					return
				}
				pr, err := Start(context.Background(), spec, nil)
				mu.Lock()
				res.starts++
				mu.Unlock()
				if err != nil {
					fail("run %d: Start: %v", i, err)
					continue
				}
				if i%3 != 0 {
					check(i, pr, false)
					continue
				}
				if d := rand.IntN(4); d > 0 {
					time.Sleep(time.Duration(d) * time.Millisecond)
				}
				pr.Stop()
				mu.Lock()
				res.stops++
				mu.Unlock()
				pending.Add(1)
				go func() { defer pending.Done(); check(i, pr, true) }()
			}
		}()
	}
	wg.Wait()
	return res
}

// TestHelperStormApp is one of the apps TestSetupUnderStorms and the soak
// start; skipped otherwise. It prints its counts and every failure.
func TestHelperStormApp(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KIDCODER_TEST_STORM_RUNS"))
	if n <= 0 {
		t.Skip("run by TestSetupUnderStorms")
	}
	needSandbox(t)
	res := stormRuns(n, 3)
	for _, f := range res.failures {
		fmt.Println("failure", f)
	}
	fmt.Printf("storm starts %d stops %d failures %d\n", res.starts, res.stops, len(res.failures))
}

// stormApps runs apps instances of TestHelperStormApp side by side, each
// starting runs runs, and sums what they report.
func stormApps(t *testing.T, apps, runs int) stormResult {
	t.Helper()
	var (
		mu  sync.Mutex
		sum stormResult
		wg  sync.WaitGroup
	)
	for a := 0; a < apps; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStormApp$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "KIDCODER_TEST_STORM_RUNS="+strconv.Itoa(runs))
			out, err := cmd.CombinedOutput()
			mu.Lock()
			defer mu.Unlock()
			reported := false
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				line := sc.Text()
				if f, ok := strings.CutPrefix(line, "failure "); ok {
					sum.failures = append(sum.failures, fmt.Sprintf("app %d: %s", a, f))
				}
				var s, st, fl int
				if n, _ := fmt.Sscanf(line, "storm starts %d stops %d failures %d", &s, &st, &fl); n == 3 {
					sum.starts, sum.stops, reported = sum.starts+s, sum.stops+st, true
				}
			}
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) || !reported || (ee != nil && ee.ExitCode() != 0) {
				sum.failures = append(sum.failures, fmt.Sprintf("app %d ended without its counts (%v):\n%s", a, err, out))
			}
		}()
	}
	wg.Wait()
	return sum
}

// Runs start whatever else the app does: four apps side by side, each with
// a storm of SIGURG and SIGCHLD at every thread and children exiting all
// the time, start 2,000 runs between them, a third of them stopped at once
// with the next started straight after. Not one may fail to start, end
// sandbox_unavailable, or hang. The count of starts is fixed, not the
// time: a slow machine takes longer and gives the same verdict.
func TestSetupUnderStorms(t *testing.T) {
	needSandbox(t)
	apps, runs := 4, 500
	if v := os.Getenv("KIDCODER_SOAK_STARTS"); v != "" {
		total, err := strconv.Atoi(v)
		if err != nil || total < apps {
			t.Fatalf("KIDCODER_SOAK_STARTS=%q", v)
		}
		runs = total / apps
	} else if testing.Short() {
		runs = 50
	}
	began := time.Now()
	res := stormApps(t, apps, runs)
	t.Logf("%d apps: %d starts (%d stopped at once) in %v, %d failures",
		apps, res.starts, res.stops, time.Since(began).Round(time.Millisecond), len(res.failures))
	for i, f := range res.failures {
		if i == 20 {
			t.Errorf("... and %d more", len(res.failures)-20)
			break
		}
		t.Error(f)
	}
	if res.starts != apps*runs {
		t.Errorf("%d starts, want %d", res.starts, apps*runs)
	}
}

// A set-up that fails names its step and the kernel's word for it: an init
// killed before it is let go ends the run sandbox_unavailable with the
// step where it was seen gone, and nothing of the program runs.
func TestSetupFailureNamesItsStep(t *testing.T) {
	needSandbox(t)
	testBeforeRelease = func(initPid, pidfd int) {
		syscall.Kill(initPid, syscall.SIGKILL)
		for exited, err := pidfdExited(pidfd, time.Minute); !exited; exited, err = pidfdExited(pidfd, time.Minute) {
			if err != nil {
				t.Error(err)
				return
			}
		}
	}
	defer func() { testBeforeRelease = nil }()
	p := testPolicy()
	pr, err := Start(context.Background(), Spec{Policy: p, Python: testPython, Args: []string{"-I", "-S", "-c", "print('ran')"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := pr.Wait()
	if o.Status != StatusUnavailable || o.Setup == nil {
		t.Fatalf("status %s, setup %v; want sandbox_unavailable with its step", o.Status, o.Setup)
	}
	// Whether the release's write meets the dead init's closed pipe
	// depends on whether bwrap keeps its own copy of the block fd.
	switch o.Setup.Step {
	case "init_ended":
	case "release_init":
		if o.Setup.Errno() != "EPIPE" {
			t.Errorf("release_init with %q (%v), want EPIPE", o.Setup.Errno(), o.Setup)
		}
	default:
		t.Errorf("step %q (%v), want init_ended or release_init", o.Setup.Step, o.Setup)
	}
	if len(o.Stdout) != 0 {
		t.Errorf("the program ran: %q", o.Stdout)
	}
	if !errors.Is(o.Setup, ErrUnavailable) {
		t.Errorf("%v does not wrap ErrUnavailable", o.Setup)
	}
	t.Logf("%v (errno %q)", o.Setup, o.Setup.Errno())
}

// A Stop that lands while the run is being set up, even before bwrap has
// reported its init, is a stop: never sandbox_unavailable, and Wait returns.
func TestStopDuringSetupIsAStop(t *testing.T) {
	needSandbox(t)
	for _, at := range []string{"before_info", "before_release"} {
		t.Run(at, func(t *testing.T) {
			var pr atomic.Pointer[Process]
			stopNow := func() {
				for pr.Load() == nil {
					time.Sleep(time.Millisecond)
				}
				pr.Load().Stop()
			}
			if at == "before_info" {
				testBeforeInfo = stopNow
				defer func() { testBeforeInfo = nil }()
			} else {
				testBeforeRelease = func(int, int) { stopNow() }
				defer func() { testBeforeRelease = nil }()
			}
			q, err := Start(context.Background(), Spec{Policy: testPolicy(), Python: testPython, Args: []string{"-I", "-S", "-c", "print('ran')"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			pr.Store(q)
			o := pr.Load().Wait()
			if o.Status == StatusUnavailable || o.Setup != nil || !o.Stopped {
				t.Fatalf("status %s, stopped %v, setup %v; want a stop", o.Status, o.Stopped, o.Setup)
			}
			if len(o.Stdout) != 0 {
				t.Errorf("the program ran: %q", o.Stdout)
			}
		})
	}
}
