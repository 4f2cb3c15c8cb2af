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

func TestDelegatedScopeArgs(t *testing.T) {
	want := []string{"--user", "--scope", "--quiet", "--collect", "-p", "Delegate=yes",
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
