package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// nobody is the host uid/gid bwrap runs under when the app runs as root:
// RLIMIT_NPROC is never enforced for host root (INIT_USER), even inside a
// user namespace, so a root-run sandbox would have no process limit.
const nobody = 65534

const prlimitPath = "/usr/bin/prlimit"

// rssWatchdog is false: RLIMIT_AS bounds memory here, sampling only
// informs the verdict.
const rssWatchdog = false

// Detect finds bwrap, checks the options the sandbox needs, and checks
// that this kernel lets it create namespaces (by doing so once).
func Detect() (Info, error) {
	info := Info{Kind: "bubblewrap", RunAsUID: -1}
	if os.Geteuid() == 0 {
		info.RunAsUID = nobody
	}
	path, err := findBwrap()
	if err != nil {
		return info, err
	}
	info.Path = path
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return info, &UnavailableError{Reason: "bwrap --version failed", Fix: installBwrapFix, Err: err}
	}
	if info.Version, err = parseBwrapVersion(string(out)); err != nil {
		return info, &UnavailableError{Reason: err.Error(), Fix: installBwrapFix}
	}
	// bwrap --help exits 0 and prints to stdout on every version we know.
	help, _ := exec.Command(path, "--help").CombinedOutput()
	info.Features = parseBwrapFeatures(string(help))
	if miss := missingFeatures(info.Features); len(miss) > 0 {
		return info, &UnavailableError{
			Reason: fmt.Sprintf("bubblewrap %s lacks %s", info.Version, strings.Join(miss, ", ")),
			Fix:    "install bubblewrap 0.6 or newer (Debian 12 / Ubuntu 22.04 and later ship it)",
		}
	}
	st := readUsernsState(path)
	if ue := diagnoseUserns(st); ue != nil {
		return info, ue
	}
	if err := smokeTest(path, info.RunAsUID); err != nil {
		return info, err
	}
	return info, nil
}

func findBwrap() (string, error) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		path = "/usr/bin/bwrap"
		if _, serr := os.Stat(path); serr != nil {
			return "", &UnavailableError{Reason: "bubblewrap (bwrap) is not installed", Fix: installBwrapFix, Err: err}
		}
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", &UnavailableError{Reason: "cannot resolve bwrap path " + path, Fix: installBwrapFix, Err: err}
	}
	return abs, nil
}

func readUsernsState(bwrap string) usernsState {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	s := usernsState{
		UnprivilegedClone: read("/proc/sys/kernel/unprivileged_userns_clone"),
		MaxUserNamespaces: read("/proc/sys/user/max_user_namespaces"),
		AppArmorRestrict:  read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
	}
	if fi, err := os.Stat(bwrap); err == nil && fi.Mode()&os.ModeSetuid != 0 {
		s.BwrapSetuid = true
	}
	if s.AppArmorRestrict == "1" {
		entries, _ := os.ReadDir("/etc/apparmor.d")
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join("/etc/apparmor.d", e.Name())); err == nil && appArmorAllowsBwrap(string(b)) {
				s.AppArmorBwrapAllow = true
				break
			}
		}
	}
	return s
}

// smokeTest creates the namespaces once: the knobs above do not cover
// every way a kernel or LSM can refuse, and bwrap's own message says why.
func smokeTest(bwrap string, runAs int) error {
	args := []string{"--unshare-user", "--unshare-pid", "--unshare-net",
		"--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev"}
	for _, r := range hostRoot() {
		if r.Link != "" {
			args = append(args, "--symlink", r.Link, r.Path)
		} else {
			args = append(args, "--ro-bind", r.Path, r.Path)
		}
	}
	cmd := exec.Command(bwrap, append(args, "--", "/usr/bin/true")...)
	cmd.Env = []string{}
	cmd.Dir = "/"
	if runAs >= 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(runAs), Gid: uint32(runAs), Groups: []uint32{}}}
	}
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	msg := strings.TrimSpace(string(out))
	ue := &UnavailableError{Reason: "bwrap cannot create a sandbox here: " + msg, Err: err}
	switch {
	case strings.Contains(msg, "uid map"), strings.Contains(msg, "Operation not permitted"), strings.Contains(msg, "No permissions"):
		ue.Fix = "allow unprivileged user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1 (Debian) or add an AppArmor profile for bwrap (Ubuntu 24.04: sudo apt install apparmor-profiles)"
	case strings.Contains(msg, "/usr/bin/true"):
		ue.Fix = "sudo apt install coreutils"
	}
	return ue
}

var (
	detectOnce sync.Once
	detected   Info
	detectErr  error
)

