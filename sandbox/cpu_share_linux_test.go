package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// busyLoops starts n runs of a busy loop side by side and returns once
// each has printed that it spins; stop ends them.
func busyLoops(tb testing.TB, n int) (runs []*Process, stop func()) {
	tb.Helper()
	return busyLoopsNamed(tb, n, "loop")
}

// busyLoopsNamed is busyLoops with the program's file named name.py,
// which shows in its command line.
func busyLoopsNamed(tb testing.TB, n int, name string) (runs []*Process, stop func()) {
	tb.Helper()
	p := testPolicy()
	p.WallTime, p.CPUTime = 10*time.Minute, 10*time.Minute
	spinning := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		rec := &recorder{}
		var once bool
		rec.onOut = func(Stream, []byte) {
			if !once {
				once = true
				spinning <- struct{}{}
			}
		}
		prog := "print('spinning', flush=True)\nwhile True: pass\n"
		spec := Spec{
			Policy: p,
			Python: testPython,
			Args:   []string{"-I", "-B", ScratchDir + "/" + name + ".py"},
			Data:   []DataFile{{Sandbox: ScratchDir + "/" + name + ".py", Data: []byte(prog)}},
		}
		pr, err := Start(context.Background(), spec, rec)
		if err != nil {
			for _, r := range runs {
				r.Stop()
				r.Wait()
			}
			tb.Fatal(err)
		}
		runs = append(runs, pr)
	}
	stop = func() {
		for _, r := range runs {
			r.Stop()
		}
		for _, r := range runs {
			r.Wait()
		}
	}
	ended := make(chan *Process, n)
	for _, r := range runs {
		go func() { <-r.Done(); ended <- r }()
	}
	for i := 0; i < n; i++ {
		select {
		case <-spinning:
		case r := <-ended:
			stop()
			tb.Fatalf("a busy loop ended before it spun: %+v", r.Wait())
		}
	}
	return runs, stop
}

// groupDirOf is the directory of pid's group in the v1 hierarchy of
// controller c, or in the unified hierarchy when c is "".
func groupDirOf(pid int, c string) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return "", false
	}
	l, err := ownLayout()
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if c == "" && f[0] == "0" && f[1] == "" {
			return filepath.Join(l.V2Mount, f[2]), true
		}
		for _, x := range strings.Split(f[1], ",") {
			if x == c && c != "" {
				if h, ok := l.V1[c]; ok {
					return filepath.Join(h.Mount, f[2]), true
				}
			}
		}
	}
	return "", false
}

