package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// programNice is the nice value of a run's processes.
const programNice = 10

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
	info := Info{Kind: "bubblewrap", RunAsUID: hostRunAs(), Containment: ContainmentInfo(), Landlock: kernelLandlockABI()}
	path, err := findBwrap()
	if err != nil {
		return info, err
	}
	info.Path = path
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return info, bwrapMissing("bwrap_broken", "bwrap --version failed", err)
	}
	if info.Version, err = parseBwrapVersion(string(out)); err != nil {
		return info, bwrapMissing("bwrap_broken", err.Error(), nil)
	}
	// bwrap --help exits 0 and prints to stdout on every version we know.
	help, _ := exec.Command(path, "--help").CombinedOutput()
	info.Features = parseBwrapFeatures(string(help))
	if miss := missingFeatures(info.Features); len(miss) > 0 {
		return info, &UnavailableError{
			Code:   "bwrap_old",
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
			return "", bwrapMissing("bwrap_missing", "bubblewrap (bwrap) is not installed", err)
		}
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", bwrapMissing("bwrap_broken", "cannot resolve bwrap path "+path, err)
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
	ue := &UnavailableError{Code: "bwrap_blocked", Reason: "bwrap cannot create a sandbox here: " + msg, Err: err}
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
			// How runs are bounded is this process's own finding, never a fact from the cache.
			detected.Containment = ContainmentInfo()
			detected.Landlock = kernelLandlockABI()
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
	// argsW takes bwrap's options (args) once bwrap is in the run group:
	// until then bwrap waits for them and has made no process.
	argsW  *os.File
	args   []byte
	infoR  *os.File
	infoW  *os.File
	blockR *os.File
	blockW *os.File // written once the sandbox is in its run group
	gateR  *os.File
	gateW  *os.File // written once the sandbox dies with bwrap (gateScript)
	// wallR reads the stub's word that the second wall stands (nil: no wall).
	wallR   *os.File
	wallW   *os.File
	groupFD *os.File // the v2 run group, which bwrap is born into
	copies  []*os.File
	group   *runGroup // nil without a control group

	infoDone chan struct{}
	mu       sync.Mutex
	initPid  int // host pid of the sandbox's pid-namespace init
	pidfd    int // -1 until known
	bwrapPid int
	killReq  bool // a kill was asked for
	over     bool // readInfo is over: the run is set up, or killed
	setupErr *SetupError
}

type writeBack struct{ staged, host string }

// maxCopies bounds how many host files one run gets copies of.
const maxCopies = 1024

