package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The unified-hierarchy path, on a recorded directory layout: a delegated
// parent whose controllers are enabled for its children, a run group with
// its limits, processes attached, counters read back.
func TestCgroupV2OnRecordedLayout(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, "user@1000.service", "app.slice", "kidcoder-runs-4242.scope")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(parent, "cgroup.controllers"), "cpuset cpu io memory pids\n")
	write(filepath.Join(parent, "cgroup.subtree_control"), "\n")
	if err := enableControllers(parent, []string{"memory", "pids"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control")); string(b) != "+memory +pids" {
		t.Errorf("subtree_control %q", b)
	}
	// Already on: nothing is written again.
	write(filepath.Join(parent, "cgroup.subtree_control"), "memory pids\n")
	if err := enableControllers(parent, []string{"memory", "pids"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control")); string(b) != "memory pids\n" {
		t.Errorf("rewrote subtree_control: %q", b)
	}
	// A delegation without the memory controller is no place for runs.
	bare := filepath.Join(root, "bare")
	os.Mkdir(bare, 0o755)
	write(filepath.Join(bare, "cgroup.controllers"), "cpu pids\n")
	if err := enableControllers(bare, []string{"memory", "pids"}); err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("no memory controller: %v", err)
	}

	// As root the app makes its parent itself and writes its CPU ceiling,
	// the cpu controller turned on above it.
	top := filepath.Join(root, "kidcoder-0123456789abcdef")
	os.Mkdir(top, 0o755)
	write(filepath.Join(root, "cgroup.controllers"), "cpuset cpu io memory pids\n")
	write(filepath.Join(root, "cgroup.subtree_control"), "memory pids\n")
	if err := ceilV2(root, top); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "cgroup.subtree_control")); string(b) != "+cpu" {
		t.Errorf("root subtree_control %q", b)
	}
	if err := ceilingHolds(2, map[string]string{"": top}); err != nil {
		t.Error(err)
	}
	// Where the cpu controller is not to be had, the runs go without.
	write(filepath.Join(root, "cgroup.controllers"), "memory pids\n")
	if err := ceilV2(root, top); err == nil || !strings.Contains(err.Error(), "cpu controller") {
		t.Errorf("no cpu controller: %v", err)
	}

	pol := DefaultPolicy()
	g, err := newRunGroup(cgroupPlace{Version: 2, Parents: map[string]string{"": parent}}, pol)
	if err != nil {
		t.Fatal(err)
	}
	dir := g.dirs[""]
	if filepath.Dir(dir) != parent || !strings.HasPrefix(filepath.Base(dir), "run-") {
		t.Errorf("run group at %s", dir)
	}
	for _, w := range cgroupLimits(2, pol) {
		if b, _ := os.ReadFile(filepath.Join(dir, w.File)); string(b) != w.Value {
			t.Errorf("%s = %q, want %q", w.File, b, w.Value)
		}
	}
	if err := g.attach(101, 102); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, "cpu.stat"), "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n")
	write(filepath.Join(dir, "memory.peak"), "134217728\n")
	write(filepath.Join(dir, "memory.events"), "low 0\nhigh 0\nmax 40\noom 1\noom_kill 1\n")
	write(filepath.Join(dir, "pids.events"), "max 3\n")
	u := g.usage()
	want := cgroupUsage{CPUNanos: int64(2500 * time.Millisecond), MemPeak: 128 << 20, OOMKills: 1, PidsLimit: 3}
	if !reflect.DeepEqual(u, want) {
		t.Errorf("usage %+v, want %+v", u, want)
	}
}

