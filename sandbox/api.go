package sandbox

import (
	"errors"
	"strconv"
	"syscall"
	"time"
)

// Info describes the sandbox tool found on this machine.
type Info struct {
	Kind     string   // "bubblewrap" or "seatbelt"
	Path     string   // absolute path of bwrap or sandbox-exec
	Version  string   // e.g. "0.8.0"; "" for sandbox-exec, which has no version flag
	Features Features // options this bwrap understands
	// Containment says how whole runs are bounded (control group or fallback).
	Containment Containment
	// RunAsUID is the unprivileged host uid bwrap runs under when the app
	// itself runs as root (RLIMIT_NPROC does not hold for host root even
	// inside a user namespace); -1 when the app's own uid is used.
	RunAsUID int
	// Landlock is the Landlock ABI the second wall uses on this kernel
	// (Linux; 0: none, the mounts are the one wall); see LandlockMode.
	Landlock int
}

// Features lists the optional bwrap options the sandbox uses when present.
type Features struct {
	DisableUserns    bool // --disable-userns (0.8.0): no nested user namespaces
	Size             bool // --size for --tmpfs (required: bounds the scratch tmpfs)
	Seccomp          bool // --seccomp (required)
	CapDrop          bool // --cap-drop (required)
	UnshareCgroupTry bool // --unshare-cgroup-try
	InfoFD           bool // --info-fd (required: it names the namespace's init to kill)
	DieWithParent    bool // --die-with-parent (required)
}

// Probe is one self-test check run through the real sandbox.
type Probe struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"` // "block": the sandbox must refuse it; "allow": it must work
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Report is the result of SelfTest.
type Report struct {
	Probes []Probe `json:"probes"`
	Info   Info    `json:"info"`
}

// OK reports whether every probe behaved.
func (r Report) OK() bool {
	if len(r.Probes) == 0 {
		return false
	}
	for _, p := range r.Probes {
		if !p.OK {
			return false
		}
	}
	return true
}

// Policy bounds one run. Network is always off and is not a field on purpose.
type Policy struct {
	// WallTime is the wall clock, not counting time the host saw the
	// program wait for input (blocked reading stdin, nothing unread, no CPU used).
	// In a live run it counts busy time since the run last waited.
	WallTime time.Duration
	// IdleTime is the most time, summed over the run, a program may wait
	// for input; a live run ends after this long without any input.
	IdleTime time.Duration
	// CPUTime bounds each process (RLIMIT_CPU) and the run's processes
	// together; in a live run, the run's CPU since it last waited, and each
	// process gets at least an hour.
	CPUTime time.Duration
	// MemoryBytes bounds each process's address space (Linux) or resident
	// size (macOS watchdog), and, where a control group holds the run, all
	// of the run's memory together: processes, tmpfs, shared and kernel memory.
	MemoryBytes   int64
	MaxProcs      int   // processes and threads, of the run together where a control group holds it
	FileSizeBytes int64 // largest file the program may write
	ScratchBytes  int64 // size of the private scratch tmpfs
	ScratchFiles  int64 // files and folders the scratch may hold
	OutputBytes   int64 // stdout+stderr together
	MaxOpenFiles  int
	// Landlock says whether a run may start without the second wall
	// (Linux): LandlockBestEffort, the zero value, or LandlockRequired.
	Landlock LandlockMode
}

// DefaultPolicy returns the limits a child's run gets unless settings say otherwise.
func DefaultPolicy() Policy {
	return Policy{
		WallTime:      10 * time.Second,
		IdleTime:      5 * time.Minute,
		CPUTime:       10 * time.Second,
		MemoryBytes:   512 << 20,
		MaxProcs:      64,
		FileSizeBytes: 16 << 20,
		ScratchBytes:  64 << 20,
		ScratchFiles:  10000,
		OutputBytes:   1 << 20,
		MaxOpenFiles:  256,
	}
}

// Mount makes a host path visible read-only at Sandbox inside the sandbox.
type Mount struct {
	Host    string
	Sandbox string
}

// DataFile is a read-only file of the scratch directory made from bytes.
type DataFile struct {
	Sandbox string // a path under ScratchDir
	Data    []byte
}

// Spec is one program to run inside the sandbox.
type Spec struct {
	Policy Policy
	// Python is the host path of the interpreter (from FindPython); it is the
	// only program the sandbox starts.
	Python string
	// Args follow the interpreter; paths in them are sandbox paths.
	Args []string
	// ReadOnly are extra read-only mounts (the Python layer, caches).
	ReadOnly []Mount
	// Files are host files placed read-only inside the scratch directory
	// (Sandbox is a path under ScratchDir): the program and its data files.
	Files []Mount
	// Data are files placed read-only inside the scratch directory like
	// Files, from memory: a program given as bytes needs no staging folder
	// on the host to be written, and removed, around every run.
	Data []DataFile
	// Writable are host directories mounted read-write; used only by trusted
	// set-up runs (building the matplotlib font cache), never for a child's code.
	Writable []Mount
	// Env adds KEY=VALUE pairs to the minimal environment.
	Env []string
	// Frames gives the program fd 3 (frames to the host) and fd 4 (control
	// from the host); see docs/runner-protocol.md.
	Frames bool
	// Live marks a run that waits for events on purpose (a turtle game): its
	// clocks count busy time and time without input instead
	// (docs/sandbox-limits.md, "Live runs"). Needs Frames.
	Live bool
	// Warm starts the sandbox ahead of its program (docs/sandbox-limits.md,
	// "Warm runs"): until Process.Release no clock runs, and the handler
	// given to Start hears only the runner's own start-up (its ready frame);
	// Release names the handler of the program's. Each process gets WarmCPU more CPU seconds
	// (RLIMIT_CPU) for what it loads ahead. Needs Frames.
	Warm bool

	// loosen opens holes in the first wall; only the tests of the second
	// wall set it.
	loosen *loosening
}