func platformCommand(ctx context.Context, spec Spec) (_ *exec.Cmd, _ *sysState, err error) {
	info, err := detectCached()
	if err != nil {
		return nil, nil, err
	}
	py, err := pythonInstall(spec.Python)
	if err != nil {
		return nil, nil, err
	}
	closeInheritedOnExec()
	s := &sysState{runAs: info.RunAsUID, pidfd: -1, infoDone: make(chan struct{})}
	defer func() {
		if err != nil {
			s.cleanup()
		}
	}()
	place, err := liveParents()
	if err != nil {
		return nil, nil, &UnavailableError{Reason: "could not make the run's control group", Err: err}
	}
	policy := effectivePolicy(spec.Policy, place.Version != 0)
	// Decided before anything is made: a run that requires the second wall
	// on a kernel without it starts nothing.
	abi, err := landlockABIFor(policy.Landlock, kernelLandlockABI())
	if err != nil {
		return nil, nil, err
	}
	if spec.loosen != nil && spec.loosen.noLandlock {
		abi = 0
	}
	if place.Version != 0 {
		s.group, err = newRunGroup(place, policy)
		if errors.Is(err, os.ErrNotExist) {
			// A parent went between the check and the mkdir: made again once.
			if place, err = liveParents(); err == nil {
				s.group, err = newRunGroup(place, policy)
			}
		}
		if err != nil {
			return nil, nil, &UnavailableError{Reason: "could not make the run's control group", Err: err}
		}
	}
	plan := bwrapPlan{
		Features: info.Features,
		Policy:   policy,
		Root:     hostRoot(),
		Python:   py.mounts,
		Writable: spec.Writable,
		Env:      spec.Env,
	}
	if s.runAs >= 0 {
		if err := s.stageForNobody(&plan); err != nil {
			return nil, nil, err
		}
	}
	copies, err := s.openCopies(spec)
	if err != nil {
		return nil, nil, err
	}
	filter, err := seccompBytes(runtime.GOARCH)
	if err != nil {
		return nil, nil, &UnavailableError{Reason: "no seccomp filter for this CPU (" + runtime.GOARCH + ")", Err: err}
	}
	if spec.loosen != nil && spec.loosen.filter != nil {
		filter = spec.loosen.filter
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
	if s.blockR, s.blockW, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	if s.gateR, s.gateW, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	first := 3
	if spec.Frames {
		first = 5 // after the frames and control pipes launch puts first
	}
	plan.SeccompFD, plan.InfoFD, plan.BlockFD = first, first+1, first+3
	argsFD := first + 2
	// The gate's fd is below 10 (first is at most 5): dash reads only
	// single-digit descriptors.
	gateFD := first + 4
	next := first + 5
	wall := landlockRules(abi, plan, readOnlyTargets(spec.ReadOnly))
	if spec.loosen != nil && spec.loosen.wall != nil {
		spec.loosen.wall(&wall)
	}
	wallFD := 0
	var wallFile []*os.File
	if wall.ABI > 0 {
		if s.wallR, s.wallW, err = os.Pipe(); err != nil {
			return nil, nil, err
		}
		wallFD, wallFile = next, []*os.File{s.wallW}
		next++
	}
	for i := range copies {
		copies[i].FD = next + i
	}
	plan.Copies = copies
	argv := append([]string{py.exe}, spec.Args...)
	limits := rlimitsOf(policy, spec.Live, spec.Warm)
	if s.group != nil {
		// The group's limit is the one that binds: a program that runs out
		// of memory is then ended by the kernel, which the host sees in the
		// group's counters, instead of raising MemoryError at an address
		// space size that says little about the memory really used. The
		// address-space limit stays as a backstop for huge reservations.
		limits.AS = groupAddressSpace(policy)
	}
	if wall.ABI > 0 {
		// The stub that puts the wall up sets the limits too: one exec.
		plan.Command = landlockCommand(py.exe, limits, wall, wallFD, argv)
	} else if _, err := os.Stat(prlimitPath); err == nil {
		plan.Command = prlimitCommand(prlimitPath, limits, argv)
	} else {
		plan.Command = stubCommand(py.exe, limits, argv)
	}
	plan.Command = gateCommand(gateFD, plan.Command)
	// The options go through a pipe (--args): in argv they would be the
	// sandbox init's /proc/1/cmdline, showing the program host paths and
	// the user's name. bwrap wants the command itself in argv.
	full := bwrapArgs(plan)
	opts := full[:len(full)-len(plan.Command)-1]
	if spec.loosen != nil && spec.loosen.args != nil {
		opts = spec.loosen.args(opts)
	}
	if s.argsR, s.argsW, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	s.args = nulJoin(opts)
	cmd := exec.CommandContext(ctx, info.Path, append([]string{"--args", strconv.Itoa(argsFD), "--"}, plan.Command...)...)
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.ExtraFiles = append(append([]*os.File{s.seccompR, s.infoW, s.argsR, s.blockR, s.gateR}, wallFile...), s.copies...)
	groupFD := -1
	if s.group != nil && s.group.version == 2 {
		if s.groupFD, err = os.OpenFile(s.group.dirs[""], os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0); err != nil {
			return nil, nil, &UnavailableError{Reason: "could not open the run's control group", Err: err}
		}
		groupFD = int(s.groupFD.Fd())
	}
	cmd.SysProcAttr = bwrapProcAttr(s.runAs, groupFD)
	return cmd, s, nil
}

// bwrapProcAttr is how bwrap is started. It dies with the app (which the
// sandbox's init then does with bwrap, see readInfo), and leads a process
// group of its own, in which the init is born: while the run is set up
// that group is everything of it (killSetUp). With a v2 run group
// (groupFD >= 0) the kernel creates bwrap inside it (clone3
// CLONE_INTO_CGROUP): no instant exists when bwrap or anything it starts
// is outside the group, however the app dies.
func bwrapProcAttr(runAs, groupFD int) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if runAs >= 0 {
		a.Credential = &syscall.Credential{Uid: uint32(runAs), Gid: uint32(runAs), Groups: []uint32{}}
	}
	if groupFD >= 0 {
		a.UseCgroupFD, a.CgroupFD = true, groupFD
	}
	return a
}

