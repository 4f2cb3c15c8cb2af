package sandbox

import (
	"strconv"
	"time"
)

// sandboxUID is the uid and gid the program has inside the sandbox: not 0,
// so nothing in the sandbox looks privileged even to itself.
const sandboxUID = 1000

// tmpBytes bounds the sandbox's /tmp, which only libraries use.
const tmpBytes = 8 << 20

// baseEnv is the whole environment of a sandboxed program before Spec.Env:
// nothing of the host's environment (tokens, paths, user name) gets in.
var baseEnv = []string{
	"PATH=/usr/bin:/bin",
	"HOME=" + ScratchDir,
	"LANG=C.UTF-8",
	"PYTHONIOENCODING=utf-8",
	"PYTHONDONTWRITEBYTECODE=1",
	"OPENBLAS_NUM_THREADS=1",
	"MPLBACKEND=Agg",
}

// etcFiles are the only host /etc entries the sandbox sees: the dynamic
// loader's cache, Debian's alternatives (symlinks only; numpy reaches
// libblas.so.3 through them), the time zone, fontconfig (matplotlib text)
// and Debian's matplotlibrc. No passwd, hosts, resolv.conf or shadow: a
// child's program needs no user database and has no network.
var etcFiles = []string{
	"/etc/ld.so.cache",
	"/etc/alternatives",
	"/etc/localtime",
	"/etc/fonts",
	"/etc/matplotlibrc",
}

// rootEntry is a top-level host path recreated in the sandbox: a symlink
// like the host's (merged /usr) or, when the host has a real directory, a
// read-only bind of it.
type rootEntry struct {
	Path string
	Link string // symlink target; "" means bind Path read-only
}

// bwrapPlan is everything bwrapArgs needs, resolved beforehand so that
// turning it into argv has no I/O and is tested by exact comparison.
type bwrapPlan struct {
	Features Features
	Policy   Policy
	Root     []rootEntry // /bin, /lib, /lib64, /sbin as on the host
	Python   []string    // host dirs of the interpreter outside /usr, bound at the same path
	// Copies are host files handed over as open descriptors: bwrap copies
	// each into the sandbox, so no host path of the Python layer, the
	// program or its data shows in the sandbox's mount table.
	Copies   []fileCopy
	Writable []Mount
	Env      []string
	// SeccompFD and InfoFD are the child's fd numbers of the filter and of
	// the pipe where bwrap reports the namespace init's host pid.
	SeccompFD int
	InfoFD    int
	// BlockFD holds the sandbox before it runs anything of the program's
	// until the host has placed it in its run group (0: not used).
	BlockFD int
	Command []string // rlimit wrapper, interpreter and arguments
}

// bwrapArgs turns a plan into bwrap's argv (without argv[0]).
func bwrapArgs(p bwrapPlan) []string {
	uid := strconv.Itoa(sandboxUID)
	a := []string{
		"--unshare-user", "--uid", uid, "--gid", uid,
		"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
	}
	if p.Features.UnshareCgroupTry {
		a = append(a, "--unshare-cgroup-try")
	}
	if p.Features.DisableUserns {
		a = append(a, "--disable-userns")
	}
	a = append(a,
		"--hostname", "kidcoder",
		"--new-session", "--die-with-parent", "--cap-drop", "ALL",
		"--clearenv",
	)
	for _, kv := range append(append([]string{}, baseEnv...), p.Env...) {
		k, v := splitEnv(kv)
		a = append(a, "--setenv", k, v)
	}
	a = append(a, "--ro-bind", "/usr", "/usr")
	for _, r := range p.Root {
		if r.Link != "" {
			a = append(a, "--symlink", r.Link, r.Path)
		} else {
			a = append(a, "--ro-bind-try", r.Path, r.Path)
		}
	}
	for _, f := range etcFiles {
		a = append(a, "--ro-bind-try", f, f)
	}
	for _, d := range p.Python {
		a = append(a, "--ro-bind", d, d)
	}
	a = append(a,
		"--proc", "/proc",
		"--dev", "/dev",
		// bwrap's /dev/pts is a devpts instance of its own, but every
		// instance but the host's shares the kernel's pty count
		// (kernel.pty.max less pty.reserve, 3,072 by default) and bwrap
		// sets no max on it: a run held 3,071 and other sandboxes on the
		// machine got ENOSPC. An empty, read-only tmpfs over it leaves
		// /dev/ptmx (a link to pts/ptmx) pointing at nothing, so the run
		// opens no pty at all; a child's program needs none.
		"--tmpfs", "/dev/pts",
		"--size", strconv.FormatInt(tmpBytes, 10), "--tmpfs", "/tmp",
		"--size", strconv.FormatInt(p.Policy.ScratchBytes, 10), "--tmpfs", ScratchDir,
	)
	for _, c := range p.Copies {
		op := "--file" // into the root tmpfs, read-only once / is remounted
		if c.Bind {
			op = "--ro-bind-data" // inside the writable scratch: a read-only file of its own
		}
		a = append(a, "--perms", "0444", op, strconv.Itoa(c.FD), c.Sandbox)
	}
	for _, m := range p.Writable {
		a = append(a, "--bind", m.Host, m.Sandbox)
	}
	// bwrap's root and /dev are tmpfs without a size, writable by the
	// sandbox user: left so, they would be an unbounded memory sink.
	a = append(a,
		"--remount-ro", "/dev",
		"--remount-ro", "/dev/pts",
		"--remount-ro", "/",
		"--chdir", ScratchDir,
		"--seccomp", strconv.Itoa(p.SeccompFD),
		"--info-fd", strconv.Itoa(p.InfoFD),
	)
	if p.BlockFD > 0 {
		a = append(a, "--block-fd", strconv.Itoa(p.BlockFD))
	}
	a = append(a, "--")
	return append(a, p.Command...)
}

