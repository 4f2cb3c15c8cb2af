package sandbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
)

// The second wall (docs/sandbox-limits.md, "The second wall: Landlock"):
// inside the sandbox, before anything of the program's runs, the kernel's
// Landlock LSM is told what the run may touch, so a bwrap mount or
// namespace that were wrong would still not hand the program a host file,
// a write outside its scratch, a TCP connection, a host abstract socket
// or a signal to a process outside the run.

// LandlockMode says how much a run insists on the second wall.
type LandlockMode string

const (
	// LandlockBestEffort (also the zero value) puts up every rule the
	// kernel offers and runs with the first wall alone on a kernel
	// without Landlock; the ABI in use is Info.Landlock.
	LandlockBestEffort LandlockMode = "best-effort"
	// LandlockRequired refuses to start a run (ErrUnavailable, naming
	// Landlock) unless the kernel offers every rule of the wall:
	// LandlockFullABI or later.
	LandlockRequired LandlockMode = "required"
)

// Landlock ABI versions and the rights each adds (linux/landlock.h),
// spelled out because this file compiles on every OS.
const (
	llFsExecute    = 1 << 0
	llFsWriteFile  = 1 << 1
	llFsReadFile   = 1 << 2
	llFsReadDir    = 1 << 3
	llFsRemoveDir  = 1 << 4
	llFsRemoveFile = 1 << 5
	llFsMakeChar   = 1 << 6
	llFsMakeDir    = 1 << 7
	llFsMakeReg    = 1 << 8
	llFsMakeSock   = 1 << 9
	llFsMakeFifo   = 1 << 10
	llFsMakeBlock  = 1 << 11
	llFsMakeSym    = 1 << 12
	llFsRefer      = 1 << 13 // ABI 2
	llFsTruncate   = 1 << 14 // ABI 3
	llFsIoctlDev   = 1 << 15 // ABI 5

	llNetBindTCP    = 1 << 0 // ABI 4
	llNetConnectTCP = 1 << 1 // ABI 4

	llScopeAbstractUnix = 1 << 0 // ABI 6
	llScopeSignal       = 1 << 1 // ABI 6

	// llFileRights are the only rights a rule on a file (not a
	// directory) may carry; the stub masks such rules with them.
	llFileRights = llFsExecute | llFsWriteFile | llFsReadFile | llFsTruncate | llFsIoctlDev
)

// LandlockFullABI is the first ABI with every rule of the wall (TCP from
// ABI 4, abstract unix sockets and signals from ABI 6).
const LandlockFullABI = 6

// landlockKnownABI is the newest ABI whose rights the wall names; a newer
// kernel is used at this one (Landlock keeps old ABIs' meaning).
const landlockKnownABI = 7

// What each kind of place in the sandbox may be used for.
const (
	llRead    = llFsReadFile | llFsReadDir
	llRuntime = llRead | llFsExecute
	// llScratch: everything but running what the program wrote and making
	// device nodes.
	llScratch = llRead | llFsWriteFile | llFsRemoveDir | llFsRemoveFile | llFsMakeDir | llFsMakeReg |
		llFsMakeSock | llFsMakeFifo | llFsMakeSym | llFsRefer | llFsTruncate
	llDevice = llFsReadFile | llFsWriteFile | llFsTruncate | llFsIoctlDev
)

// devNodes are the only devices the program may open: those bwrap's
// --dev makes, less the tty and the pty multiplexer it needs none of.
var devNodes = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// landlockRule lets the program use Path (a sandbox path, and all below
// it for a directory) for the rights in Access.
type landlockRule struct {
	Access uint64
	Path   string
}

// landlockWall is the ruleset a run's stub puts up: what the kernel is
// told to handle (everything not granted by a rule is then refused) and
// the rules. ABI 0 means no wall.
type landlockWall struct {
	ABI    int
	FS     uint64 // handled filesystem rights
	Net    uint64 // handled network rights; no rule grants any
	Scoped uint64 // IPC scopes: nothing outside the run's own domain
	Rules  []landlockRule
}

