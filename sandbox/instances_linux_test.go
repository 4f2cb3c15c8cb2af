package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A parent's liveness is its lock, never a pid. In a scratch directory: a
// parent locked by a process in another PID namespace (whose pid means
// nothing here) and this process's own parent are kept; unlocked parents
// are removed with their run groups. Parents named after a pid are an
// older version's: kept while that pid lives, as that version did.
func TestStaleParentsAreJudgedByLock(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare for a second PID namespace")
	}
	dir := t.TempDir()
	mk := func(name string, kids ...string) string {
		p := filepath.Join(dir, name)
		for _, k := range append([]string{""}, kids...) {
			if err := os.MkdirAll(filepath.Join(p, k), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	ours, err := makeParent(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		lockMu.Lock()
		parentLocks[dir].Close()
		delete(parentLocks, dir)
		lockMu.Unlock()
	}()
	os.Mkdir(filepath.Join(ours, "run-1"), 0o755)
	other := mk("kidcoder-aaaaaaaaaaaaaaaa", "run-3")
	deadRandom := mk("kidcoder-0123456789abcdef", "run-1", "run-2")
	legacyLive := mk("kidcoder-"+strconv.Itoa(os.Getpid()), "run-1")
	legacyDead := mk("kidcoder-4194304", "run-1") // above any pid_max
	notOurs := mk("something-else")

	// The other instance: pid 1 of its own namespace, holding its lock.
	holder := exec.Command(unshare, "--pid", "--fork", "--kill-child", "flock", "-x", other, "-c", "echo locked; exec sleep 600")
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("lock holder said %q", line)
	}

	removeStaleParents(dir)
	for _, p := range []string{ours, filepath.Join(ours, "run-1"), other, filepath.Join(other, "run-3"), notOurs, legacyLive} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	for _, p := range []string{deadRandom, legacyDead} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale %s was kept", filepath.Base(p))
		}
	}
	// Held or not, the lock is what counts: once the holder is gone its
	// parent is stale.
	holder.Process.Kill()
	holder.Wait()
	// The namespace's processes die after unshare: wait for the lock to be free.
	f, err := os.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	f.Close()
	removeStaleParents(dir)
	if _, err := os.Stat(other); err == nil {
		t.Errorf("the dead holder's parent was kept")
	}
	if _, err := os.Stat(ours); err != nil {
		t.Errorf("own parent removed: %v", err)
	}
}

// Parent names are random: many of them never repeat, and none is a pid.
func TestParentNames(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		n := parentName()
		rest, ok := strings.CutPrefix(n, parentPrefix)
		if !ok || len(rest) != 16 || seen[n] {
			t.Fatalf("name %q (seen before: %v)", n, seen[n])
		}
		seen[n] = true
	}
}

// needGroups skips where runs get no control group, unless the sandbox is
// required (then that is a failure).
func needGroups(t *testing.T) {
	t.Helper()
	needSandbox(t)
	if ContainmentInfo().Mechanism == MechRlimits {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("no control group: %s", ContainmentInfo().Detail)
		}
		t.Skip("no control group on this machine")
	}
}

// helloRun runs print('ok') and says what went wrong, if anything.
func helloRun(t testing.TB) error {
	_, o := runCode(t, "print('ok')\n", Spec{}, nil)
	if o.Status != StatusOK || string(o.Stdout) != "ok\n" {
		return fmt.Errorf("%s: %q %q", o.Status, o.Stdout, o.Stderr)
	}
	return nil
}

// ownParents is this process's parents now, by controller.
func ownParents() map[string]string {
	contMu.Lock()
	defer contMu.Unlock()
	out := map[string]string{}
	for c, p := range contPlace.Parents {
		out[c] = p
	}
	return out
}