// detectCached is Detect once per process: Start must not pay for
// bwrap --help and a namespace on every run.
func detectCached() (Info, error) {
	detectOnce.Do(func() {
		if info, ok := seeded(); ok {
			detected = info
			return
		}
		detected, detectErr = Detect()
	})
	return detected, detectErr
}

var (
	rootOnce    sync.Once
	rootEntries []rootEntry
)

// hostRoot mirrors the host's top-level /bin, /lib... as symlinks where the
// host has merged /usr, and as read-only binds where it has real dirs.
func hostRoot() []rootEntry {
	rootOnce.Do(func() {
		for _, p := range []string{"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"} {
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				if t, err := os.Readlink(p); err == nil {
					rootEntries = append(rootEntries, rootEntry{Path: p, Link: t})
				}
				continue
			}
			if fi.IsDir() {
				rootEntries = append(rootEntries, rootEntry{Path: p})
			}
		}
	})
	return rootEntries
}

// sysState is the Linux side of one run.
type sysState struct {
	runAs    int // -1: the app's own uid
	stage    string
	writable []writeBack
	seccompR *os.File
	argsR    *os.File
	infoR    *os.File
	infoW    *os.File

	infoDone chan struct{}
	mu       sync.Mutex
	initPid  int // host pid of the sandbox's pid-namespace init
	pidfd    int // -1 until known
}

type writeBack struct{ staged, host string }

func platformCommand(ctx context.Context, spec Spec) (_ *exec.Cmd, _ *sysState, err error) {
	info, err := detectCached()
	if err != nil {
		return nil, nil, err
	}
	py, err := pythonInstall(spec.Python)
	if err != nil {
		return nil, nil, err
	}
	s := &sysState{runAs: info.RunAsUID, pidfd: -1, infoDone: make(chan struct{})}
	defer func() {
		if err != nil {
			s.cleanup()
		}
	}()
	plan := bwrapPlan{
		Features: info.Features,
		Policy:   spec.Policy,
		Root:     hostRoot(),
		Python:   py.mounts,
		ReadOnly: spec.ReadOnly,
		Files:    spec.Files,
		Writable: spec.Writable,
		Env:      spec.Env,
	}
	if s.runAs >= 0 {
		if err := s.stageForNobody(&plan); err != nil {
			return nil, nil, err
		}
	}
	filter, err := seccompBytes(runtime.GOARCH)
	if err != nil {
		return nil, nil, &UnavailableError{Reason: "no seccomp filter for this CPU (" + runtime.GOARCH + ")", Err: err}
	}
	var seccompW *os.File
	if s.seccompR, seccompW, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	// The filter is far smaller than a pipe's buffer, so it is written
	// whole before bwrap starts and bwrap reads it to EOF.
	_, err = seccompW.Write(filter)
	seccompW.Close()
	if err != nil {
		return nil, nil, err
	}
	if s.infoR, s.infoW, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	first := 3
	if spec.Frames {
		first = 5 // after the frames and control pipes launch puts first
	}
	plan.SeccompFD, plan.InfoFD = first, first+1
	argsFD := first + 2
	argv := append([]string{py.exe}, spec.Args...)
	if _, err := os.Stat(prlimitPath); err == nil {
		plan.Command = prlimitCommand(prlimitPath, rlimitsOf(spec.Policy), argv)
	} else {
		plan.Command = stubCommand(py.exe, rlimitsOf(spec.Policy), argv)
	}
	// The options go through a pipe (--args): in argv they would be the
	// sandbox init's /proc/1/cmdline, showing the program host paths and
	// the user's name. bwrap wants the command itself in argv.
	full := bwrapArgs(plan)
	opts := full[:len(full)-len(plan.Command)-1]
	var argsW *os.File
	if s.argsR, argsW, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	go func() {
		argsW.Write(nulJoin(opts))
		argsW.Close()
	}()
	cmd := exec.CommandContext(ctx, info.Path, append([]string{"--args", strconv.Itoa(argsFD), "--"}, plan.Command...)...)
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{s.seccompR, s.infoW, s.argsR}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if s.runAs >= 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(s.runAs), Gid: uint32(s.runAs), Groups: []uint32{}}
	}
	return cmd, s, nil
}

func nulJoin(a []string) []byte {
	var b []byte
	for _, s := range a {
		b = append(append(b, s...), 0)
	}
	return b
}

// started runs right after bwrap started: the child's copies of the filter
// and info pipes are closed here, and the init's pid is read.
func (s *sysState) started(cmd *exec.Cmd) {
	s.seccompR.Close()
	s.seccompR = nil
	s.infoW.Close()
	s.infoW = nil
	s.argsR.Close()
	s.argsR = nil
	go s.readInfo(cmd.Process.Pid)
}

