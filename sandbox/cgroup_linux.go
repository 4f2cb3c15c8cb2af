package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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
	var why []string
	if l.V2Mount != "" {
		p, err := prepareV2(l)
		if err == nil {
			return p, ""
		}
		why = append(why, "cgroup v2: "+err.Error())
	}
	if len(l.V1) > 0 {
		p, err := prepareV1(l)
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
func prepareV2(l cgroupLayout) (cgroupPlace, error) {
	place := cgroupPlace{Version: 2}
	var parent string
	if os.Geteuid() == 0 {
		if err := enableControllers(l.V2Mount, v2Need); err != nil {
			return cgroupPlace{}, err
		}
		removeStaleParents(l.V2Mount)
		var err error
		if parent, err = makeParent(l.V2Mount); err != nil {
			return cgroupPlace{}, err
		}
		place.NoCeiling = errText(ceilV2(l.V2Mount, parent))
	} else {
		var err error
		if parent, err = delegatedScope(l); err != nil {
			return cgroupPlace{}, err
		}
		// systemd wrote the scope's ceiling (scopeCPUProperties) where the
		// user's manager has the cpu controller; elsewhere it could not.
		place.NoCeiling = errText(ceilingHolds(2, map[string]string{"": parent}))
	}
	if err := enableControllers(parent, v2Need); err != nil {
		return cgroupPlace{}, err
	}
	place.Parents = map[string]string{"": parent}
	place.CPUCeiling = place.NoCeiling == ""
	return place, nil
}

// v2Need are the controllers a v2 parent enables for its run groups.
var v2Need = []string{"memory", "pids"}

// ceilV2 gives a parent this process made in base its CPU weight and
// ceiling; the cpu controller is turned on in base for that, if it can be.
func ceilV2(base, parent string) error {
	if err := enableControllers(base, []string{cpuController}); err != nil {
		return err
	}
	return writeCeiling(2, map[string]string{"": parent})
}

// writeCeiling writes cpuCeiling into the parents.
func writeCeiling(version int, parents map[string]string) error {
	for _, w := range cpuCeiling(version) {
		if err := os.WriteFile(filepath.Join(parents[w.Controller], w.File), []byte(w.Value), 0o644); err != nil {
			return fmt.Errorf("%s: %w", w.File, err)
		}
	}
	return nil
}

// ceilingHolds says whether the parents hold cpuCeiling.
func ceilingHolds(version int, parents map[string]string) error {
	for _, w := range cpuCeiling(version) {
		b, err := os.ReadFile(filepath.Join(parents[w.Controller], w.File))
		if err != nil {
			return err
		}
		if got := strings.TrimSpace(string(b)); got != w.Value {
			return fmt.Errorf("%s is %q", w.File, got)
		}
	}
	return nil
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
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
	cmd := exec.Command(run, scopeArgs(parentName(), sleep)...)
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

// scopeArgs asks systemd-run for a delegated scope around a holder
// process. The unit's name is random like a parent's: two instances in
// different PID namespaces may have the same pid and the same user manager.
func scopeArgs(name, sleep string) []string {
	a := []string{"--user", "--scope", "--quiet", "--collect", "-p", "Delegate=yes"}
	a = append(a, scopeCPUProperties()...)
	return append(a, "--unit="+scopeUnit(name, "kidcoder-runs-"), "--", sleep, "infinity")
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

// prepareV1 makes the parents of run groups in the memory, pids, cpuacct
// and (where mounted) cpu hierarchies, one per hierarchy: controllers
// mounted together share it. v1 hierarchies belong to root.
func prepareV1(l cgroupLayout) (cgroupPlace, error) {
	dirs, ok := v1Parents(l, "")
	if !ok {
		return cgroupPlace{}, errors.New("the memory, pids and cpuacct controllers are not all mounted")
	}
	place := cgroupPlace{Version: 1, Parents: map[string]string{}}
	made := map[string]string{} // hierarchy directory -> the parent made in it
	swept := map[string]bool{}
	for _, c := range append(append([]string{}, cgroupControllers...), cpuController) {
		d, ok := dirs[c]
		if !ok {
			place.NoCeiling = "the cpu controller is not mounted"
			continue
		}
		if p, ok := made[d]; ok {
			place.Parents[c] = p
			continue
		}
		if m := l.V1[c].Mount; !swept[m] {
			swept[m] = true
			removeStaleParentsUnder(m)
		}
		p, err := makeParent(d)
		if err != nil {
			if c == cpuController {
				place.NoCeiling = err.Error()
				continue
			}
			return cgroupPlace{}, err
		}
		made[d], place.Parents[c] = p, p
	}
	// The memory controller must accept a limit here, or nothing is bounded.
	probe := filepath.Join(place.Parents["memory"], "probe")
	if err := os.Mkdir(probe, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return cgroupPlace{}, err
	}
	err := os.WriteFile(filepath.Join(probe, "memory.limit_in_bytes"), []byte("1073741824"), 0)
	os.Remove(probe)
	if err != nil {
		return cgroupPlace{}, err
	}
	if _, ok := place.Parents[cpuController]; ok {
		// Runs stay in the cpu parent even without the ceiling: there they
		// are one entity to the scheduler, not an autogroup each.
		place.NoCeiling = errText(writeCeiling(1, place.Parents))
	}
	place.CPUCeiling = place.NoCeiling == ""
	return place, nil
}

// Liveness of a parent. Each instance holds an exclusive flock on every
// parent directory it made, on a descriptor it keeps open for as long as
// it lives; the kernel drops the lock when the process dies, however it
// dies. A lock is the same lock in every PID namespace, where a pid is
// not: kill(pid, 0) from another namespace finds no process, or the wrong
// one.
var (
	lockMu sync.Mutex
	// parentLocks holds the locked parent directories by the directory
	// they were made in: one per hierarchy.
	parentLocks = map[string]*os.File{}
)

// parentName is a fresh random name for a parent.
func parentName() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return parentPrefix + hex.EncodeToString(b[:])
}

// makeParent makes a parent with a fresh name in dir and holds its lock
// in place of any parent made in dir before. The lock is taken after
// mkdir, so another instance sweeping dir may take it first and remove
// the directory: the parent is ours only once it is locked and still the
// directory at its path; otherwise another name is tried.
func makeParent(dir string) (string, error) {
	var last error
	for try := 0; try < 8; try++ {
		p := filepath.Join(dir, parentName())
		if err := os.Mkdir(p, 0o755); err != nil {
			last = err
			if errors.Is(err, os.ErrExist) {
				continue
			}
			return "", err
		}
		f, err := lockDir(p)
		if err != nil {
			last = err
			continue
		}
		fi, err1 := f.Stat()
		now, err2 := os.Stat(p)
		if err1 != nil || err2 != nil || !os.SameFile(fi, now) {
			f.Close()
			last = fmt.Errorf("%s was removed while it was made", p)
			continue
		}
		lockMu.Lock()
		if old := parentLocks[dir]; old != nil {
			old.Close()
		}
		parentLocks[dir] = f
		lockMu.Unlock()
		return p, nil
	}
	return "", fmt.Errorf("no parent for run groups in %s: %w", dir, last)
}

// errLocked is returned by lockDir when another open descriptor holds the lock.
var errLocked = errors.New("locked")

// lockDir opens a directory and takes its exclusive lock without waiting.
func lockDir(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, err
	}
	return f, nil
}

// removeStaleParents removes the parents in dir whose lock is free, their
// owner being dead, with their run groups. Whatever a dead app left in a
// run group is a sandbox of its: it is killed, as the app would have done.
// A parent whose lock is held is never touched, this process's own
// included (a second open file is a second lock holder).
func removeStaleParents(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !isParentName(e.Name()) {
			continue
		}
		stale := filepath.Join(dir, e.Name())
		// A parent named after a pid is an older version's, which holds no
		// lock: it is judged as that version did, and what runs in it is
		// never killed.
		rest := strings.TrimPrefix(e.Name(), parentPrefix)
		pid, err := strconv.Atoi(rest)
		legacy := err == nil && len(rest) != 16 // 16 random digits are no pid
		if legacy && syscall.Kill(pid, 0) == nil {
			continue
		}
		f, err := lockDir(stale)
		if err != nil {
			continue
		}
		kids, _ := os.ReadDir(stale)
		for _, k := range kids {
			if k.IsDir() {
				g := &runGroup{dirs: map[string]string{"": filepath.Join(stale, k.Name())}}
				if legacy {
					os.Remove(g.dirs[""])
					continue
				}
				g.killAll()
				g.remove()
			}
		}
		os.Remove(stale)
		f.Close()
	}
}