// TestHelperRunLoop is the other instance of TestInstancesInOtherPIDNamespaces,
// run by it in a PID namespace of its own; skipped otherwise.
func TestHelperRunLoop(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KIDCODER_TEST_RUN_LOOP"))
	if n <= 0 {
		t.Skip("run by TestInstancesInOtherPIDNamespaces")
	}
	failures := 0
	for i := 0; i < n; i++ {
		if err := helloRun(t); err != nil {
			failures++
			fmt.Printf("failure %v\n", err)
		}
		if i == 0 {
			for c, p := range ownParents() {
				fmt.Printf("parent %s %s\n", c, p)
			}
		}
	}
	fmt.Printf("pid %d failures %d\n", os.Getpid(), failures)
}

// Two more instances, each pid 1 of its own PID namespace (where the old
// pid-named parents collided as kidcoder-1 and every other instance's
// parent looked stale), loop runs while this process runs too: no run
// fails on any side, no instance shares or removes another's parent, and
// once they are gone the next sweep removes theirs and keeps ours.
func TestInstancesInOtherPIDNamespaces(t *testing.T) {
	needGroups(t)
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare")
	}
	if err := helloRun(t); err != nil {
		t.Fatal(err)
	}
	mine := ownParents()
	const loops = 12
	type helperResult struct {
		parents map[string]string
		out     string
		err     error
	}
	results := make([]helperResult, 2)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(unshare, "--pid", "--fork", "--mount-proc", os.Args[0],
				"-test.run=^TestHelperRunLoop$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "KIDCODER_TEST_RUN_LOOP="+strconv.Itoa(loops))
			b, err := cmd.CombinedOutput()
			r := helperResult{parents: map[string]string{}, out: string(b), err: err}
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) == 3 && f[0] == "parent" {
					r.parents[f[1]] = f[2]
				}
			}
			results[i] = r
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	ours, failed := 0, 0
	for running := true; running || ours < loops; ours++ {
		select {
		case <-done:
			running = false
		default:
		}
		if err := helloRun(t); err != nil {
			failed++
			t.Errorf("run %d here: %v", ours, err)
		}
	}
	for i, r := range results {
		if r.err != nil || !strings.Contains(r.out, "failures 0\n") || !strings.Contains(r.out, "pid 1 failures") {
			t.Errorf("instance %d in its own PID namespace: %v\n%s", i, r.err, r.out)
		}
		if len(r.parents) != len(mine) {
			t.Errorf("instance %d reported parents %v", i, r.parents)
		}
		for c, p := range r.parents {
			if p == mine[c] || p == results[1-i].parents[c] {
				t.Errorf("instance %d shares parent %s", i, p)
			}
		}
	}
	t.Logf("%d runs here, %d helpers × %d runs in their own PID namespaces", ours, len(results), loops)
	// Ours were never removed and remade: still the very directories first made.
	now := ownParents()
	for c, p := range mine {
		if now[c] != p || !parentHeld(p) {
			t.Errorf("%s parent %s became %s (held: %v)", c, p, now[c], parentHeld(p))
		}
	}
	for c, p := range mine {
		removeStaleParents(filepath.Dir(p))
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the sweep removed our live %s parent", c)
		}
		for i, r := range results {
			if _, err := os.Stat(r.parents[c]); err == nil {
				t.Errorf("the sweep kept instance %d's dead parent %s", i, r.parents[c])
			}
		}
	}
}

// A parent someone removed is made again before the next run, which then
// runs; a long-lived app never stays without a place for its runs.
func TestRemovedParentIsMadeAgain(t *testing.T) {
	needGroups(t)
	if err := helloRun(t); err != nil {
		t.Fatal(err)
	}
	before := ownParents()
	groupRemovals.Wait() // the run's group, which the kernel may free late
	for _, p := range before {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) { // one parent may serve two controllers
			t.Fatalf("removing %s: %v", p, err)
		}
	}
	for i := 0; i < 3; i++ {
		if err := helloRun(t); err != nil {
			t.Fatalf("run %d after the parents were removed: %v", i, err)
		}
	}
	for c, p := range ownParents() {
		if p == before[c] || !parentHeld(p) {
			t.Errorf("%s parent %s (was %s, held %v)", c, p, before[c], parentHeld(p))
		}
	}
	if ContainmentInfo().Detail == "" {
		t.Errorf("containment detail empty")
	}
}

