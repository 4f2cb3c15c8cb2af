package sandbox

import (
	"os"
	"reflect"
	"testing"
	"time"
)

func readLayout(t *testing.T, name string) cgroupLayout {
	t.Helper()
	cg, err := os.ReadFile("testdata/cgroup/" + name + ".cgroup")
	if err != nil {
		t.Fatal(err)
	}
	mi, err := os.ReadFile("testdata/cgroup/" + name + ".mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	return parseCgroupLayout(string(cg), string(mi))
}

// Layouts recorded from real machines: a Debian 12 desktop session (pure
// v2 under systemd), this kind of machine (hybrid v1 as root), a container
// with its own cgroup namespace, and an Ubuntu with v1 only.
func TestCgroupLayouts(t *testing.T) {
	tests := []struct {
		name     string
		v2Mount  string
		v2Path   string
		v1       map[string]v1Hierarchy
		v2Parent string
		v1Parent map[string]string
	}{
		{
			name:    "debian12-desktop",
			v2Mount: "/sys/fs/cgroup", v2Path: "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.kidcoder.classroom-4242.scope",
			v1:       map[string]v1Hierarchy{},
			v2Parent: "/sys/fs/cgroup/kidcoder-77",
		},
		{
			name:    "hybrid-v1-root",
			v2Mount: "/sys/fs/cgroup/unified", v2Path: "/",
			v1: map[string]v1Hierarchy{
				"cpu": {"/sys/fs/cgroup/cpu", "/"}, "cpuacct": {"/sys/fs/cgroup/cpuacct", "/"}, "cpuset": {"/sys/fs/cgroup/cpuset", "/"},
				"memory":  {"/sys/fs/cgroup/memory", "/process_api/e429e174a69269d97394e0c1a96ae931"},
				"devices": {"/sys/fs/cgroup/devices", "/"}, "freezer": {"/sys/fs/cgroup/freezer", "/"}, "blkio": {"/sys/fs/cgroup/blkio", "/"},
				"pids": {"/sys/fs/cgroup/pids", "/"}, "name=systemd": {"/sys/fs/cgroup/systemd", "/"},
			},
			v2Parent: "/sys/fs/cgroup/unified/kidcoder-77",
			v1Parent: map[string]string{
				"memory":  "/sys/fs/cgroup/memory/process_api/e429e174a69269d97394e0c1a96ae931/kidcoder-77",
				"pids":    "/sys/fs/cgroup/pids/kidcoder-77",
				"cpuacct": "/sys/fs/cgroup/cpuacct/kidcoder-77",
				"cpu":     "/sys/fs/cgroup/cpu/kidcoder-77",
			},
		},
		{
			name:    "container-ns",
			v2Mount: "/sys/fs/cgroup", v2Path: "/",
			v1:       map[string]v1Hierarchy{},
			v2Parent: "/sys/fs/cgroup/kidcoder-77",
		},
		{
			name: "ubuntu-v1-only",
			v1: map[string]v1Hierarchy{
				"pids":    {"/sys/fs/cgroup/pids", "/user.slice/user-1000.slice/session-3.scope"},
				"memory":  {"/sys/fs/cgroup/memory", "/user.slice/user-1000.slice/session-3.scope"},
				"cpu":     {"/sys/fs/cgroup/cpu,cpuacct", "/user.slice"},
				"cpuacct": {"/sys/fs/cgroup/cpu,cpuacct", "/user.slice"},
			},
			v1Parent: map[string]string{
				"memory":  "/sys/fs/cgroup/memory/user.slice/user-1000.slice/session-3.scope/kidcoder-77",
				"pids":    "/sys/fs/cgroup/pids/user.slice/user-1000.slice/session-3.scope/kidcoder-77",
				"cpuacct": "/sys/fs/cgroup/cpu,cpuacct/user.slice/kidcoder-77",
				"cpu":     "/sys/fs/cgroup/cpu,cpuacct/user.slice/kidcoder-77", // one hierarchy, one parent
			},
		},
	}
	for _, tt := range tests {
		l := readLayout(t, tt.name)
		if l.V2Mount != tt.v2Mount || l.V2Path != tt.v2Path {
			t.Errorf("%s: v2 %q %q, want %q %q", tt.name, l.V2Mount, l.V2Path, tt.v2Mount, tt.v2Path)
		}
		if !reflect.DeepEqual(l.V1, tt.v1) {
			t.Errorf("%s: v1 %v\nwant %v", tt.name, l.V1, tt.v1)
		}
		if tt.v2Mount != "" {
			if got := v2Parent(l, "kidcoder-77"); got != tt.v2Parent {
				t.Errorf("%s: v2 parent %q, want %q", tt.name, got, tt.v2Parent)
			}
		}
		got, ok := v1Parents(l, "kidcoder-77")
		if ok != (tt.v1Parent != nil) || !reflect.DeepEqual(got, tt.v1Parent) && tt.v1Parent != nil {
			t.Errorf("%s: v1 parents %v %v, want %v", tt.name, got, ok, tt.v1Parent)
		}
	}
}

func TestMountinfoEscapes(t *testing.T) {
	l := parseCgroupLayout("0::/a b\n", `26 22 0:24 / /sys/fs/my\040cgroup rw - cgroup2 cgroup2 rw`+"\n")
	if l.V2Mount != "/sys/fs/my cgroup" || l.V2Path != "/a b" {
		t.Errorf("got %q %q", l.V2Mount, l.V2Path)
	}
	// A mount of a sub-tree the process is not under is no place for it.
	l = parseCgroupLayout("0::/elsewhere\n", "26 22 0:24 /system.slice /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
	if l.V2Mount != "" {
		t.Errorf("used a sub-tree mount that does not hold the process: %q", l.V2Mount)
	}
	l = parseCgroupLayout("0::/system.slice/x.scope\n", "26 22 0:24 /system.slice /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
	if l.V2Mount != "/sys/fs/cgroup" || l.V2Path != "/x.scope" {
		t.Errorf("sub-tree mount: %q %q", l.V2Mount, l.V2Path)
	}
}

func TestCgroupLimits(t *testing.T) {
	p := DefaultPolicy()
	want2 := []cgroupWrite{
		{File: "memory.max", Value: "536870912"},
		{File: "memory.swap.max", Value: "0", Optional: true},
		{File: "memory.oom.group", Value: "1", Optional: true},
		{File: "pids.max", Value: "66"},
	}
	if got := cgroupLimits(2, p); !reflect.DeepEqual(got, want2) {
		t.Errorf("v2 limits %+v", got)
	}
	want1 := []cgroupWrite{
		{Controller: "memory", File: "memory.limit_in_bytes", Value: "536870912"},
		{Controller: "memory", File: "memory.memsw.limit_in_bytes", Value: "536870912", Optional: true},
		{Controller: "memory", File: "memory.swappiness", Value: "0", Optional: true},
		{Controller: "pids", File: "pids.max", Value: "66"},
	}
	if got := cgroupLimits(1, p); !reflect.DeepEqual(got, want1) {
		t.Errorf("v1 limits %+v", got)
	}
	if groupAddressSpace(p) <= p.MemoryBytes {
		t.Error("with a group, the address-space limit must not bind before the group's")
	}
	if effectivePolicy(p, false).MaxProcs != fallbackMaxProcs || effectivePolicy(p, true).MaxProcs != p.MaxProcs {
		t.Error("the fallback must cap processes, a group must not")
	}
}

func TestCgroupCounters(t *testing.T) {
	events := []byte("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n")
	if parseKeyed(events, "oom_kill") != 1 || parseKeyed(events, "max") != 12 || parseKeyed(events, "absent") != 0 {
		t.Error("memory.events")
	}
	v1 := []byte("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")
	if parseKeyed(v1, "oom_kill") != 3 {
		t.Error("memory.oom_control")
	}
	if parseKeyed([]byte("usage_usec 2500000\nuser_usec 2000000\n"), "usage_usec") != 2500000 {
		t.Error("cpu.stat")
	}
	if parseInt([]byte("123456\n")) != 123456 || parseInt([]byte("max\n")) != 0 {
		t.Error("single values")
	}
	if c := containmentOf(cgroupPlace{}, "why"); c.Mechanism != MechRlimits || !reflect.DeepEqual(c.Bounds, []string{"cpu"}) || c.Detail != "why" {
		t.Errorf("fallback %+v", c)
	}
	if c := containmentOf(cgroupPlace{Version: 1, Parents: map[string]string{"memory": "/m"}}, ""); c.Mechanism != MechCgroup1 || c.Detail != "/m" {
		t.Errorf("v1 %+v", c)
	}
}

// All runs of an app together: a fifth of a default group's CPU weight
// and one core, on v2, v1 and through systemd.
func TestCPUCeiling(t *testing.T) {
	want2 := []cgroupWrite{
		{File: "cpu.weight", Value: "20"},
		{File: "cpu.max", Value: "100000 100000"},
	}
	if got := cpuCeiling(2); !reflect.DeepEqual(got, want2) {
		t.Errorf("v2 ceiling %+v", got)
	}
	want1 := []cgroupWrite{
		{Controller: "cpu", File: "cpu.shares", Value: "204"},
		{Controller: "cpu", File: "cpu.cfs_period_us", Value: "100000"},
		{Controller: "cpu", File: "cpu.cfs_quota_us", Value: "100000"},
	}
	if got := cpuCeiling(1); !reflect.DeepEqual(got, want1) {
		t.Errorf("v1 ceiling %+v", got)
	}
	if got := scopeCPUProperties(); !reflect.DeepEqual(got, []string{"-p", "CPUWeight=20", "-p", "CPUQuota=100%"}) {
		t.Errorf("systemd properties %q", got)
	}
	c := containmentOf(cgroupPlace{Version: 2, Parents: map[string]string{"": "/g/kidcoder-1"}, CPUCeiling: true}, "")
	if !reflect.DeepEqual(c.Bounds, []string{"memory", "processes", "cpu", "cpu-ceiling"}) || c.Detail != "/g/kidcoder-1" {
		t.Errorf("with the ceiling %+v", c)
	}
	c = containmentOf(cgroupPlace{Version: 1, Parents: map[string]string{"memory": "/m"}, NoCeiling: "the cpu controller is not mounted"}, "")
	if !reflect.DeepEqual(c.Bounds, []string{"memory", "processes", "cpu"}) || c.Detail != "/m (no CPU ceiling: the cpu controller is not mounted)" {
		t.Errorf("without the ceiling %+v", c)
	}
}

// Only this package's parents are ever judged stale: systemd's scopes of
// the same prefix are not.
func TestIsParentName(t *testing.T) {
	for name, want := range map[string]bool{
		"kidcoder-0123456789abcdef":            true,
		"kidcoder-4242":                        true, // an older version's, named after a pid
		"kidcoder-runs-0123456789abcdef":       false,
		"kidcoder-runs-0123456789abcdef.scope": false,
		"kidcoder-app-0123456789abcdef.scope":  false,
		"kidcoder-0123456789ABCDEF":            false,
		"kidcoder-":                            false,
		"kidcoder-0123456789abcde":             false,
		"run-1":                                false,
	} {
		if got := isParentName(name); got != want {
			t.Errorf("isParentName(%q) = %v", name, got)
		}
	}
}

// The host's evidence that a task waits for input, from /proc texts.
func TestWaitEvidenceParsing(t *testing.T) {
	reads := readSyscalls["amd64"]
	cases := map[string]bool{
		"0 0x0 0x55d0c 0x2000 0x0 0x0 0x0 0x7ffd 0x7f12\n": true,  // read(0, ...)
		"19 0x0 0x7ffd 0x2 0x0 0x0 0x0 0x7ffd 0x7f12\n":    true,  // readv(0, ...)
		"0 0x3 0x55d0c 0x2000 0x0 0x0 0x0 0x7ffd 0x7f12\n": false, // read of another fd
		"35 0x7ffd 0x0 0x0 0x0 0x0 0x0 0x7ffd 0x7f12\n":    false, // nanosleep
		"running\n": false,
		"":          false,
	}
	for in, want := range cases {
		if got := blockedReadingFD0([]byte(in), reads); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
	stat := []byte("42 (py (x) thon) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 1 0 1000 0")
	if taskState(stat) != 'S' {
		t.Errorf("state %c", taskState(stat))
	}
	own, kids := cpuTimes(stat)
	if own != 3*time.Second || kids != 100*time.Millisecond {
		t.Errorf("cpu %v %v", own, kids)
	}
}
