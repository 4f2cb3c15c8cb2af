package sandbox

import (
	"bufio"
	"path"
	"strconv"
	"strings"
)

// Whole-run limits. Per-process rlimits cannot see memory that no process
// maps (memfd, tmpfs, SysV shm, kernel memory) and let N processes take N
// times a limit, so where the machine allows it every run gets its own
// control group, which the kernel holds to one memory, process and CPU
// budget for all of the run's processes together. This file is the pure
// part (reading the machine's layout, choosing where run groups go, the
// values written), tested against recorded layouts on any OS.

// Containment names how a whole run is bounded on this machine.
type Containment struct {
	// Mechanism is "cgroup2", "cgroup1" or "rlimits" (no control group:
	// per-process limits with tighter process counts, see docs/sandbox-limits.md).
	Mechanism string `json:"mechanism"`
	// Bounds lists what is bounded for the run as a whole: "memory"
	// (including shared memory, tmpfs and kernel memory), "processes",
	// "cpu"; and "cpu-ceiling" where all runs of the app together have a
	// CPU weight below the app's and one core at most.
	Bounds []string `json:"bounds"`
	// Detail says where the run groups are made, or why there are none.
	Detail string `json:"detail"`
}

// Containment mechanisms.
const (
	MechCgroup2 = "cgroup2"
	MechCgroup1 = "cgroup1"
	MechRlimits = "rlimits"
)

// fallbackMaxProcs caps processes and threads per run when no control group
// bounds the run: memory is then bounded per process, so the process count
// is what multiplies it.
const fallbackMaxProcs = 8

// cgroupControllers are the v1 hierarchies a run group needs.
var cgroupControllers = []string{"memory", "pids", "cpuacct"}

// cpuController is the hierarchy that holds the CPU weight and ceiling of
// an app's runs (docs/sandbox-limits.md, "The window keeps the CPU"). It is
// not needed: without it runs are bounded as before, at nice 10, and
// Containment does not name "cpu-ceiling". On v1 it is often mounted
// together with cpuacct, as one hierarchy "cpu,cpuacct".
const cpuController = "cpu"

// cgroupLayout is where this process sits in the control-group hierarchies.
type cgroupLayout struct {
	V2Mount string // mount point of the unified (v2) hierarchy; "" if none
	V2Path  string // this process's group in it ("/" for the root)
	// V1 maps a v1 controller to its mount point and this process's group.
	V1 map[string]v1Hierarchy
}

type v1Hierarchy struct{ Mount, Path string }

// parseCgroupLayout reads /proc/self/cgroup and /proc/self/mountinfo.
func parseCgroupLayout(selfCgroup, mountinfo string) cgroupLayout {
	l := cgroupLayout{V1: map[string]v1Hierarchy{}}
	groups := map[string]string{} // controller (or "" for v2) -> path
	for _, line := range strings.Split(selfCgroup, "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[0] == "0" && f[1] == "" {
			groups[""] = f[2]
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			groups[c] = f[2]
		}
	}
	sc := bufio.NewScanner(strings.NewReader(mountinfo))
	for sc.Scan() {
		// id parent major:minor root mountpoint opts [optional...] - fstype source superopts
		left, right, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		lf, rf := strings.Fields(left), strings.Fields(right)
		if len(lf) < 5 || len(rf) < 3 {
			continue
		}
		mnt := unescapeMountinfo(lf[4])
		switch rf[0] {
		case "cgroup2":
			// A cgroup namespace or a bind can mount a sub-tree: the group
			// path is then relative to that sub-tree's root.
			if p, ok := groups[""]; ok && l.V2Mount == "" {
				if rel, ok := underRoot(p, unescapeMountinfo(lf[3])); ok {
					l.V2Mount, l.V2Path = mnt, rel
				}
			}
		case "cgroup":
			for _, opt := range strings.Split(rf[2], ",") {
				p, ok := groups[opt]
				if !ok {
					continue
				}
				if _, seen := l.V1[opt]; seen {
					continue
				}
				if rel, ok := underRoot(p, unescapeMountinfo(lf[3])); ok {
					l.V1[opt] = v1Hierarchy{Mount: mnt, Path: rel}
				}
			}
		}
	}
	return l
}