// closeInheritedOnExec marks every descriptor above stderr close-on-exec.
// Go opens its own that way, but descriptors the app inherited from
// whatever started it do not get it and would pass through bwrap into the
// sandbox; the pipes and files a run is meant to have are placed by
// ExtraFiles, which clears the flag on the child's copies.
func closeInheritedOnExec() {
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC)
		}
	}
}

// openCopies opens the host files the run gets copies of: the read-only
// trees (Python layer, bytecode, font cache, check scripts) into the
// sandbox's root, the program and its data files into the scratch. Each
// is opened without following a link and checked to be a regular file on
// the open descriptor, which is what bwrap then reads. Spec.Data goes in
// sealed memory files.
func (s *sysState) openCopies(spec Spec) ([]fileCopy, error) {
	budget := int64(maxStageBytes)
	var out []fileCopy
	add := func(host, sandboxPath string, bind bool) error {
		if len(out) >= maxCopies {
			return fmt.Errorf("sandbox: more than %d files to copy", maxCopies)
		}
		f, err := openRegular(host)
		if err != nil {
			return err
		}
		fi, err := f.Stat()
		if err == nil && fi.Size() > budget {
			err = errStageTooBig
		}
		if err != nil {
			f.Close()
			return err
		}
		budget -= fi.Size()
		s.copies = append(s.copies, f)
		out = append(out, fileCopy{Sandbox: sandboxPath, Bind: bind})
		return nil
	}
	for _, m := range spec.ReadOnly {
		fi, err := os.Lstat(m.Host)
		if err != nil {
			return nil, fmt.Errorf("sandbox: %s: %w", m.Host, err)
		}
		if !fi.IsDir() {
			if err := add(m.Host, m.Sandbox, false); err != nil {
				return nil, fmt.Errorf("sandbox: %s: %w", m.Host, err)
			}
			continue
		}
		err = filepath.WalkDir(m.Host, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err // links, devices and fifos have no place in a sandbox
			}
			rel, err := filepath.Rel(m.Host, p)
			if err != nil {
				return err
			}
			return add(p, m.Sandbox+"/"+filepath.ToSlash(rel), false)
		})
		if err != nil {
			return nil, fmt.Errorf("sandbox: %s: %w", m.Host, err)
		}
	}
	for _, m := range spec.Files {
		if err := add(m.Host, m.Sandbox, true); err != nil {
			return nil, fmt.Errorf("sandbox: %s: %w", m.Host, err)
		}
	}
	for _, d := range spec.Data {
		if len(out) >= maxCopies {
			return nil, fmt.Errorf("sandbox: more than %d files to copy", maxCopies)
		}
		if int64(len(d.Data)) > budget {
			return nil, fmt.Errorf("sandbox: %s: %w", d.Sandbox, errStageTooBig)
		}
		f, err := sealedMemfd(d.Data)
		if err != nil {
			return nil, fmt.Errorf("sandbox: %s: %w", d.Sandbox, err)
		}
		budget -= int64(len(d.Data))
		s.copies = append(s.copies, f)
		out = append(out, fileCopy{Sandbox: d.Sandbox, Bind: true})
	}
	return out, nil
}

// sealedMemfd is a memory file holding data, read from its start. It is
// sealed: nothing can change what bwrap copies from it.
func sealedMemfd(data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("kidcoder-data", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("memfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), "kidcoder-data")
	if _, err = f.Write(data); err == nil {
		_, err = unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE)
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("memfd: %w", err)
	}
	return f, nil
}

// openRegular opens path for reading without following a final symlink
// and without blocking on a fifo, and only if it is a regular file.
func openRegular(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("sandbox: %s is not a regular file", path)
	}
	return f, nil
}