// removeStaleParentsUnder sweeps every group of a v1 hierarchy that holds
// parents. An app makes its parents inside its own group, which differs
// from one login session or service to the next, so the app that comes
// next may live elsewhere in the tree than the one that died. The walk
// does not go into parents, and is bounded in depth and breadth.
func removeStaleParentsUnder(root string) {
	const maxDepth, maxGroups = 16, 4096
	seen := 0
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		holds := false
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			if isParentName(e.Name()) {
				holds = true
				continue
			}
			if depth < maxDepth && seen < maxGroups {
				seen++
				walk(filepath.Join(dir, e.Name()), depth+1)
			}
		}
		if holds {
			removeStaleParents(dir)
		}
	}
	walk(root, 0)
}

// liveParents returns the place with every parent that has vanished made
// again (someone removed it, or the whole group tree was reset): runs go
// on instead of failing for the rest of the process's life.
func liveParents() (cgroupPlace, error) {
	place, _ := containment()
	if place.Version == 0 {
		return place, nil
	}
	contMu.Lock()
	defer contMu.Unlock()
	place = contPlace
	fresh := place
	fresh.Parents = map[string]string{}
	remade := map[string]string{} // vanished parent -> the one made for it
	for _, c := range slices.Sorted(maps.Keys(place.Parents)) {
		p := place.Parents[c]
		if np, ok := remade[p]; ok { // controllers mounted together
			fresh.Parents[c] = np
			continue
		}
		if parentHeld(p) {
			fresh.Parents[c] = p
			continue
		}
		var np string
		var err error
		if place.Version == 2 && os.Geteuid() != 0 {
			// A delegated scope is systemd's: a new one is asked for.
			var l cgroupLayout
			if l, err = ownLayout(); err == nil {
				var fp cgroupPlace
				if fp, err = prepareV2(l); err == nil {
					np, fresh.CPUCeiling, fresh.NoCeiling = fp.Parents[""], fp.CPUCeiling, fp.NoCeiling
				}
			}
		} else {
			np, err = makeParent(filepath.Dir(p))
			if err == nil && place.Version == 2 {
				if err = enableControllers(np, v2Need); err == nil {
					fresh.NoCeiling = errText(ceilV2(filepath.Dir(np), np))
				}
			}
		}
		if err != nil {
			return place, err
		}
		remade[p] = np
		fresh.Parents[c] = np
	}
	if len(remade) == 0 {
		return fresh, nil
	}
	if _, ok := remade[place.Parents[cpuController]]; ok && place.Version == 1 {
		fresh.NoCeiling = errText(writeCeiling(1, fresh.Parents))
	}
	fresh.CPUCeiling = fresh.NoCeiling == ""
	contPlace = fresh
	contInfo = containmentOf(fresh, "")
	return fresh, nil
}

