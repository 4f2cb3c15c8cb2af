package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// bwrap is born into a v2 run group by the kernel (clone3 with
// CLONE_INTO_CGROUP); it dies with the app in every case.
func TestBwrapProcAttr(t *testing.T) {
	tests := []struct {
		runAs, groupFD int
		want           *syscall.SysProcAttr
	}{
		{-1, -1, &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}},
		{-1, 7, &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true, UseCgroupFD: true, CgroupFD: 7}},
		{nobody, 9, &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true, UseCgroupFD: true, CgroupFD: 9,
			Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}},
		{nobody, -1, &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true,
			Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}},
	}
	for _, tt := range tests {
		if got := bwrapProcAttr(tt.runAs, tt.groupFD); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("bwrapProcAttr(%d, %d) = %+v, want %+v", tt.runAs, tt.groupFD, got, tt.want)
		}
	}
}

// When the init is tied to bwrap is read from seccomp filter counts.
func TestMoreFilters(t *testing.T) {
	st := func(mode, filters string) []byte {
		s := "Name:\tbwrap\nSeccomp:\t" + mode + "\n"
		if filters != "" {
			s += "Seccomp_filters:\t" + filters + "\n"
		}
		return []byte(s + "Speculation_Store_Bypass:\tvulnerable\n")
	}
	tests := []struct {
		name         string
		status, base []byte
		want         bool
		err          bool
	}{
		{"not yet", st("0", "0"), st("0", "0"), false, false},
		{"filtered", st("2", "1"), st("0", "0"), true, false},
		{"app under seccomp, not yet", st("2", "3"), st("2", "3"), false, false},
		{"app under seccomp, filtered", st("2", "4"), st("2", "3"), true, false},
		{"old kernel", st("2", ""), st("0", ""), true, false},
		{"old kernel, not yet", st("0", ""), st("0", ""), false, false},
		{"old kernel, app under seccomp", st("2", ""), st("2", ""), false, true},
	}
	for _, tt := range tests {
		got, err := moreFilters(tt.status, tt.base)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("%s: %v %v, want %v (error %v)", tt.name, got, err, tt.want, tt.err)
		}
	}
}

// TestHelperBusyRun is the app TestKilledAppLeavesNoProgram kills: it starts
// one run of a busy loop and waits; skipped otherwise.
func TestHelperBusyRun(t *testing.T) {
	name := os.Getenv("KIDCODER_TEST_BUSY")
	if name == "" {
		t.Skip("run by TestKilledAppLeavesNoProgram")
	}
	if _, err := detectCached(); err != nil {
		t.Fatal(err)
	}
	containment()
	for c, p := range ownParents() {
		fmt.Printf("parent %s %s\n", c, p)
	}
	p := testPolicy()
	p.WallTime, p.CPUTime, p.IdleTime = time.Hour, time.Hour, time.Hour
	spec := Spec{
		Policy: p,
		Python: testPython,
		Args:   []string{"-I", "-B", ScratchDir + "/" + name},
		Data:   []DataFile{{Sandbox: ScratchDir + "/" + name, Data: []byte("while True: pass\n")}},
	}
	fmt.Println("starting")
	pr, err := Start(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr.Wait()
}

// cpuOf is a process's CPU time so far, from /proc/PID/stat.
func cpuOf(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	own, _ := cpuTimes(b)
	return own, taskState(b) != 'Z'
}

// The app is SIGKILLed at random instants while it starts a run of a busy
// loop, from before bwrap starts to after the program runs. Nothing of the
// program may go on: every process of the run dies with the app. The
// verdict waits on the kernel, not on a clock: each process left over
// either exits or, spinning, piles up CPU time (2 s of it: a process on
// its way out never uses that much), however slow the machine.
func TestKilledAppLeavesNoProgram(t *testing.T) {
	needGroups(t)
	if testing.Short() {
		t.Skip("60 app starts")
	}
	const starts = 60
	mark := "busy-" + randomHex()[:12]
	var theirs []string // the killed apps' parents
	for i := 0; i < starts; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperBusyRun$", "-test.count=1")
		cmd.Env = append(os.Environ(), "KIDCODER_TEST_BUSY="+mark+"-"+strconv.Itoa(i)+".py")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		rd := bufio.NewReader(out)
		for {
			line, _ := rd.ReadString('\n')
			if f := strings.Fields(line); len(f) == 3 && f[0] == "parent" {
				theirs = append(theirs, f[2])
				continue
			}
			if line != "starting\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper said %q", line)
			}
			break
		}
		time.Sleep(time.Duration(rand.IntN(100_000)) * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
	}
	// The next instance starts: it ends what the dead apps left in their
	// runs' groups (an init that bwrap died before letting go waits for
	// ever, its program never started) and removes the groups.
	sweep := func() {
		for _, p := range ownParents() {
			removeStaleParents(filepath.Dir(p))
		}
	}
	var comms []string
	for _, pid := range hostProcessesWith(mark) {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); err == nil {
			comms = append(comms, strings.TrimSpace(string(b)))
		}
	}
	t.Logf("%d starts killed; left before the next instance's sweep: %q", starts, comms)
	sweep()
	deadline := time.Now().Add(5 * time.Minute) // only so a leftover asleep cannot hang the suite
	for {
		left := hostProcessesWith(mark)
		alive := 0
		for _, pid := range left {
			cpu, ok := cpuOf(pid)
			if !ok {
				continue
			}
			alive++
			if cpu >= 2*time.Second {
				cl, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
				t.Errorf("pid %d survived its app and spins (%v CPU): %s", pid, cpu, strings.ReplaceAll(string(cl), "\x00", " "))
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if alive == 0 || t.Failed() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v of killed apps' runs never ended", left)
		}
		// Waits on the first leftover's exit, a tick at a time.
		if fd, err := unix.PidfdOpen(left[0], 0); err == nil {
			unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 50)
			unix.Close(fd)
		}
	}
	// With every process gone, a sweep leaves none of the dead apps' parents.
	sweep()
	if len(theirs) != starts*len(ownParents()) {
		t.Errorf("%d parents reported by %d apps", len(theirs), starts)
	}
	for _, p := range theirs {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale parent %s left after the sweep", p)
		}
	}
}

// The gate goes on to the command only on a line from the host; at EOF
// (the host died before it let the sandbox go) the command never runs.
func TestGateEndsAtEOF(t *testing.T) {
	for _, line := range []string{"\n", ""} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		// ExtraFiles[i] is fd 3+i: the gate reads fd 5.
		cmd := exec.Command(gateShell, append([]string{"-c", gateScript(5), "sandbox-gate"}, "/bin/sh", "-c", "echo RAN; ls /proc/self/fd")...)
		cmd.ExtraFiles = []*os.File{nil, nil, r}
		w.WriteString(line)
		w.Close()
		out, err := cmd.Output()
		r.Close()
		ran := strings.HasPrefix(string(out), "RAN\n")
		if ran != (line != "") {
			t.Errorf("line %q: output %q, %v", line, out, err)
		}
		if ran && strings.Contains(string(out), "\n5\n") {
			t.Errorf("the gate's fd reached the command: %q", out)
		}
	}
}