func nulJoin(a []string) []byte {
	var b []byte
	for _, s := range a {
		b = append(append(b, s...), 0)
	}
	return b
}

// started runs right after bwrap started: the child's copies of the
// pipes and files are closed here, and the init's pid is read.
func (s *sysState) started(cmd *exec.Cmd) {
	for _, f := range append([]*os.File{s.seccompR, s.infoW, s.argsR, s.blockR, s.gateR, s.wallW, s.groupFD}, s.copies...) {
		if f != nil {
			f.Close()
		}
	}
	s.seccompR, s.infoW, s.argsR, s.blockR, s.gateR, s.wallW, s.groupFD, s.copies = nil, nil, nil, nil, nil, nil, nil, nil
	s.mu.Lock()
	s.bwrapPid = cmd.Process.Pid
	s.mu.Unlock()
	go s.readInfo()
}

// setUp waits until readInfo is over. Until then bwrap is not reaped, so
// its pid, which is its process group's id, cannot name anything else
// while a kill may still be sent to that group.
func (s *sysState) setUp() { <-s.infoDone }

// readInfo takes only bwrap's first JSON object: the fd may be inherited
// by the program, which could write more. The pid is believed only if it
// is bwrap's own child, and is pinned with a pidfd against reuse. Then
// bwrap and the init, the run's only processes while bwrap waits on its
// block fd, go into the run group, and only then is the sandbox let go:
// every process of the program is born inside the group.
//
// When any step fails, or a kill was asked for meanwhile, the sandbox is
// killed while it is still held, before anything of the program's runs:
// its whole process group (bwrap and an init it may not have reported,
// which has no death signal tied to bwrap yet and would otherwise wait
// for ever holding the run's pipes) and its control group.
func (s *sysState) readInfo() {
	err := s.setUpSandbox()
	s.mu.Lock()
	defer func() {
		s.over = true
		s.mu.Unlock()
		close(s.infoDone)
	}()
	if err == nil && !s.killReq {
		return
	}
	if err != nil && !s.killReq {
		// A kill asked for meanwhile is why a step failed, not the sandbox.
		s.setupErr = err
	}
	s.killSetUp()
}

// killSetUp SIGKILLs everything a run may have while it is being set up.
// The caller holds s.mu, with s.over false.
func (s *sysState) killSetUp() {
	if s.pidfd >= 0 {
		unix.PidfdSendSignal(s.pidfd, unix.SIGKILL, nil, 0)
	}
	// bwrap leads its own process group (bwrapProcAttr) and the init is
	// born in it: until the init is let go nothing of the run has left it.
	// A pid of 0 would name the app's own group.
	if s.bwrapPid > 0 {
		unix.Kill(-s.bwrapPid, unix.SIGKILL)
	}
	if s.group != nil {
		s.group.killAll()
	}
}