// handledFS are the filesystem rights ABI abi knows.
func handledFS(abi int) uint64 {
	if abi < 1 {
		return 0
	}
	fs := uint64(llFsMakeSym<<1 - 1)
	if abi >= 2 {
		fs |= llFsRefer
	}
	if abi >= 3 {
		fs |= llFsTruncate
	}
	if abi >= 5 {
		fs |= llFsIoctlDev
	}
	return fs
}

// landlockRules is the wall of a run planned as plan, at the kernel's ABI:
// the program reads its runtime (/usr, the host's root dirs, the
// interpreter's dirs, the /etc files bwrap binds, its own /proc), the
// read-only trees given to it (readOnly, sandbox paths) and five devices;
// it writes only its scratch, /tmp and a trusted set-up run's writable
// mounts, and runs programs only from the runtime. No TCP port may be
// bound or connected to, and no abstract socket or process outside the
// run reached.
func landlockRules(abi int, plan bwrapPlan, readOnly []string) landlockWall {
	abi = min(abi, landlockKnownABI)
	if abi < 1 {
		return landlockWall{}
	}
	w := landlockWall{ABI: abi, FS: handledFS(abi)}
	if abi >= 4 {
		w.Net = llNetBindTCP | llNetConnectTCP
	}
	if abi >= 6 {
		w.Scoped = llScopeAbstractUnix | llScopeSignal
	}
	seen := map[string]bool{}
	add := func(access uint64, path string) {
		if !seen[path] {
			seen[path] = true
			w.Rules = append(w.Rules, landlockRule{Access: access & w.FS, Path: path})
		}
	}
	add(llRuntime, "/usr")
	for _, r := range plan.Root {
		if r.Link == "" {
			add(llRuntime, r.Path)
		}
	}
	for _, d := range plan.Python {
		add(llRuntime, d)
	}
	for _, f := range etcFiles {
		add(llRead, f)
	}
	add(llRead, "/proc")
	for _, d := range devNodes {
		add(llDevice, d)
	}
	for _, p := range readOnly {
		add(llRead, p)
	}
	add(llScratch, "/tmp")
	add(llScratch, ScratchDir)
	for _, m := range plan.Writable {
		add(llScratch, m.Sandbox)
	}
	return w
}

// landlockABIFor is the ABI a run under mode gets on a kernel offering
// kernelABI (0: none): all of it, or an error when mode requires more.
func landlockABIFor(mode LandlockMode, kernelABI int) (int, error) {
	switch mode {
	case "", LandlockBestEffort:
		return min(kernelABI, landlockKnownABI), nil
	case LandlockRequired:
		if kernelABI < LandlockFullABI {
			return 0, &UnavailableError{
				Code: "landlock_missing",
				Reason: fmt.Sprintf("the run requires the Landlock wall (ABI %d or later) and this kernel offers %s",
					LandlockFullABI, landlockName(kernelABI)),
				Fix: "use Linux 6.12 or later with Landlock enabled (CONFIG_SECURITY_LANDLOCK, lsm=landlock,...), or ask for Landlock best-effort",
			}
		}
		return min(kernelABI, landlockKnownABI), nil
	}
	return 0, fmt.Errorf("sandbox: unknown Landlock mode %q", mode)
}

// landlockName says an ABI in words: "Landlock ABI 7", or "no Landlock".
func landlockName(abi int) string {
	if abi < 1 {
		return "no Landlock"
	}
	return "Landlock ABI " + strconv.Itoa(abi)
}