// What a dead app left in a run group (here a process standing in for a
// sandbox whose app died) is ended by the next instance's sweep, and the
// group and its parent go; a live instance's group beside it is untouched.
func TestSweepEndsWhatADeadAppLeft(t *testing.T) {
	needGroups(t)
	if err := helloRun(t); err != nil {
		t.Fatal(err)
	}
	mine := ownParents()
	dead := map[string]string{}
	for c, p := range mine {
		dead[c] = filepath.Join(filepath.Dir(p), parentName())
		if err := os.MkdirAll(filepath.Join(dead[c], "run-1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	left := exec.Command("sleep", "600")
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	g := &runGroup{version: 1, dirs: map[string]string{}}
	for c, p := range dead {
		g.dirs[c] = filepath.Join(p, "run-1")
	}
	if ContainmentInfo().Mechanism == MechCgroup2 {
		g.version = 2
	}
	if err := g.attach(left.Process.Pid); err != nil {
		left.Process.Kill()
		left.Wait()
		t.Fatal(err)
	}
	for _, p := range mine {
		removeStaleParents(filepath.Dir(p))
	}
	err := left.Wait()
	if ws, ok := left.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the dead app's process ended with %v, want SIGKILL from the sweep", err)
	}
	for _, p := range mine {
		removeStaleParents(filepath.Dir(p))
	}
	for c, p := range dead {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale %s parent %s kept", c, p)
		}
		if _, err := os.Stat(mine[c]); err != nil || !parentHeld(mine[c]) {
			t.Errorf("live %s parent %s touched", c, mine[c])
		}
	}
	if err := helloRun(t); err != nil {
		t.Errorf("run after the sweep: %v", err)
	}
}

// TestHelperApp is an app that TestNextAppRemovesWhatDeadAppsLeft starts
// in a PID namespace of its own; skipped otherwise. "busy" starts a busy
// loop, says so once it spins and waits to be killed; "hello" runs hello
// once, says how it went and exits cleanly.
func TestHelperApp(t *testing.T) {
	mode, mark := os.Getenv("KIDCODER_TEST_APP"), os.Getenv("KIDCODER_TEST_APP_MARK")
	if mode == "" {
		t.Skip("run by TestNextAppRemovesWhatDeadAppsLeft")
	}
	if _, err := detectCached(); err != nil {
		fmt.Printf("first run: %v\n", err)
		return
	}
	containment()
	for c, p := range ownParents() {
		fmt.Printf("parent %s %s\n", c, p)
	}
	if mode == "hello" {
		if err := helloRun(t); err != nil {
			fmt.Printf("first run: %v\n", err)
			return
		}
		fmt.Printf("first run: ok\n")
		return
	}
	_, stop := busyLoopsNamed(t, 1, mark)
	defer stop()
	fmt.Printf("spinning\n")
	time.Sleep(time.Hour) // until the test kills this app
}

// An app killed mid-run and one that exited cleanly (as kidcoder mcp
// does when its host closes it) leave parents whose lock is free. The
// next app, started in another login session's groups and in a PID
// namespace of its own where it has the dead one's pid (1), finds its
// first run working, and once that run is done nothing of theirs is left
// in any hierarchy. On v1 an app's parents are made inside its own group,
// so the next app must look beyond its own session to find them.
func TestNextAppRemovesWhatDeadAppsLeft(t *testing.T) {
	needGroups(t)
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare")
	}
	if err := helloRun(t); err != nil {
		t.Fatal(err)
	}
	mine := ownParents()
	// A login session of its own for each app: a group beside this
	// process's in every v1 hierarchy (on v2 as root, parents are top-level
	// groups wherever the app lives).
	var sessions [3][]string
	if ContainmentInfo().Mechanism == MechCgroup1 {
		l, err := ownLayout()
		if err != nil {
			t.Fatal(err)
		}
		for i := range sessions {
			name := "kctest-session-" + strings.TrimPrefix(parentName(), parentPrefix)
			for c := range mine {
				h := l.V1[c]
				d := filepath.Join(h.Mount, h.Path, name)
				if slices.Contains(sessions[i], d) {
					continue
				}
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
				sessions[i] = append(sessions[i], d)
			}
		}
	}
	var theirs []string // every parent of every app started here
	t.Cleanup(func() {
		for _, p := range theirs {
			removeStaleParents(filepath.Dir(p))
		}
		for _, s := range sessions {
			for _, d := range s {
				if err := os.Remove(d); err != nil && !errors.Is(err, os.ErrNotExist) {
					t.Errorf("session group %s: %v", d, err)
				}
			}
		}
	})
	// start runs an app in session i and in a PID namespace of its own,
	// and reads its lines until want (or the end).
	start := func(i int, mode, mark, want string) (*exec.Cmd, []string, []string) {
		t.Helper()
		script := `for g in $KC_SESSION; do echo $$ > "$g/cgroup.procs" || exit 1; done; exec "$@"`
		cmd := exec.Command(unshare, "--pid", "--fork", "--kill-child", "--mount-proc",
			"/bin/sh", "-c", script, "app-in-session", os.Args[0], "-test.run=^TestHelperApp$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "KIDCODER_TEST_APP="+mode, "KIDCODER_TEST_APP_MARK="+mark,
			"KC_SESSION="+strings.Join(sessions[i], " "))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var parents, lines []string
		rd := bufio.NewReader(out)
		for {
			line, err := rd.ReadString('\n')
			lines = append(lines, line)
			if f := strings.Fields(line); len(f) == 3 && f[0] == "parent" {
				parents = append(parents, f[2])
			}
			if strings.HasPrefix(line, want) || err != nil {
				break
			}
		}
		theirs = append(theirs, parents...)
		return cmd, parents, lines
	}
	// The app that exits cleanly.
	mark := "app-" + strings.TrimPrefix(parentName(), parentPrefix)
	clean, cleanParents, lines := start(0, "hello", "", "first run: ")
	clean.Wait()
	if last := lines[len(lines)-1]; last != "first run: ok\n" {
		t.Fatalf("the first app: %q", lines)
	}
	// The app killed mid-run: SIGKILL to the app itself (pid 1 of its
	// namespace), then a wait until the kernel has ended its sandbox.
	killed, killedParents, lines := start(1, "busy", mark, "spinning")
	if last := lines[len(lines)-1]; last != "spinning\n" {
		killed.Process.Kill()
		killed.Wait()
		t.Fatalf("the busy app: %q", lines)
	}
	kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", killed.Process.Pid, killed.Process.Pid))
	app, err := strconv.Atoi(strings.TrimSpace(string(kids)))
	if err != nil {
		t.Fatalf("the busy app's pid: %q", kids)
	}
	syscall.Kill(app, syscall.SIGKILL)
	killed.Wait()
	for _, pid := range hostProcessesWith(mark) {
		if fd, err := unix.PidfdOpen(pid, 0); err == nil {
			unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, -1)
			unix.Close(fd)
		}
	}
	if len(cleanParents) == 0 || len(killedParents) != len(cleanParents) {
		t.Fatalf("parents: clean exit %v, killed %v", cleanParents, killedParents)
	}
	// The next app, pid 1 like the killed one.
	next, nextParents, lines := start(2, "hello", "", "first run: ")
	next.Wait()
	if last := lines[len(lines)-1]; last != "first run: ok\n" {
		t.Fatalf("the next app's first run: %q", lines)
	}
	for _, p := range append(cleanParents, killedParents...) {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("a dead app's parent %s is left after the next app's first run", p)
		}
		if slices.Contains(nextParents, p) {
			t.Errorf("the next app took a dead app's parent %s", p)
		}
	}
	for c, p := range mine {
		if !parentHeld(p) {
			t.Errorf("this app's live %s parent %s was touched", c, p)
		}
	}
}