// setUpSandbox takes the run from bwrap's start to its program's start,
// step by step; each failure names its step (SetupError).
func (s *sysState) setUpSandbox() *SetupError {
	bwrapPid := s.bwrapPid
	// On v1 bwrap goes into the group first, while it waits for its
	// options: everything it makes is then born in the group, so whatever a
	// dead app leaves of a run (an init held for ever) is in the run's
	// group, where the next instance finds and ends it. On v2 the kernel
	// made bwrap there (UseCgroupFD), and a move would only cost a wait.
	if s.group != nil && s.group.version == 1 {
		if testBeforeAttach != nil {
			testBeforeAttach(s.group)
		}
		if err := s.group.attach(bwrapPid); err != nil {
			// bwrap has made nothing yet: its options are never sent.
			s.argsW.Close()
			s.argsW = nil
			return setupErr("attach_bwrap", err)
		}
	}
	go func(w *os.File, b []byte) {
		// A dead app cuts the options short: bwrap then fails or the
		// gate, which comes in argv, reads EOF.
		w.Write(b)
		w.Close()
	}(s.argsW, s.args)
	s.argsW = nil
	var msg struct {
		ChildPid int `json:"child-pid"`
	}
	if testBeforeInfo != nil {
		testBeforeInfo()
	}
	dec := json.NewDecoder(io.LimitReader(s.infoR, 4096))
	if err := dec.Decode(&msg); err != nil {
		return setupErr("read_info", err)
	}
	if msg.ChildPid <= 0 {
		return setupErr("read_info", fmt.Errorf("bwrap reported child %d", msg.ChildPid))
	}
	pid := msg.ChildPid
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return setupErr("check_init", err)
	}
	if parentPid(stat) != bwrapPid {
		return setupErr("check_init", errors.New("the reported child is not bwrap's"))
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return setupErr("pin_init", err)
	}
	s.mu.Lock()
	s.initPid, s.pidfd = pid, fd
	killReq := s.killReq
	s.mu.Unlock()
	if killReq {
		return nil
	}
	if s.group != nil && s.group.version == 1 {
		if err := s.group.attach(pid); err != nil {
			return setupErr("attach_init", err)
		}
	}
	// The program runs below the window's priority (its processes
	// inherit the init's nice value and cannot lower it): on a small
	// machine a flood of output or a busy loop then never takes the CPU
	// from the window the child is typing in.
	if err := unix.Setpriority(unix.PRIO_PROCESS, pid, programNice); err != nil {
		return setupErr("lower_priority", err)
	}
	if testBeforeRelease != nil {
		testBeforeRelease(pid, fd)
	}
	if _, err := s.blockW.Write([]byte{1}); err != nil {
		return setupErr("release_init", err)
	}
	s.blockW.Close()
	s.blockW = nil
	// The gate opens only once the init dies with bwrap, which dies
	// with the app: from then on the app's death, at any instant,
	// ends the sandbox. Had the app died before, the gate reads EOF
	// and nothing of the program runs.
	if err := awaitInitBound(bwrapPid, pid, fd); err != nil {
		return err
	}
	s.mu.Lock()
	killReq = s.killReq
	s.mu.Unlock()
	if killReq {
		return nil
	}
	if _, err := s.gateW.Write([]byte("\n")); err != nil {
		return setupErr("open_gate", err)
	}
	s.gateW.Close()
	s.gateW = nil
	// Until the stub says the second wall stands, the run is still being
	// set up: a stub that could not put it up runs nothing of the program.
	if s.wallR != nil {
		if err := readWallReport(s.wallR); err != nil {
			return setupErr("landlock", err)
		}
	}
	return nil
}

// initBoundWait bounds how long the host waits for the released init to
// tie its life to bwrap's; a sandbox that has not by then is killed unrun.
const initBoundWait = 30 * time.Second

// initPoll is how long awaitInitBound waits on the init's pidfd between
// two looks at its state.
const initPoll = 200 * time.Microsecond

// awaitInitBound returns once the sandbox's init is known to die with
// bwrap. bwrap's init sets its parent-death signal only after the block fd
// lets it go, then installs its seccomp filter (do_init, bubblewrap 0.5 and
// later): a filter more than bwrap has says the signal is set, and bwrap
// still being its parent afterwards says it was set while bwrap lived.
// Only the kernel's word ends the wait early: the init's pidfd readable,
// or its /proc entry gone.
func awaitInitBound(bwrapPid, initPid, pidfd int) *SetupError {
	base, err := os.ReadFile("/proc/" + strconv.Itoa(bwrapPid) + "/status")
	if err != nil {
		return setupErr("read_bwrap_status", err)
	}
	deadline := time.Now().Add(initBoundWait)
	for {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(initPid) + "/status")
		if err != nil {
			if gone(err) {
				return setupErr("init_ended", err)
			}
			return setupErr("read_init_status", err)
		}
		bound, err := moreFilters(st, base)
		if err != nil {
			return setupErr("count_filters", err)
		}
		if bound {
			stat, err := os.ReadFile("/proc/" + strconv.Itoa(initPid) + "/stat")
			if err != nil && !gone(err) {
				return setupErr("read_init_stat", err)
			}
			if err != nil || parentPid(stat) != bwrapPid {
				return setupErr("bwrap_ended", errors.New("bwrap ended before the init was tied to it"))
			}
			// The pid read above is still the init's if its pidfd says it lives.
			exited, err := pidfdExited(pidfd, 0)
			if err != nil {
				return setupErr("poll_init", err)
			}
			if exited {
				return setupErr("init_ended", errors.New("the init ended before it ran the program"))
			}
			return nil
		}
		if time.Now().After(deadline) {
			return setupErr("init_not_ready", fmt.Errorf("not tied to bwrap after %v", initBoundWait))
		}
		exited, err := pidfdExited(pidfd, initPoll)
		if err != nil {
			return setupErr("poll_init", err)
		}
		if exited {
			return setupErr("init_ended", errors.New("the init ended before it ran the program"))
		}
	}
}