// landlockStub sets the run's limits, then puts up the wall and reports on
// fd W, which it closes, before it execs the command: nothing of the
// program's runs before the wall stands, and the program never holds the
// report's pipe. A step that fails reports its name and errno and ends
// the stub, so the program never runs without the wall the host planned.
// -I -S keeps the stub from reading anything the child controls. A rule
// whose path does not exist in the sandbox (a --ro-bind-try of a missing
// host file) is left out: it could only have allowed more.
//
// Arguments: six limits as for rlimitStub, W, the handled fs, net and
// scoped rights, the count of rules, then each rule's rights and path,
// then the command.
const landlockStub = `import os,sys,resource as r,struct
a=sys.argv
for i,n in enumerate((r.RLIMIT_AS,r.RLIMIT_CPU,r.RLIMIT_FSIZE,r.RLIMIT_NPROC,r.RLIMIT_NOFILE,r.RLIMIT_CORE)):
 v=int(a[1+i])
 if v>=0:r.setrlimit(n,(v,v+(n==r.RLIMIT_CPU)))
w,fs,net,sc,k=(int(x) for x in a[7:12])
def fail(step,e):
 os.write(w,b"fail %s %d\n"%(step.encode(),e))
 os._exit(125)
try:
 import ctypes as c
 libc=c.CDLL(None,use_errno=True)
except Exception:fail("ctypes",0)
L=c.c_long
def call(step,f,*x):
 n=f(*x)
 if n<0:fail(step,c.get_errno())
 return n
libc.syscall.restype=L
rs=call("ruleset",libc.syscall,L(444),struct.pack("=QQQ",fs,net,sc),L(24),L(0))
for j in range(k):
 m,p=int(a[12+2*j]),a[13+2*j]
 try:fd=os.open(p,os.O_PATH|os.O_CLOEXEC)
 except FileNotFoundError:continue
 except OSError as e:fail("open_rule",e.errno)
 if os.fstat(fd).st_mode&0o170000!=0o040000:m&=FILE_RIGHTS
 call("add_rule",libc.syscall,L(445),L(rs),L(1),struct.pack("=Qi",m,fd),L(0))
 os.close(fd)
call("no_new_privs",libc.prctl,38,L(1),L(0),L(0),L(0))
call("restrict",libc.syscall,L(446),L(rs),L(0))
os.close(rs)
os.write(w,b"ok\n")
os.close(w)
p=12+2*k
os.execv(a[p],a[p:])`

// landlockStubCode is landlockStub with its constants filled in.
var landlockStubCode = strings.Replace(landlockStub, "FILE_RIGHTS", strconv.Itoa(llFileRights), 1)

// landlockCommand wraps argv in the stub: limits, then the wall, reported
// on the sandbox's fd reportFD.
func landlockCommand(python string, l rlimitValues, w landlockWall, reportFD int, argv []string) []string {
	f := func(v int64) string { return strconv.FormatInt(v, 10) }
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	cmd := []string{python, "-I", "-S", "-c", landlockStubCode,
		f(l.AS), f(l.CPU), f(l.FSize), f(l.NProc), f(l.NoFile), "0",
		strconv.Itoa(reportFD), u(w.FS), u(w.Net), u(w.Scoped), strconv.Itoa(len(w.Rules)),
	}
	for _, r := range w.Rules {
		cmd = append(cmd, u(r.Access), r.Path)
	}
	return append(cmd, argv...)
}

// loosening is a first wall with holes, for the attacks on the second:
// args rewrites bwrap's options, filter (when set) replaces the seccomp
// filter, noLandlock leaves the second wall down, and wall changes it.
type loosening struct {
	args       func(opts []string) []string
	filter     []byte
	noLandlock bool
	wall       func(*landlockWall)
}

// maxWallReport bounds what the host reads of the stub's report.
const maxWallReport = 128

// errNoWallReport: the sandbox ended before its stub said whether the
// wall stands.
var errNoWallReport = errors.New("the sandbox ended before it reported its Landlock wall")

// parseWallReport reads the stub's report: nil for "ok", else the failed
// step and its errno.
func parseWallReport(b []byte) error {
	line, _, complete := strings.Cut(string(b), "\n")
	if !complete {
		return errNoWallReport
	}
	if line == "ok" {
		return nil
	}
	var step string
	var errno int
	if _, err := fmt.Sscanf(line, "fail %s %d", &step, &errno); err != nil {
		return fmt.Errorf("the sandbox's Landlock report %q: %w", line, err)
	}
	if errno == 0 {
		return fmt.Errorf("landlock %s failed", step)
	}
	return fmt.Errorf("landlock %s: %w", step, syscall.Errno(errno))
}

// readOnlyTargets are the sandbox paths of a run's read-only trees.
func readOnlyTargets(ms []Mount) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Sandbox)
	}
	return out
}
