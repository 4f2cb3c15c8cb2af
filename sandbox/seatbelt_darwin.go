package sandbox

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// rssEvery spaces the macOS RSS watchdog's `ps` calls: macOS has no /proc
// and RLIMIT_AS is not enforced there, so resident size is polled instead.
const rssEvery = 200 * time.Millisecond

// rssWatchdog makes the supervisor kill a run whose sampled RSS passes
// Policy.MemoryBytes.
const rssWatchdog = true

// Detect checks for /usr/bin/sandbox-exec, which every macOS ships.
func Detect() (Info, error) {
	info := Info{Kind: "seatbelt", Path: sandboxExec, RunAsUID: -1, Containment: ContainmentInfo()}
	if _, err := os.Stat(sandboxExec); err != nil {
		return info, &UnavailableError{Reason: sandboxExec + " is missing", Fix: "reinstall macOS command line tools or update macOS", Err: err}
	}
	return info, nil
}

// FindPython prefers Homebrew, then python.org's framework build, then the
// Xcode Command Line Tools' python3 by its real path, and only if
// xcode-select says the tools are installed: /usr/bin/python3 is never run
// because without the tools it opens an installer dialog.
func FindPython(preferred string) (string, error) {
	clt := ""
	if out, err := exec.Command("/usr/bin/xcode-select", "-p").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(dir, "usr/bin/python3")); err == nil {
			clt = dir
		}
	}
	return findPythonIn(pythonCandidates("darwin", preferred, clt), "brew install python, or the installer from python.org")
}

type sysState struct {
	scratch string
	mu      sync.Mutex
	pid     int
	last    time.Time
	peak    int64
	cpu     time.Duration
	// sleeping is the process's last sampled state.
	sleeping bool
}

func platformCommand(ctx context.Context, spec Spec) (_ *exec.Cmd, _ *sysState, err error) {
	if _, err := Detect(); err != nil {
		return nil, nil, err
	}
	py, err := pythonInstall(spec.Python)
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "kidcoder-run-")
	if err != nil {
		return nil, nil, err
	}
	s := &sysState{}
	defer func() {
		if err != nil {
			s.cleanup()
		}
	}()
	// Seatbelt matches resolved paths: /var/folders is /private/var/folders.
	if s.scratch, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, nil, err
	}
	if err := os.Chmod(s.scratch, 0o700); err != nil {
		return nil, nil, err
	}
	budget := int64(spec.Policy.ScratchBytes)
	for _, f := range spec.Files {
		dst := hostPath(f.Sandbox, s.scratch, nil)
		if dst == f.Sandbox {
			return nil, nil, &UnavailableError{Reason: "file " + f.Sandbox + " is not under " + ScratchDir}
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return nil, nil, err
		}
		if err := copyFile(f.Host, dst, 0o444, &budget); err != nil {
			return nil, nil, err
		}
	}
	for _, d := range spec.Data {
		dst := hostPath(d.Sandbox, s.scratch, nil)
		if dst == d.Sandbox {
			return nil, nil, &UnavailableError{Reason: "file " + d.Sandbox + " is not under " + ScratchDir}
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return nil, nil, err
		}
		if err := writeData(dst, d.Data, 0o444, &budget); err != nil {
			return nil, nil, err
		}
	}
	mounts := append(append([]Mount{}, spec.ReadOnly...), spec.Writable...)
	plan := seatbeltPlan{Python: py.exe, Prefixes: py.prefix, Scratch: s.scratch}
	for _, m := range spec.ReadOnly {
		plan.ReadOnly = append(plan.ReadOnly, resolved(m.Host))
	}
	for _, m := range spec.Writable {
		plan.Writable = append(plan.Writable, resolved(m.Host))
	}
	argv := []string{py.exe}
	for _, a := range spec.Args {
		argv = append(argv, hostPath(a, s.scratch, mounts))
	}
	l := rlimitsOf(spec.Policy, spec.Live, spec.Warm)
	l.AS = -1
	plan.Command = stubCommand(py.exe, l, argv)
	cmd := exec.CommandContext(ctx, sandboxExec, seatbeltArgs(plan)...)
	cmd.Dir = s.scratch
	for _, kv := range append(append([]string{}, baseEnv...), spec.Env...) {
		cmd.Env = append(cmd.Env, hostPath(kv, s.scratch, mounts))
	}
	cmd.Env = append(cmd.Env, "TMPDIR="+s.scratch)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, s, nil
}