// gone says whether reading a process's /proc entry failed because the
// process is no more: the kernel's evidence, unlike a full table or a
// signal.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH)
}

// pidfdExited says whether the process behind pidfd has exited, waiting up
// to d for it. Only POLLIN (or POLLHUP, once reaped) on the pidfd says it
// has. A poll that was interrupted or could not be made (EINTR: a signal
// to this thread, Go's preemption or a SIGCHLD; EAGAIN) says nothing, and
// is made again for the time left.
func pidfdExited(pidfd int, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	for {
		fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
		ts := unix.NsecToTimespec(max(int64(time.Until(deadline)), 0))
		n, err := unix.Ppoll(fds, &ts, nil)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err != nil:
			return false, err
		case n == 0:
			return false, nil
		case fds[0].Revents&(unix.POLLIN|unix.POLLHUP) != 0:
			return true, nil
		}
		return false, fmt.Errorf("pidfd poll: revents %#x", fds[0].Revents)
	}
}

// moreFilters says whether a process's /proc status shows more seccomp
// filters than base's. Kernels before 5.9 show no count: then only a
// process without filters can be compared with one that has them.
func moreFilters(status, base []byte) (bool, error) {
	n, ok := statusNumber(status, "Seccomp_filters:")
	b, okb := statusNumber(base, "Seccomp_filters:")
	if ok && okb {
		return n > b, nil
	}
	mode, _ := statusNumber(status, "Seccomp:")
	bmode, _ := statusNumber(base, "Seccomp:")
	if bmode != 0 {
		return false, errors.New("sandbox: this kernel cannot show when the sandbox's init is tied to bwrap (the app runs under seccomp)")
	}
	return mode == 2, nil
}