// The v1 hierarchies, recorded the same way: one run directory per controller.
func TestCgroupV1OnRecordedLayout(t *testing.T) {
	root := t.TempDir()
	parents := map[string]string{}
	for _, c := range cgroupControllers {
		parents[c] = filepath.Join(root, c, "kidcoder-77")
		os.MkdirAll(parents[c], 0o755)
	}
	g, err := newRunGroup(cgroupPlace{Version: 1, Parents: parents}, DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(g.dirs["memory"], "memory.limit_in_bytes")); string(b) != "536870912" {
		t.Errorf("memory limit %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(g.dirs["pids"], "pids.max")); string(b) != "66" {
		t.Errorf("pids.max %q", b)
	}
	os.WriteFile(filepath.Join(g.dirs["cpuacct"], "cpuacct.usage"), []byte("1500000000\n"), 0o644)
	os.WriteFile(filepath.Join(g.dirs["memory"], "memory.max_usage_in_bytes"), []byte("1048576\n"), 0o644)
	os.WriteFile(filepath.Join(g.dirs["memory"], "memory.oom_control"), []byte("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"), 0o644)
	if u := g.usage(); u.CPUNanos != 1500000000 || u.MemPeak != 1<<20 || u.OOMKills != 2 {
		t.Errorf("usage %+v", u)
	}
}

// A v1 machine with cpu and cpuacct mounted as one hierarchy, recorded as
// a directory tree: one parent serves both controllers and holds the CPU
// ceiling, a run group is one directory there, and the sweep before it
// removed a dead app's parent in another session's group while it kept
// systemd's scopes of the same prefix.
func TestCgroupV1CoMountedOnRecordedLayout(t *testing.T) {
	root := t.TempDir()
	mounts := map[string]string{"memory": "memory", "pids": "pids", "cpu": "cpu,cpuacct", "cpuacct": "cpu,cpuacct"}
	own := "/user.slice/user-1000.slice/session-3.scope"
	l := cgroupLayout{V1: map[string]v1Hierarchy{}}
	for c, m := range mounts {
		l.V1[c] = v1Hierarchy{Mount: filepath.Join(root, m), Path: own}
		if err := os.MkdirAll(filepath.Join(root, m, own), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stale := filepath.Join(root, "memory/user.slice/user-1000.slice/session-2.scope/kidcoder-0123456789abcdef")
	scope := filepath.Join(root, "cpu,cpuacct/user.slice/user-1000.slice/user@1000.service/kidcoder-runs-0123456789abcdef.scope")
	for _, d := range []string{filepath.Join(stale, "run-1"), filepath.Join(scope, "holder")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	place, err := prepareV1(l)
	t.Cleanup(func() {
		lockMu.Lock()
		defer lockMu.Unlock()
		for d, f := range parentLocks {
			if strings.HasPrefix(d, root) {
				f.Close()
				delete(parentLocks, d)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("the dead app's parent in another session was kept")
	}
	if _, err := os.Stat(filepath.Join(scope, "holder")); err != nil {
		t.Errorf("a systemd scope named kidcoder-runs-… was swept: %v", err)
	}
	cpu := place.Parents["cpu"]
	if cpu == "" || cpu != place.Parents["cpuacct"] || filepath.Dir(cpu) != filepath.Join(root, "cpu,cpuacct", own) {
		t.Fatalf("parents %v: cpu and cpuacct want one parent in %s", place.Parents, own)
	}
	if len(place.Parents) != 4 || !place.CPUCeiling || place.NoCeiling != "" {
		t.Errorf("place %+v", place)
	}
	if err := ceilingHolds(1, place.Parents); err != nil {
		t.Errorf("ceiling: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Dir(cpu))
	if len(ents) != 1 {
		t.Errorf("%d entries beside the parent in the cpu,cpuacct hierarchy, want only it", len(ents))
	}
	g, err := newRunGroup(place, DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	if g.dirs["cpu"] != g.dirs["cpuacct"] || len(g.each()) != 3 {
		t.Errorf("run group dirs %v", g.dirs)
	}
	if err := g.attach(4242); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(g.dirs["cpu"], "cgroup.procs")); string(b) != "4242" {
		t.Errorf("cgroup.procs %q", b)
	}
	// Without a cpu hierarchy the runs are bounded as before and say why
	// there is no ceiling.
	delete(l.V1, "cpu")
	place, err = prepareV1(l)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := place.Parents["cpu"]; ok || place.CPUCeiling || place.NoCeiling != "the cpu controller is not mounted" {
		t.Errorf("without cpu: %+v", place)
	}
}

func TestDelegatedScopeArgs(t *testing.T) {
	want := []string{"--user", "--scope", "--quiet", "--collect", "-p", "Delegate=yes",
		"-p", "CPUWeight=20", "-p", "CPUQuota=100%",
		"--unit=kidcoder-runs-4242", "--", "/usr/bin/sleep", "infinity"}
	if got := scopeArgs("kidcoder-4242", "/usr/bin/sleep"); !reflect.DeepEqual(got, want) {
		t.Errorf("scopeArgs = %q", got)
	}
	if p := v2PathOf("1:name=systemd:/x\n0::/user.slice/app.slice/kidcoder-runs-4242.scope\n"); p != "/user.slice/app.slice/kidcoder-runs-4242.scope" {
		t.Errorf("v2PathOf = %q", p)
	}
	if p := v2PathOf("4:memory:/a\n"); p != "" {
		t.Errorf("v1-only: %q", p)
	}
}

// withoutGroups makes later runs use the fallback, as on a machine without
// control groups, until the returned function restores the finding. Tests only.
func withoutGroups() (restore func()) {
	place, info := containment()
	contMu.Lock()
	contPlace, contInfo = cgroupPlace{}, containmentOf(cgroupPlace{}, "control groups turned off")
	contMu.Unlock()
	return func() {
		contMu.Lock()
		contPlace, contInfo = place, info
		contMu.Unlock()
	}
}