// underRoot makes group path p relative to a mount whose root is root.
func underRoot(p, root string) (string, bool) {
	if root == "/" {
		return p, true
	}
	if p == root {
		return "/", true
	}
	if strings.HasPrefix(p, root+"/") {
		return p[len(root):], true
	}
	return "", false
}

// unescapeMountinfo undoes the octal escapes (\040 for a space) of mountinfo.
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupPlace is where run groups are made: one parent directory per
// hierarchy (v2: a single entry under key "").
type cgroupPlace struct {
	Version int
	// Parents maps a v1 controller to its parent (v2: key ""). Controllers
	// mounted together as one hierarchy share one parent.
	Parents map[string]string
	// CPUCeiling says the parent holds cpuCeiling: all runs of the app
	// together have a low weight and one core at most.
	CPUCeiling bool
	// NoCeiling says why not, when the groups exist but CPUCeiling is false.
	NoCeiling string
}

// parentPrefix begins the name of every run-group parent. The rest of the
// name is random (parentName), never the app's pid: instances in different
// PID namespaces share pids, and the hierarchy with them.
const parentPrefix = "kidcoder-"

// v2Parent is the directory under which a root-run app makes its run
// groups in the unified hierarchy: a top-level group of its own, since the
// app's own group holds processes and so may not enable controllers for
// children ("no internal processes").
func v2Parent(l cgroupLayout, name string) string {
	return path.Join(l.V2Mount, name)
}

// v1Parents are the directories under which run groups are made in each v1
// hierarchy: inside the app's own group, so limits set above the app still
// hold for its runs. The cpu hierarchy is included when it is mounted.
func v1Parents(l cgroupLayout, name string) (map[string]string, bool) {
	out := map[string]string{}
	for _, c := range cgroupControllers {
		h, ok := l.V1[c]
		if !ok {
			return nil, false
		}
		out[c] = path.Join(h.Mount, h.Path, name)
	}
	if h, ok := l.V1[cpuController]; ok {
		out[cpuController] = path.Join(h.Mount, h.Path, name)
	}
	return out, true
}

// The CPU of an app's runs, all together. bwrap's --new-session (and any
// setsid inside) puts each run in an autogroup of its own, and nice orders
// tasks only within one autogroup, so nice 10 alone left a desktop program
// 16% of its CPU beside four sandboxed loops. A control group is scheduled
// as one entity beside the app and the rest of the desktop, whatever
// sessions its tasks make. Its ceiling is one core for all runs of the app
// together: the app's, not each run's, since four runs each held to a core
// would still take four cores of a four-core machine. On a machine of two
// cores or more the ceiling is what keeps the window a core. Its weight is
// a fifth of a default group's: where the window and the runs want the
// same core, the window gets five sixths of it. The weight holds against
// every busy program on the machine, not only the window, and a run kept
// waiting for a core still spends its wall clock, so it is not lower: at a
// tenth, on a 2-core machine loaded with other work, the self-test's
// probes ran out of their wall clock.
const (
	runsCPUWeight = 20     // cgroup v2 cpu.weight, of a default group's 100
	cpuPeriodUsec = 100000 // the kernel's default period
	runsCPUCores  = 1
)

// cpuCeiling are the values written into an app's parent of run groups,
// in the order written (v1 takes the period before the quota).
func cpuCeiling(version int) []cgroupWrite {
	period := strconv.Itoa(cpuPeriodUsec)
	quota := strconv.Itoa(runsCPUCores * cpuPeriodUsec)
	if version == 2 {
		return []cgroupWrite{
			{File: "cpu.weight", Value: strconv.Itoa(runsCPUWeight)},
			{File: "cpu.max", Value: quota + " " + period},
		}
	}
	return []cgroupWrite{
		// v1 shares are of 1024 for a default group.
		{Controller: cpuController, File: "cpu.shares", Value: strconv.Itoa(1024 * runsCPUWeight / 100)},
		{Controller: cpuController, File: "cpu.cfs_period_us", Value: period},
		{Controller: cpuController, File: "cpu.cfs_quota_us", Value: quota},
	}
}

// scopeCPUProperties ask systemd for cpuCeiling on a scope it delegates:
// the scope's own cpu files are its manager's to write.
func scopeCPUProperties() []string {
	return []string{"-p", "CPUWeight=" + strconv.Itoa(runsCPUWeight), "-p", "CPUQuota=" + strconv.Itoa(runsCPUCores*100) + "%"}
}