// statusNumber reads a "Name:\tN" line of /proc/PID/status.
func statusNumber(status []byte, name string) (int64, bool) {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// testBeforeAttach, when set by a test, runs just before a run's first
// move into its group: it can make that move fail.
var testBeforeAttach func(g *runGroup)

// testBeforeInfo and testBeforeRelease, when set by a test, run just
// before bwrap's report is read, and just before the held init is let go.
var (
	testBeforeInfo    func()
	testBeforeRelease func(initPid, pidfd int)
)

// failure is why setting the run up failed after bwrap started, if it did.
func (s *sysState) failure() *SetupError {
	<-s.infoDone
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.setupErr
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

// kill SIGKILLs the run. Once the init is known and the run set up,
// killing the init makes the kernel kill every process in the pid
// namespace, setsid'd and double-forked ones included, and bwrap exits.
// While the run is being set up the kill goes to everything it may have
// (killSetUp): bwrap alone would orphan an init still held on its block
// fd, which has no death signal yet, together with the run's pipes; and
// readInfo, seeing killReq, lets nothing of the program run.
func (s *sysState) kill(cmd *exec.Cmd) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.killReq = true
	if !s.over {
		if s.bwrapPid == 0 {
			// The context ended as bwrap started, before started ran.
			s.bwrapPid = cmd.Process.Pid
		}
		s.killSetUp()
		return nil
	}
	if s.pidfd >= 0 {
		if err := unix.PidfdSendSignal(s.pidfd, unix.SIGKILL, nil, 0); err == nil || errors.Is(err, unix.ESRCH) {
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
	for {
		if exited, err := pidfdExited(fd, time.Minute); exited || err != nil {
			return
		}
	}
}

func (s *sysState) sample(stdinIno uint64) usage {
	u := usage{scratchFiles: -1}
	if s.group != nil {
		g := s.group.usage()
		u.contained = true
		u.cpuTotal = time.Duration(g.CPUNanos)
		u.runPeak = g.MemPeak
		u.oomKills = g.OOMKills
	}
	root, ok := s.sandboxRoot()
	if !ok {
		return u
	}
	var st unix.Statfs_t
	if unix.Statfs(root+ScratchDir, &st) == nil && st.Files > 0 {
		u.scratchFiles = int64(st.Files - st.Ffree)
	}
	ents, err := os.ReadDir(root + "/proc")
	if err != nil {
		return u
	}
	reads := readSyscalls[runtime.GOARCH]
	stdinLink := "pipe:[" + strconv.FormatUint(stdinIno, 10) + "]"
	var sum time.Duration
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		dir := root + "/proc/" + e.Name()
		if b, err := os.ReadFile(dir + "/status"); err == nil {
			u.peak = max(u.peak, vmPeak(b))
		}
		if b, err := os.ReadFile(dir + "/stat"); err == nil {
			own, kids := cpuTimes(b)
			u.cpu = max(u.cpu, own)
			sum += own + kids
		}
		tasks, _ := os.ReadDir(dir + "/task")
		stdinHere := false
		if l, err := os.Readlink(dir + "/fd/0"); err == nil && stdinIno != 0 && l == stdinLink {
			stdinHere = true
		}
		for _, t := range tasks {
			td := dir + "/task/" + t.Name()
			if b, err := os.ReadFile(td + "/stat"); err == nil && taskState(b) == 'R' {
				u.running = true
			}
			if !stdinHere {
				continue
			}
			if b, err := os.ReadFile(td + "/syscall"); err == nil && blockedReadingFD0(b, reads) {
				u.readingStdin = true
			}
		}
	}
	if !u.contained {
		u.cpuTotal = sum
	}
	return u
}

// sandboxRoot is the host path of the sandbox's root (through its init's
// /proc entry), once the init is known and bwrap has pivoted into it.
// Until then the init's root is the host's, and its /proc would list every
// host process; in the sandbox's own procfs the host (outside its pid
// namespace) has no /proc/self.
func (s *sysState) sandboxRoot() (string, bool) {
	s.mu.Lock()
	pid := s.initPid
	s.mu.Unlock()
	if pid == 0 {
		return "", false
	}
	root := "/proc/" + strconv.Itoa(pid) + "/root"
	if _, err := os.Readlink(root + "/proc/self"); err == nil {
		return "", false
	}
	return root, true
}

// resident is the resident memory of the run's processes now: bwrap's
// own and those of the sandbox's pid namespace.
func (s *sysState) resident(bwrapPid int) int64 {
	total := int64(0)
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(bwrapPid) + "/status"); err == nil {
		total += statusField(b, "VmRSS:")
	}
	root, ok := s.sandboxRoot()
	if !ok {
		return total
	}
	ents, _ := os.ReadDir(root + "/proc")
	for _, e := range ents {
		if e.Name()[0] >= '0' && e.Name()[0] <= '9' {
			if b, err := os.ReadFile(root + "/proc/" + e.Name() + "/status"); err == nil {
				total += statusField(b, "VmRSS:")
			}
		}
	}
	return total
}

// vmPeak parses "VmPeak:  123456 kB" from /proc/PID/status.
func vmPeak(status []byte) int64 { return statusField(status, "VmPeak:") }

// statusField parses a "NAME:  123456 kB" line of /proc/PID/status, in bytes.
func statusField(status []byte, name string) int64 {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
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
	for _, f := range append([]*os.File{s.seccompR, s.infoR, s.infoW, s.argsR, s.argsW, s.blockR, s.blockW, s.gateR, s.gateW, s.wallR, s.wallW, s.groupFD}, s.copies...) {
		if f != nil {
			f.Close()
		}
	}
	if s.group != nil {
		s.group.remove()
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