// The CPU bounds of an app's runs together, as docs/sandbox-limits.md
// gives them: a fifth of the app's weight, a ceiling of one core.
var wantCeiling = map[int]map[string]string{
	1: {"cpu.shares": "204", "cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "100000"},
	2: {"cpu.weight": "20", "cpu.max": "100000 100000"},
}

// Every run of this app is held below the app's CPU weight and, all runs
// together, to one core. The group files say so, and the runs' processes
// are in that group: bwrap's --new-session and setsid would otherwise give
// each its own autogroup, which nice cannot order. Four busy loops
// together then never use more than the ceiling, however fast or loaded
// the machine: the kernel hands out no more than a core's time per period.
func TestRunsShareOneCPUCeiling(t *testing.T) {
	needGroups(t)
	version, cpuC, acctC := 1, "cpu", "cpuacct"
	if ContainmentInfo().Mechanism == MechCgroup2 {
		version, cpuC, acctC = 2, "", ""
		if !slices.Contains(ContainmentInfo().Bounds, "cpu-ceiling") {
			t.Skip("no cpu controller for the runs here: " + ContainmentInfo().Detail)
		}
	}
	runs, stop := busyLoops(t, 4)
	defer stop()
	var parent, acct string
	for i, r := range runs {
		r.sys.mu.Lock()
		pid := r.sys.initPid
		r.sys.mu.Unlock()
		g, ok := groupDirOf(pid, cpuC)
		a, _ := groupDirOf(pid, acctC)
		if !ok {
			t.Fatalf("run %d: its init %d is in no cpu group", i, pid)
		}
		if i == 0 {
			parent, acct = filepath.Dir(g), filepath.Dir(a)
		}
		if filepath.Dir(g) != parent || filepath.Dir(a) != acct || !strings.HasPrefix(filepath.Base(parent), parentPrefix) {
			t.Errorf("run %d: cpu group %s, accounted in %s; want a run group under one parent of the app's (%s)", i, g, a, parent)
		}
	}
	for f, want := range wantCeiling[version] {
		b, err := os.ReadFile(filepath.Join(parent, f))
		if got := strings.TrimSpace(string(b)); err != nil || got != want {
			t.Errorf("%s of %s = %q (%v), want %q", f, parent, got, err, want)
		}
	}
	if runtime.NumCPU() < 2 || t.Failed() {
		return // one core: the ceiling is the whole machine, the weight does the work
	}
	usage := func() time.Duration {
		if version == 2 {
			b, _ := os.ReadFile(filepath.Join(acct, "cpu.stat"))
			return time.Duration(parseKeyed(b, "usage_usec")) * time.Microsecond
		}
		b, _ := os.ReadFile(filepath.Join(acct, "cpuacct.usage"))
		return time.Duration(parseInt(b))
	}
	// What is read after t0 and before t1 was used within [t0, t1]. The
	// kernel may overrun a period by a scheduler tick per core; four
	// loops without a ceiling use every core there is.
	t0 := time.Now()
	u0 := usage()
	time.Sleep(2 * time.Second) // the span measured, not a wait for an event
	u1 := usage()
	wall := time.Since(t0)
	used := u1 - u0
	t.Logf("4 busy loops used %v of CPU in %v (%.2f cores)", used, wall, used.Seconds()/wall.Seconds())
	if used > wall*12/10+50*time.Millisecond {
		t.Errorf("4 busy loops used %v of CPU in %v: more than one core", used, wall)
	}
}

// BenchmarkNormalShareBesideLoops measures what a normal program of the
// desktop gets of its CPU while four sandboxed busy loops run: a busy loop
// of its own for 3 s, outside any sandbox, its CPU time over its wall
// time. Target: at least 80%. Each round measures it alone, then beside
// the loops, so that what the rest of the machine takes shows apart from
// what the runs take; runs-cores is what the loops used together. Under
// `taskset -c 0` the runs and the program share one core, where only the
// weight holds the runs back. A figure, not a verdict: it depends on what
// else the machine runs.
func BenchmarkNormalShareBesideLoops(b *testing.B) {
	needSandbox(b)
	var alone, beside, cores []float64
	for i := 0; i < b.N; i++ {
		alone = append(alone, normalShare(b, 3*time.Second))
		runs, stop := busyLoops(b, 4)
		u0, t0 := runsCPU(runs), time.Now()
		beside = append(beside, normalShare(b, 3*time.Second))
		cores = append(cores, (runsCPU(runs)-u0).Seconds()/time.Since(t0).Seconds())
		stop()
	}
	median := func(x []float64) float64 {
		sort.Float64s(x)
		return x[len(x)/2]
	}
	b.ReportMetric(100*median(beside), "%-normal-share")
	b.ReportMetric(100*median(alone), "%-normal-share-alone")
	b.ReportMetric(median(cores), "runs-cores")
}

// runsCPU is the CPU the runs have used so far, by their groups' counts.
func runsCPU(runs []*Process) time.Duration {
	var sum time.Duration
	for _, r := range runs {
		if r.sys.group != nil {
			sum += time.Duration(r.sys.group.usage().CPUNanos)
		}
	}
	return sum
}

// normalShare runs a busy loop outside the sandbox for d and returns its
// CPU time over its wall time.
func normalShare(tb testing.TB, d time.Duration) float64 {
	code := "import time\nend = time.monotonic() + " + strconv.FormatFloat(d.Seconds(), 'f', 3, 64) + "\nwhile time.monotonic() < end: pass\n"
	cmd := exec.Command(testPython, "-I", "-S", "-c", code)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		tb.Fatal(err)
	}
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return cpu.Seconds() / wall.Seconds()
}
