package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroupFS is the control-group file system root as this package sees it;
// tests point it at a recorded copy.
var (
	contOnce  sync.Once
	contPlace cgroupPlace
	contInfo  Containment
	contMu    sync.Mutex
	runSeq    atomic.Int64
)

// containment finds, once per process, where runs' control groups go.
func containment() (cgroupPlace, Containment) {
	contOnce.Do(func() {
		place, why := detectContainment()
		contMu.Lock()
		contPlace, contInfo = place, containmentOf(place, why)
		contMu.Unlock()
	})
	contMu.Lock()
	defer contMu.Unlock()
	return contPlace, contInfo
}

// ContainmentInfo says how whole runs are bounded on this machine.
func ContainmentInfo() Containment {
	_, c := containment()
	return c
}

func detectContainment() (cgroupPlace, string) {
	self, err1 := os.ReadFile("/proc/self/cgroup")
	mi, err2 := os.ReadFile("/proc/self/mountinfo")
	if err1 != nil || err2 != nil {
		return cgroupPlace{}, "this system shows no control groups"
	}
	l := parseCgroupLayout(string(self), string(mi))
	pid := os.Getpid()
	var why []string
	if l.V2Mount != "" {
		p, err := prepareV2(l, pid)
		if err == nil {
			return p, ""
		}
		why = append(why, "cgroup v2: "+err.Error())
	}
	if len(l.V1) > 0 {
		p, err := prepareV1(l, pid)
		if err == nil {
			return p, ""
		}
		why = append(why, "cgroup v1: "+err.Error())
	}
	if len(why) == 0 {
		why = append(why, "no control-group hierarchy is mounted")
	}
	return cgroupPlace{}, strings.Join(why, "; ")
}

// prepareV2 makes the parent of run groups in the unified hierarchy. As
// root it is a top-level group of the app's own; otherwise systemd must
// hand the app a delegated scope (systemd-run --user --scope -p Delegate=yes).
func prepareV2(l cgroupLayout, pid int) (cgroupPlace, error) {
	need := []string{"memory", "pids"}
	var parent string
	if os.Geteuid() == 0 {
		if err := enableControllers(l.V2Mount, need); err != nil {
			return cgroupPlace{}, err
		}
		parent = v2Parent(l, pid)
		removeStaleParents(filepath.Dir(parent))
		if err := os.Mkdir(parent, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return cgroupPlace{}, err
		}
	} else {
		var err error
		if parent, err = delegatedScope(l); err != nil {
			return cgroupPlace{}, err
		}
	}
	if err := enableControllers(parent, need); err != nil {
		return cgroupPlace{}, err
	}
	return cgroupPlace{Version: 2, Parents: map[string]string{"": parent}}, nil
}

// enableControllers turns the controllers on for dir's children.
func enableControllers(dir string, need []string) error {
	have, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return err
	}
	avail := strings.Fields(string(have))
	var add []string
	for _, c := range need {
		if !contains(avail, c) {
			return fmt.Errorf("the %s controller is not available in %s", c, dir)
		}
		add = append(add, "+"+c)
	}
	on, _ := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	missing := false
	for _, c := range need {
		if !contains(strings.Fields(string(on)), c) {
			missing = true
		}
	}
	if !missing {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(strings.Join(add, " ")), 0o644)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// delegatedScope asks the user's systemd for a scope delegated to the app.
// A holder process keeps the scope alive for as long as the app lives
// (it dies with the app), and sits in a leaf of its own so the scope may
// enable controllers for the run groups beside it.
func delegatedScope(l cgroupLayout) (string, error) {
	run, err := exec.LookPath("systemd-run")
	if err != nil {
		return "", errors.New("no systemd-run to ask for a delegated scope")
	}
	sleep := "/usr/bin/sleep"
	if _, err := os.Stat(sleep); err != nil {
		sleep = "/bin/sleep"
	}
	cmd := exec.Command(run, scopeArgs(os.Getpid(), sleep)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go cmd.Wait()
	// systemd-run execs the holder once the scope exists; until then its
	// group is the app's own.
	own := filepath.Join(l.V2Mount, l.V2Path)
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cgroup")
		if err != nil {
			return "", err
		}
		p := v2PathOf(string(b))
		if p != "" && filepath.Join(l.V2Mount, p) != own {
			scope := filepath.Join(l.V2Mount, p)
			leaf := filepath.Join(scope, "holder")
			if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
				cmd.Process.Kill()
				return "", err
			}
			if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0); err != nil {
				cmd.Process.Kill()
				return "", err
			}
			return scope, nil
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			return "", errors.New("systemd did not start a delegated scope")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// scopeArgs asks systemd-run for a delegated scope around a holder process.
func scopeArgs(appPid int, sleep string) []string {
	return []string{"--user", "--scope", "--quiet", "--collect", "-p", "Delegate=yes",
		"--unit=kidcoder-runs-" + strconv.Itoa(appPid), "--", sleep, "infinity"}
}

// v2PathOf is the unified-hierarchy group in a /proc/PID/cgroup text.
func v2PathOf(selfCgroup string) string {
	for _, line := range strings.Split(selfCgroup, "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p
		}
	}
	return ""
}