// fileCopy is one host file given to bwrap as descriptor FD (in bwrap's
// numbering) and copied to Sandbox.
type fileCopy struct {
	FD      int
	Sandbox string
	Bind    bool // true for files inside the scratch tmpfs
}

func splitEnv(kv string) (string, string) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:]
		}
	}
	return kv, ""
}

// gateScript holds the sandbox's first process before anything of the
// program's: it goes on to the command only once the host writes a line
// on fd, and ends at EOF, which is what it reads when the host died before
// it let the sandbox go. bwrap's own --block-fd goes on at EOF, so it alone
// cannot keep a dead host's sandbox from running. The script is fixed
// text; the command comes as its arguments, never spliced in.
func gateScript(fd int) string {
	n := strconv.Itoa(fd)
	return "read -r go <&" + n + " && exec " + n + "<&- && exec \"$@\""
}

// gateShell runs gateScript: a small shell (dash on Debian), one exec.
const gateShell = "/bin/sh"

// gateCommand wraps a command in the gate on fd.
func gateCommand(fd int, command []string) []string {
	return append([]string{gateShell, "-c", gateScript(fd), "sandbox-gate"}, command...)
}

// rlimitValues are the limits set inside the sandbox, soft = hard so the
// program cannot raise them; except CPU, whole seconds rounded up, whose
// hard limit is a second later: the soft limit's SIGXCPU names the cause
// unambiguously, and a program that catches it is SIGKILLed at the hard one.
type rlimitValues struct {
	AS, CPU, FSize, NProc, NoFile int64
}

func (l rlimitValues) cpuHard() int64 { return l.CPU + 1 }

// rlimitsOf are the per-process limits of a run under p; a live run's
// processes get at least liveProcessCPU of CPU each.
func rlimitsOf(p Policy, live, warm bool) rlimitValues {
	perProcess := p.CPUTime
	if live {
		perProcess = max(perProcess, liveProcessCPU)
	}
	if warm {
		perProcess += WarmCPU
	}
	cpu := int64((perProcess + time.Second - 1) / time.Second)
	if cpu < 1 {
		cpu = 1
	}
	return rlimitValues{
		AS:     p.MemoryBytes,
		CPU:    cpu,
		FSize:  p.FileSizeBytes,
		NProc:  int64(p.MaxProcs),
		NoFile: int64(p.MaxOpenFiles),
	}
}

// prlimitCommand wraps argv in util-linux prlimit, which sets the limits on
// itself and execs: one small extra exec, no interpreter start.
func prlimitCommand(prlimit string, l rlimitValues, argv []string) []string {
	pair := func(flag string, soft, hard int64) string {
		return flag + "=" + strconv.FormatInt(soft, 10) + ":" + strconv.FormatInt(hard, 10)
	}
	return append([]string{prlimit,
		pair("--as", l.AS, l.AS),
		pair("--cpu", l.CPU, l.cpuHard()),
		pair("--fsize", l.FSize, l.FSize),
		pair("--nproc", l.NProc, l.NProc),
		pair("--nofile", l.NoFile, l.NoFile),
		"--core=0:0",
		"--",
	}, argv...)
}

// rlimitStub sets the limits from argv and execs the rest. -I -S keeps the
// stub from reading anything the child controls (site, PYTHON* env). A
// negative value leaves that limit alone (macOS does not enforce RLIMIT_AS).
const rlimitStub = `import os,resource as r,sys
a=sys.argv
for i,n in enumerate((r.RLIMIT_AS,r.RLIMIT_CPU,r.RLIMIT_FSIZE,r.RLIMIT_NPROC,r.RLIMIT_NOFILE,r.RLIMIT_CORE)):
 v=int(a[1+i])
 if v>=0:r.setrlimit(n,(v,v+(n==r.RLIMIT_CPU)))
os.execv(a[7],a[7:])`

// stubCommand wraps argv in a Python stub, for systems without prlimit
// (and macOS, which has none).
func stubCommand(python string, l rlimitValues, argv []string) []string {
	f := func(v int64) string { return strconv.FormatInt(v, 10) }
	return append([]string{python, "-I", "-S", "-c", rlimitStub,
		f(l.AS), f(l.CPU), f(l.FSize), f(l.NProc), f(l.NoFile), "0",
	}, argv...)
}