// WarmCPU is the CPU a warm sandbox may spend loading ahead, on top of the
// policy's per-process limit; the runner lowers its own limit to the
// policy's when its program starts, and the host's clocks count from there.
const WarmCPU = 10 * time.Second

// ScratchDir is the sandbox path of the private writable scratch directory,
// also the working directory and HOME.
const ScratchDir = "/kid/home"

// Stream names an output stream of the program.
type Stream int

const (
	Stdout Stream = 1
	Stderr Stream = 2
)

// Handler receives what the program produces, from one goroutine, in order.
type Handler interface {
	// Output gets stdout/stderr as the host read it, in order with the frames.
	Output(s Stream, data []byte)
	// Frame gets one complete frame payload from fd 3 (bounded in size).
	Frame(payload []byte)
}

// Status is the host's verdict on a run (docs/contracts.md §2).
type Status string

const (
	StatusOK          Status = "ok"
	StatusError       Status = "error"
	StatusTimeout     Status = "timeout"
	StatusMemory      Status = "memory_limit"
	StatusOutput      Status = "output_limit"
	StatusKilled      Status = "killed"
	StatusUnavailable Status = "sandbox_unavailable"
)

// Outcome is what the host observed about a finished run.
type Outcome struct {
	Status    Status
	ExitCode  int // the program's exit code; 124 on timeout; 128+signal when killed by one
	Signal    string
	Duration  time.Duration // wall time, including time waiting for input
	Truncated bool          // output went past Policy.OutputBytes
	Stopped   bool          // ended by Stop
	Stdout    []byte        // bounded by Policy.OutputBytes
	Stderr    []byte
	// PeakMemory is the largest address space (Linux: VmPeak) or resident
	// size (macOS) the host saw a process of the run reach, sampled; 0 if unseen.
	PeakMemory int64
	// CPUTime is the run's user+system time: the run group's count where a
	// control group holds the run, else the most the host sampled.
	CPUTime time.Duration
	// Limit names the bound that ended the run when Status alone does not
	// say which: "cpu" (timeout by the run's total CPU), "idle" (waited for
	// input too long), "quiet" (a live run got no input for Policy.IdleTime),
	// "files" (scratch file count), "processes"; "" otherwise.
	Limit string
	// RunMemoryPeak is the run group's peak memory (all processes, tmpfs,
	// shared and kernel memory); 0 without a control group.
	RunMemoryPeak int64
	// Setup is why the sandbox was ended before the program ran, when
	// Status is StatusUnavailable for that reason; nil otherwise.
	Setup *SetupError
}

// SetupError is a failed step of setting a run's sandbox up, after the
// sandbox tool itself started: the step, in a word messages name (e.g.
// "read_info", "init_ended"), and what the kernel or the tool said. A run
// that was stopped or timed out meanwhile never has one.
type SetupError struct {
	Step string
	Err  error
}

func setupErr(step string, err error) *SetupError { return &SetupError{Step: step, Err: err} }

func (e *SetupError) Error() string {
	return "sandbox: setting the run up failed at " + e.Step + ": " + e.Err.Error()
}

func (e *SetupError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Errno is the kernel's name for the step's error ("EINTR", "ENOENT"), or
// "" when the step failed without one.
func (e *SetupError) Errno() string {
	var n syscall.Errno
	if errors.As(e.Err, &n) {
		return errnoName(n)
	}
	return ""
}

// ErrUnavailable is returned (wrapped) by Detect, Start and SelfTest when no working sandbox
// exists on this machine; errors.As with *UnavailableError gives the reason and fix.
var ErrUnavailable = errors.New("sandbox unavailable")

// UnavailableError explains why the sandbox cannot run code and how to fix it.
type UnavailableError struct {
	// Code names the reason for the UI, which says it in the child's
	// language: "bwrap_missing", "bwrap_broken", "bwrap_old", "userns",
	// "bwrap_blocked", "unsupported_os", "landlock_missing"; "" for the rarer ones, which only
	// have Reason.
	Code   string
	Reason string // what is wrong, in English: the technical detail
	Fix    string // the exact command or step that fixes it here, if one exists
	// FixOthers are the commands for other distributions, each runnable on
	// its own, when Fix is an install command.
	FixOthers []InstallCommand
	Err       error
}

func (e *UnavailableError) Error() string {
	s := "sandbox unavailable: " + e.Reason
	if e.Fix != "" {
		s += " (fix: " + e.Fix + ")"
	}
	return s
}

func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

func itoa(n int) string { return strconv.Itoa(n) }