func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func (s *sysState) started(cmd *exec.Cmd) {
	s.mu.Lock()
	s.pid = cmd.Process.Pid
	s.mu.Unlock()
}

// kill ends the process group; the profile denies fork, so the program
// cannot have made a process outside it.
func (s *sysState) kill(cmd *exec.Cmd) error {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Process.Kill()
}

func (s *sysState) finish() {}

// sample returns the resident size, CPU time and state `ps` reports, at
// most every rssEvery. The profile denies fork, so the one process is the
// whole run. macOS shows no process's system call, so a sleeping process
// counts as waiting for input (with nothing unread and no CPU used, which
// the supervisor checks): weaker than Linux's evidence, and still bounded
// by the run's idle allowance.
func (s *sysState) sample(uint64) usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := func(stale bool) usage {
		return usage{peak: s.peak, cpu: s.cpu, cpuTotal: s.cpu, readingStdin: s.sleeping, running: !s.sleeping, scratchFiles: -1, stale: stale}
	}
	if s.pid == 0 || time.Since(s.last) < rssEvery {
		return last(true)
	}
	s.last = time.Now()
	out, err := exec.Command("/bin/ps", "-o", "rss=,cputime=,state=", "-p", strconv.Itoa(s.pid)).Output()
	if err != nil {
		return last(true)
	}
	f := strings.Fields(string(out))
	if len(f) == 3 {
		if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			s.peak = max(s.peak, kb<<10)
		}
		s.cpu = max(s.cpu, psCPUTime(f[1]))
		s.sleeping = strings.HasPrefix(f[2], "S") || strings.HasPrefix(f[2], "I")
	}
	return last(false)
}

// resident is the one process's resident size, as `ps` last read it.
func (s *sysState) resident(int) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

// failure is nil: nothing is set up after the sandbox starts.
func (s *sysState) failure() *SetupError { return nil }

func (s *sysState) setUp() {}

// psCPUTime parses ps's cputime, "[[dd-]hh:]mm:ss[.ff]".
func psCPUTime(s string) time.Duration {
	var total float64
	for _, part := range strings.Split(s, ":") {
		v, err := strconv.ParseFloat(strings.ReplaceAll(part, "-", ""), 64)
		if err != nil {
			return 0
		}
		total = total*60 + v
	}
	return time.Duration(total * float64(time.Second))
}

func (s *sysState) cleanup() {
	if s.scratch != "" {
		os.RemoveAll(s.scratch)
	}
}

// detectForSelfTest is how the self-test learns the sandbox tool.
func detectForSelfTest() (Info, error) { return Detect() }

// ContainmentInfo says how whole runs are bounded on macOS: the profile
// denies fork, so the one process's limits are the run's.
func ContainmentInfo() Containment {
	return containmentOf(cgroupPlace{}, "macOS has no control groups; the profile allows a single process")
}

// fionread is FIONREAD from sys/filio.h: _IOR('f', 127, int).
const fionread = 0x4004667f

// ProcessLimits: the profile denies fork, so the one process is the run.
func ProcessLimits(p Policy) (addressSpace int64, procs int) { return p.MemoryBytes, 1 }

// writeData writes data to a new file dst with mode perm; budget is the
// bytes still allowed and is decreased by what was written.
func writeData(dst string, data []byte, perm fs.FileMode, budget *int64) error {
	if int64(len(data)) > *budget {
		return errStageTooBig
	}
	*budget -= int64(len(data))
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(dst, perm) // the umask must not narrow it
	}
	return err
}