// readInfo takes only bwrap's first JSON object: the fd may be inherited
// by the program, which could write more. The pid is believed only if it
// is bwrap's own child, and is pinned with a pidfd against reuse.
func (s *sysState) readInfo(bwrapPid int) {
	defer close(s.infoDone)
	var msg struct {
		ChildPid int `json:"child-pid"`
	}
	dec := json.NewDecoder(io.LimitReader(s.infoR, 4096))
	if err := dec.Decode(&msg); err != nil || msg.ChildPid <= 0 {
		return
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(msg.ChildPid) + "/stat")
	if err != nil || parentPid(stat) != bwrapPid {
		return
	}
	fd, err := unix.PidfdOpen(msg.ChildPid, 0)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.initPid, s.pidfd = msg.ChildPid, fd
	s.mu.Unlock()
}

// parentPid reads the ppid from /proc/PID/stat; the command name before it
// is in parentheses and may itself contain ") ".
func parentPid(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return -1
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return n
}

// kill SIGKILLs the namespace's init: the kernel then kills every process
// in the pid namespace, setsid'd and double-forked ones included, and bwrap
// exits. Before the init is known, bwrap itself is killed and
// --die-with-parent takes the sandbox down.
func (s *sysState) kill(cmd *exec.Cmd) error {
	s.mu.Lock()
	fd := s.pidfd
	s.mu.Unlock()
	if fd >= 0 {
		if err := unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); err == nil || errors.Is(err, unix.ESRCH) {
			return nil
		}
	}
	return cmd.Process.Kill()
}

// finish returns once the namespace's init has exited, and with it (the
// kernel waits for them in zap_pid_ns_processes) every process it held.
func (s *sysState) finish() {
	<-s.infoDone
	s.mu.Lock()
	fd := s.pidfd
	s.mu.Unlock()
	if fd < 0 {
		return
	}
	unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != unix.EINTR {
			return
		}
	}
}

// sample reads VmPeak and CPU time of the sandbox's processes through the
// sandbox's own /proc, so only its processes are listed. CPU is sampled
// because bwrap does not always reap its init before exiting, so the
// rusage Wait returns can miss the program's time.
func (s *sysState) sample() usage {
	s.mu.Lock()
	pid := s.initPid
	s.mu.Unlock()
	var u usage
	if pid == 0 {
		return u
	}
	root := "/proc/" + strconv.Itoa(pid) + "/root/proc"
	// Until bwrap has pivoted, the init's root is the host's and this
	// would list every host process. In the sandbox's own procfs the host
	// (outside its pid namespace) has no /proc/self.
	if _, err := os.Readlink(root + "/self"); err == nil {
		return u
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return u
	}
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if b, err := os.ReadFile(root + "/" + e.Name() + "/status"); err == nil {
			u.peak = max(u.peak, vmPeak(b))
		}
		if b, err := os.ReadFile(root + "/" + e.Name() + "/stat"); err == nil {
			u.cpu = max(u.cpu, cpuTime(b))
		}
	}
	return u
}

// cpuTime is utime+stime from /proc/PID/stat, in USER_HZ (100 on Linux).
func cpuTime(stat []byte) time.Duration {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(stat[i+1:]))
	// After the command: state(0) ppid(1) ... utime(11) stime(12).
	if len(f) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(ut+st) * (time.Second / 100)
}

// vmPeak parses "VmPeak:  123456 kB" from /proc/PID/status.
func vmPeak(status []byte) int64 {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmPeak:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return n << 10
				}
			}
		}
	}
	return 0
}

func (s *sysState) cleanup() {
	for _, f := range []*os.File{s.seccompR, s.infoR, s.infoW, s.argsR} {
		if f != nil {
			f.Close()
		}
	}
	s.mu.Lock()
	if s.pidfd >= 0 {
		unix.Close(s.pidfd)
		s.pidfd = -1
	}
	s.mu.Unlock()
	for _, w := range s.writable {
		copyBack(w.staged, w.host)
	}
	if s.stage != "" {
		os.RemoveAll(s.stage)
	}
}

// FindPython returns the interpreter the sandbox runs: preferred if given,
// else the distribution's /usr/bin/python3 (its prefix is /usr, so nothing
// else needs mounting). It must be Python 3.8 or newer.
func FindPython(preferred string) (string, error) {
	return findPythonIn(pythonCandidates("linux", preferred, ""), "sudo apt install python3")
}

// detectForSelfTest is how the self-test learns the sandbox tool: once per process.
func detectForSelfTest() (Info, error) { return detectCached() }