// parentHeld says whether p is still the directory whose lock this process holds.
func parentHeld(p string) bool {
	lockMu.Lock()
	f := parentLocks[filepath.Dir(p)]
	lockMu.Unlock()
	now, err := os.Stat(p)
	if err != nil {
		return false
	}
	if f == nil {
		return true // a delegated scope: systemd's, not locked
	}
	fi, err := f.Stat()
	return err == nil && os.SameFile(fi, now)
}

func ownLayout() (cgroupLayout, error) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return cgroupLayout{}, err
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return cgroupLayout{}, err
	}
	return parseCgroupLayout(string(self), string(mi)), nil
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
	for _, c := range slices.Sorted(maps.Keys(place.Parents)) {
		d := filepath.Join(place.Parents[c], name)
		if !slices.Contains(g.each(), d) { // controllers mounted together share it
			if err := os.Mkdir(d, 0o755); err != nil {
				g.remove()
				return nil, err
			}
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

// each is the group's directories, one per hierarchy.
func (g *runGroup) each() []string {
	var out []string
	for _, d := range g.dirs {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// attach moves processes into the group; every hierarchy or none counts.
func (g *runGroup) attach(pids ...int) error {
	for _, d := range g.each() {
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

// killAll SIGKILLs every process in the group: at once through
// cgroup.kill where the kernel has it (v2), else one by one as listed.
func (g *runGroup) killAll() {
	for _, d := range g.each() {
		if f, err := os.OpenFile(filepath.Join(d, "cgroup.kill"), os.O_WRONLY, 0); err == nil {
			_, err = f.Write([]byte("1"))
			f.Close()
			if err == nil {
				continue
			}
		}
		b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// remove deletes the group once its processes are gone. The kernel frees
// a group's last charges asynchronously, in a worker that a busy machine
// can hold back for seconds (rmdir says EBUSY meanwhile): a group still
// busy after a short wait is left to a removal in the background, so no
// run waits on the kernel's worker and the group does not stay behind.
func (g *runGroup) remove() {
	left := g.removeDirs(50, 10*time.Millisecond)
	if len(left) == 0 {
		return
	}
	groupRemovals.Add(1)
	go func() {
		defer groupRemovals.Done()
		// What is still busy after ten minutes holds a process of the
		// run: the next instance's sweep ends it and removes the group.
		(&runGroup{dirs: left}).removeDirs(600, time.Second)
	}()
}

// groupRemovals counts the removals remove left to the background.
var groupRemovals sync.WaitGroup

// removeDirs removes the group's directories, trying each up to tries
// times, every, and returns those it could not remove.
func (g *runGroup) removeDirs(tries int, every time.Duration) map[string]string {
	left := map[string]string{}
	for _, d := range g.each() {
		for i := 0; ; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			if i == tries-1 {
				left[d] = d
				break
			}
			time.Sleep(every)
		}
	}
	return left
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