// prepareV1 makes the parents of run groups in the memory, pids and cpuacct
// hierarchies; v1 hierarchies belong to root.
func prepareV1(l cgroupLayout, pid int) (cgroupPlace, error) {
	parents, ok := v1Parents(l, pid)
	if !ok {
		return cgroupPlace{}, errors.New("the memory, pids and cpuacct controllers are not all mounted")
	}
	for _, c := range cgroupControllers {
		removeStaleParents(filepath.Dir(parents[c]))
		if err := os.Mkdir(parents[c], 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return cgroupPlace{}, err
		}
	}
	// The memory controller must accept a limit here, or nothing is bounded.
	probe := filepath.Join(parents["memory"], "probe-"+strconv.Itoa(pid))
	if err := os.Mkdir(probe, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return cgroupPlace{}, err
	}
	err := os.WriteFile(filepath.Join(probe, "memory.limit_in_bytes"), []byte("1073741824"), 0)
	os.Remove(probe)
	if err != nil {
		return cgroupPlace{}, err
	}
	return cgroupPlace{Version: 1, Parents: parents}, nil
}

// removeStaleParents removes run-group parents of apps that are gone, and
// their empty run groups. Groups that still hold processes are left.
func removeStaleParents(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "kidcoder-")
		if !ok || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue
		}
		stale := filepath.Join(dir, e.Name())
		kids, _ := os.ReadDir(stale)
		for _, k := range kids {
			if k.IsDir() {
				os.Remove(filepath.Join(stale, k.Name()))
			}
		}
		os.Remove(stale)
	}
}

// runGroup is one run's control group (one directory per v1 hierarchy).
type runGroup struct {
	version int
	dirs    map[string]string // controller ("" for v2) -> directory
}

// newRunGroup makes a run's group and writes its limits.
func newRunGroup(place cgroupPlace, p Policy) (*runGroup, error) {
	name := "run-" + strconv.FormatInt(runSeq.Add(1), 10)
	g := &runGroup{version: place.Version, dirs: map[string]string{}}
	for c, parent := range place.Parents {
		d := filepath.Join(parent, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			g.remove()
			return nil, err
		}
		g.dirs[c] = d
	}
	for _, w := range cgroupLimits(place.Version, p) {
		err := os.WriteFile(filepath.Join(g.dirs[w.Controller], w.File), []byte(w.Value), 0o644)
		if err != nil && !(w.Optional && errors.Is(err, os.ErrNotExist)) {
			g.remove()
			return nil, fmt.Errorf("sandbox: %s: %w", w.File, err)
		}
	}
	return g, nil
}

// attach moves processes into the group; every hierarchy or none counts.
func (g *runGroup) attach(pids ...int) error {
	for _, d := range g.dirs {
		for _, pid := range pids {
			if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// usage reads the group's counters.
func (g *runGroup) usage() cgroupUsage {
	read := func(c, f string) []byte {
		b, _ := os.ReadFile(filepath.Join(g.dirs[c], f))
		return b
	}
	var u cgroupUsage
	if g.version == 2 {
		u.CPUNanos = parseKeyed(read("", "cpu.stat"), "usage_usec") * 1000
		u.MemPeak = parseInt(read("", "memory.peak"))
		u.OOMKills = parseKeyed(read("", "memory.events"), "oom_kill")
		u.PidsLimit = parseKeyed(read("", "pids.events"), "max")
		return u
	}
	u.CPUNanos = parseInt(read("cpuacct", "cpuacct.usage"))
	u.MemPeak = parseInt(read("memory", "memory.max_usage_in_bytes"))
	u.OOMKills = parseKeyed(read("memory", "memory.oom_control"), "oom_kill")
	u.PidsLimit = parseKeyed(read("pids", "pids.events"), "max")
	return u
}

// remove deletes the group once its processes are gone; the kernel frees
// a group's last charges asynchronously, so a busy group is retried briefly.
func (g *runGroup) remove() {
	for _, d := range g.dirs {
		for i := 0; i < 50; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// ProcessLimits are the per-process address-space and process-count limits
// a run's processes get on this machine under policy p: with a control
// group the group's memory limit binds first, without one fewer processes
// may exist.
func ProcessLimits(p Policy) (addressSpace int64, procs int) {
	place, _ := containment()
	contained := place.Version != 0
	q := effectivePolicy(p, contained)
	if contained {
		return groupAddressSpace(q), q.MaxProcs
	}
	return q.MemoryBytes, q.MaxProcs
}
