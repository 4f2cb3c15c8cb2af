package sandbox

import (
	"strconv"
	"strings"
)

// sandboxExec is called by absolute path: a sandbox-exec earlier on PATH
// would decide what "sandboxed" means.
const sandboxExec = "/usr/bin/sandbox-exec"

// seatbeltPlan is what the macOS profile and argv are built from. Every
// path reaches the profile as a -D parameter, never spliced into its text,
// so no path (a child's file name, a user's home dir) can inject a rule.
type seatbeltPlan struct {
	Python   string   // resolved interpreter: the only program that may be executed
	Prefixes []string // sys.prefix / sys.base_prefix: the standard library
	Scratch  string   // per-run private dir: the only writable place
	ReadOnly []string // host dirs of Spec.ReadOnly
	Writable []string // host dirs of Spec.Writable (trusted set-up runs only)
	Command  []string // rlimit stub, interpreter and arguments
}

// seatbeltProfile is the SBPL text for a plan with the given numbers of
// prefixes, read-only and writable dirs. Denied by default: no network, no
// fork (a child's program needs none, so no daemon can outlive the run),
// no exec but the interpreter, reads of the system libraries, the Python
// installation and the run's own dirs only.
func seatbeltProfile(nPrefix, nRO, nRW int) string {
	var b strings.Builder
	b.WriteString(`(version 1)
(deny default)
(allow process-exec (literal (param "PYTHON")))
(allow signal (target self))
(allow process-info* (target self))
(allow sysctl-read)
(allow file-read-metadata)
(allow file-read*
  (literal "/")
  (subpath "/usr/lib")
  (subpath "/usr/share")
  (subpath "/System/Library")
  (subpath "/Library/Apple/System")
  (subpath "/private/var/db/timezone")
  (literal "/private/etc/localtime")
  (literal "/dev/null")
  (literal "/dev/random")
  (literal "/dev/urandom")
  (literal (param "PYTHON"))
  (subpath (param "SCRATCH"))`)
	for i := 0; i < nPrefix; i++ {
		b.WriteString("\n  (subpath (param \"PREFIX_" + strconv.Itoa(i) + "\"))")
	}
	for i := 0; i < nRO; i++ {
		b.WriteString("\n  (subpath (param \"RO_" + strconv.Itoa(i) + "\"))")
	}
	for i := 0; i < nRW; i++ {
		b.WriteString("\n  (subpath (param \"RW_" + strconv.Itoa(i) + "\"))")
	}
	b.WriteString(`)
(allow file-write*
  (literal "/dev/null")
  (subpath (param "SCRATCH"))`)
	for i := 0; i < nRW; i++ {
		b.WriteString("\n  (subpath (param \"RW_" + strconv.Itoa(i) + "\"))")
	}
	b.WriteString(")\n")
	return b.String()
}

// seatbeltArgs is sandbox-exec's argv (without argv[0]).
func seatbeltArgs(p seatbeltPlan) []string {
	a := []string{"-p", seatbeltProfile(len(p.Prefixes), len(p.ReadOnly), len(p.Writable)),
		"-D", "PYTHON=" + p.Python,
		"-D", "SCRATCH=" + p.Scratch,
	}
	for i, d := range p.Prefixes {
		a = append(a, "-D", "PREFIX_"+strconv.Itoa(i)+"="+d)
	}
	for i, d := range p.ReadOnly {
		a = append(a, "-D", "RO_"+strconv.Itoa(i)+"="+d)
	}
	for i, d := range p.Writable {
		a = append(a, "-D", "RW_"+strconv.Itoa(i)+"="+d)
	}
	return append(a, p.Command...)
}

// hostPath maps a sandbox path to the host path it stands for on macOS,
// which has no mount namespace: the scratch dir and each mount's sandbox
// path are prefixes replaced by their host dirs, also after the "=" of a
// KEY=VALUE environment entry or an --opt=PATH argument.
func hostPath(arg, scratch string, mounts []Mount) string {
	if r, ok := mapPath(arg, scratch, mounts); ok {
		return r
	}
	if k, v, ok := strings.Cut(arg, "="); ok {
		if r, ok := mapPath(v, scratch, mounts); ok {
			return k + "=" + r
		}
	}
	return arg
}

func mapPath(p, scratch string, mounts []Mount) (string, bool) {
	if rest, ok := cutPathPrefix(p, ScratchDir); ok {
		return scratch + rest, true
	}
	for _, m := range mounts {
		if rest, ok := cutPathPrefix(p, m.Sandbox); ok {
			return m.Host + rest, true
		}
	}
	return "", false
}

// cutPathPrefix matches whole path elements only: /kid/home does not
// prefix /kid/homework.
func cutPathPrefix(s, prefix string) (string, bool) {
	if s == prefix {
		return "", true
	}
	if strings.HasPrefix(s, prefix+"/") {
		return s[len(prefix):], true
	}
	return "", false
}