// isParentName says whether a group's name is a parent of run groups: the
// prefix and 16 hex digits, or an older version's prefix and a pid. Other
// groups that begin with the prefix (systemd's kidcoder-runs-… and
// kidcoder-app-… scopes) are never judged or swept as parents.
func isParentName(name string) bool {
	rest, ok := strings.CutPrefix(name, parentPrefix)
	if !ok || rest == "" {
		return false
	}
	hex, digits := len(rest) == 16, true
	for _, r := range rest {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
		if r > '9' {
			digits = false
		}
	}
	return hex || digits
}

// cgroupWrite is one value written into a run group's directory.
type cgroupWrite struct {
	Controller string // v1 hierarchy the file is in; "" for v2
	File       string
	Value      string
	Optional   bool // missing on some kernels (swap accounting off): skipped then
}

// runGroupPids is how many tasks a run group holds besides the program's:
// bwrap outside the namespace and bwrap as the namespace's init.
const runGroupPids = 2

// cgroupLimits are the values that bound one run's group, in the order
// written. Swap is closed: memory pushed to swap would escape the bound.
func cgroupLimits(version int, p Policy) []cgroupWrite {
	mem := strconv.FormatInt(p.MemoryBytes, 10)
	pids := strconv.Itoa(p.MaxProcs + runGroupPids)
	if version == 2 {
		return []cgroupWrite{
			{File: "memory.max", Value: mem},
			{File: "memory.swap.max", Value: "0", Optional: true},
			// On an out-of-memory kill the whole run ends, not just its
			// largest process: a run that lost a part is no run to judge.
			{File: "memory.oom.group", Value: "1", Optional: true},
			{File: "pids.max", Value: pids},
		}
	}
	return []cgroupWrite{
		{Controller: "memory", File: "memory.limit_in_bytes", Value: mem},
		{Controller: "memory", File: "memory.memsw.limit_in_bytes", Value: mem, Optional: true},
		{Controller: "memory", File: "memory.swappiness", Value: "0", Optional: true},
		{Controller: "pids", File: "pids.max", Value: pids},
	}
}

// cgroupUsage is what the host reads back from a run group.
type cgroupUsage struct {
	CPUNanos  int64 // all of the run's processes together, dead ones included
	MemPeak   int64 // the group's peak memory charge, bytes; 0 where unknown
	OOMKills  int64 // processes the kernel killed for the group's memory limit
	PidsLimit int64 // times a fork was refused at the process limit
}

// parseKeyed reads "key value" lines (memory.events, cpu.stat, memory.oom_control).
func parseKeyed(b []byte, key string) int64 {
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && k == key {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return 0
}

// parseInt reads a file holding one number.
func parseInt(b []byte) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// containmentOf describes a place (or its absence, with why).
func containmentOf(place cgroupPlace, why string) Containment {
	var c Containment
	switch place.Version {
	case 2:
		c = Containment{Mechanism: MechCgroup2, Bounds: []string{"memory", "processes", "cpu"}, Detail: place.Parents[""]}
	case 1:
		c = Containment{Mechanism: MechCgroup1, Bounds: []string{"memory", "processes", "cpu"}, Detail: place.Parents["memory"]}
	default:
		return Containment{Mechanism: MechRlimits, Bounds: []string{"cpu"}, Detail: why}
	}
	if place.CPUCeiling {
		c.Bounds = append(c.Bounds, "cpu-ceiling")
	} else if place.NoCeiling != "" {
		c.Detail += " (no CPU ceiling: " + place.NoCeiling + ")"
	}
	return c
}

// groupAddressSpace is each process's address-space limit when a control
// group bounds the run's memory: twice the run's memory, so the group's
// limit is reached first.
func groupAddressSpace(p Policy) int64 { return 2 * p.MemoryBytes }

// effectivePolicy is the policy a run gets on this machine: without a
// control group memory is bounded per process only, so fewer processes may exist.
func effectivePolicy(p Policy, contained bool) Policy {
	if !contained {
		p.MaxProcs = min(p.MaxProcs, fallbackMaxProcs)
	}
	return p
}
