package sandbox

import (
	"encoding/binary"
	"fmt"
	"syscall"

	"golang.org/x/net/bpf"
)

// Seccomp return actions and audit architectures (linux/seccomp.h, linux/audit.h).
// Spelled out because this file compiles on every OS: its tests run anywhere.
const (
	seccompRetKillProcess = 0x80000000
	seccompRetErrno       = 0x00050000
	seccompRetAllow       = 0x7fff0000

	auditArchX86_64  = 0xC000003E
	auditArchAarch64 = 0xC00000B7

	x32SyscallBit = 0x40000000

	// Offsets into struct seccomp_data; arguments are 64-bit and the low
	// half comes first on both little-endian architectures we support.
	seccompNrOff   = 0
	seccompArchOff = 4
	seccompArg0Off = 16
	seccompArg1Off = 24

	afUnix    = 1
	tiocsti   = 0x5412
	tioclinux = 0x541C
	// F_SETPIPE_SZ grows a pipe to 1 MiB (pipe-max-size). Pipe buffers are
	// counted per host uid (fs.pipe-user-pages-soft, 16,384 pages); past
	// that every new pipe of the uid, the family's own programs' too, gets
	// 2 pages instead of 16. Grown pipes reached it from one process with
	// 64 of them; at the default size it takes 1,024 pipes.
	fSetpipeSz = 1031

	// CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET: namespaces
	// are how sandboxes get escaped, and --disable-userns is missing on
	// older bwrap, so clone is checked here too.
	cloneNamespaceFlags = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

	errnoEPERM        = 1
	errnoENOSYS       = 38
	errnoEAFNOSUPPORT = 97
)

// seccompArch holds what differs between architectures: the audit arch
// value and syscall numbers (asm/unistd_64.h, asm-generic/unistd.h).
type seccompArch struct {
	audit uint32
	x32   bool // reject the x32 ABI's syscall numbers (bit 30)
	nr    map[string]uint32
}

var seccompArches = map[string]seccompArch{
	"amd64": {audit: auditArchX86_64, x32: true, nr: map[string]uint32{
		"ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
		"keyctl": 250, "add_key": 248, "request_key": 249,
		"mount": 165, "umount2": 166, "pivot_root": 155, "unshare": 272, "setns": 308, "chroot": 161,
		"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
		"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
		"bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
		"kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313, "delete_module": 176,
		"acct": 163, "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170, "setdomainname": 171,
		"iopl": 172, "ioperm": 173, "quotactl": 179, "quotactl_fd": 443, "syslog": 103, "lookup_dcookie": 212, "vhangup": 153,
		"name_to_handle_at": 303, "open_by_handle_at": 304, "kcmp": 312, "fanotify_init": 300, "pidfd_getfd": 438,
		"uselib": 134, "nfsservctl": 180,
		"memfd_create": 319, "memfd_secret": 447, "mq_open": 240, "inotify_init": 253, "inotify_init1": 294,
		"shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67,
		"msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71,
		"semget": 64, "semop": 65, "semctl": 66, "semtimedop": 220,
		"socket": 41, "socketpair": 53, "ioctl": 16, "fcntl": 72, "clone": 56, "clone3": 435,
	}},
	"arm64": {audit: auditArchAarch64, nr: map[string]uint32{
		"ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271,
		"keyctl": 219, "add_key": 217, "request_key": 218,
		"mount": 40, "umount2": 39, "pivot_root": 41, "unshare": 97, "setns": 268, "chroot": 51,
		"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
		"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
		"bpf": 280, "perf_event_open": 241, "userfaultfd": 282,
		"kexec_load": 104, "kexec_file_load": 294, "init_module": 105, "finit_module": 273, "delete_module": 106,
		"acct": 89, "swapon": 224, "swapoff": 225, "reboot": 142, "sethostname": 161, "setdomainname": 162,
		"quotactl": 60, "quotactl_fd": 443, "syslog": 116, "lookup_dcookie": 18, "vhangup": 58,
		"name_to_handle_at": 264, "open_by_handle_at": 265, "kcmp": 272, "fanotify_init": 262, "pidfd_getfd": 438,
		"nfsservctl":   42,
		"memfd_create": 279, "memfd_secret": 447, "mq_open": 180, "inotify_init1": 26,
		"shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197,
		"msgget": 186, "msgctl": 187, "msgrcv": 188, "msgsnd": 189,
		"semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193,
		"socket": 198, "socketpair": 199, "ioctl": 29, "fcntl": 25, "clone": 220, "clone3": 435,
	}},
}

// seccompDenied are refused with EPERM: each one either reaches across
// the sandbox (ptrace, process_vm_*, kcmp, pidfd_getfd), changes the mount
// or namespace view, or exposes large kernel attack surface a child's
// program never needs (io_uring, bpf, perf, userfaultfd, keyrings).
// memfd, POSIX message queues and System V IPC (shared memory, message
// queues, semaphore sets) hold memory no process has mapped, which
// per-process limits cannot see: without a control group 4,000 queues held
// 62 MiB and 32,000 would hold 500 MiB beside the run's limit. System V IPC
// is refused whole, even the calls that take an id, so no rule depends on
// which ids exist; Python's multiprocessing uses POSIX semaphores, never
// System V ones. inotify instances are counted
// per user on the host, so a run could take the family's file watching
// away. A child's program needs none of them.
// The order is the order of the checks in the program.
var seccompDenied = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"keyctl", "add_key", "request_key",
	"mount", "umount2", "pivot_root", "unshare", "setns", "chroot",
	"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"bpf", "perf_event_open", "userfaultfd",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"acct", "swapon", "swapoff", "reboot", "sethostname", "setdomainname",
	"iopl", "ioperm", "quotactl", "quotactl_fd", "syslog", "lookup_dcookie", "vhangup",
	"name_to_handle_at", "open_by_handle_at", "fanotify_init", "uselib", "nfsservctl",
	"memfd_create", "memfd_secret", "mq_open", "inotify_init", "inotify_init1",
	"shmget", "shmat", "shmctl", "shmdt",
	"msgget", "msgsnd", "msgrcv", "msgctl",
	"semget", "semop", "semctl", "semtimedop",
}

// seccompProgram is the classic BPF filter bwrap installs with --seccomp.
// A foreign architecture (i386, x32, arm32 compat) is killed, not refused:
// its syscall numbers mean different calls, so no list could be right for it.
func seccompProgram(goarch string) ([]bpf.Instruction, error) {
	a, ok := seccompArches[goarch]
	if !ok {
		return nil, fmt.Errorf("seccomp: no syscall table for %s", goarch)
	}
	var b labelled
	b.add(bpf.LoadAbsolute{Off: seccompArchOff, Size: 4})
	b.jumpIfNot(a.audit, "kill")
	b.add(bpf.LoadAbsolute{Off: seccompNrOff, Size: 4})
	if a.x32 {
		b.jumpGE(x32SyscallBit, "kill")
	}
	for _, name := range seccompDenied {
		if nr, ok := a.nr[name]; ok {
			b.jumpIf(nr, "eperm")
		}
	}
	b.jumpIf(a.nr["socket"], "socket")
	b.jumpIf(a.nr["socketpair"], "socket")
	b.jumpIf(a.nr["ioctl"], "ioctl")
	b.jumpIf(a.nr["fcntl"], "fcntl")
	b.jumpIf(a.nr["clone"], "clone")
	// ENOSYS makes glibc fall back to clone(2), whose flags are a register
	// the filter can see; clone3 passes them in memory it cannot read.
	b.jumpIf(a.nr["clone3"], "enosys")
	b.add(bpf.RetConstant{Val: seccompRetAllow})

	b.label("eperm")
	b.add(bpf.RetConstant{Val: seccompRetErrno | errnoEPERM})

	b.label("socket")
	b.add(bpf.LoadAbsolute{Off: seccompArg0Off, Size: 4})
	b.jumpIfNot(afUnix, "eafnosupport")
	b.add(bpf.RetConstant{Val: seccompRetAllow})
	b.label("eafnosupport")
	b.add(bpf.RetConstant{Val: seccompRetErrno | errnoEAFNOSUPPORT})

	b.label("ioctl")
	b.add(bpf.LoadAbsolute{Off: seccompArg1Off, Size: 4})
	b.jumpIf(tiocsti, "ioctl-eperm")
	b.jumpIf(tioclinux, "ioctl-eperm")
	b.add(bpf.RetConstant{Val: seccompRetAllow})
	// BPF jumps only forward, hence a second EPERM return.
	b.label("ioctl-eperm")
	b.add(bpf.RetConstant{Val: seccompRetErrno | errnoEPERM})

	b.label("fcntl")
	b.add(bpf.LoadAbsolute{Off: seccompArg1Off, Size: 4}) // the kernel takes cmd as 32 bits
	b.jumpIf(fSetpipeSz, "fcntl-eperm")
	b.add(bpf.RetConstant{Val: seccompRetAllow})
	b.label("fcntl-eperm")
	b.add(bpf.RetConstant{Val: seccompRetErrno | errnoEPERM})

	b.label("clone")
	b.add(bpf.LoadAbsolute{Off: seccompArg0Off, Size: 4})
	b.add(bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: cloneNamespaceFlags, SkipTrue: 1})
	b.add(bpf.RetConstant{Val: seccompRetAllow})
	b.add(bpf.RetConstant{Val: seccompRetErrno | errnoEPERM})

	b.label("enosys")
	b.add(bpf.RetConstant{Val: seccompRetErrno | errnoENOSYS})

	b.label("kill")
	b.add(bpf.RetConstant{Val: seccompRetKillProcess})
	return b.resolve()
}

// seccompBytes is the filter as struct sock_filter[] in the byte order of
// the (little-endian) kernels we support, the format bwrap --seccomp reads.
func seccompBytes(goarch string) ([]byte, error) {
	prog, err := seccompProgram(goarch)
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		out = binary.LittleEndian.AppendUint16(out, r.Op)
		out = append(out, r.Jt, r.Jf)
		out = binary.LittleEndian.AppendUint32(out, r.K)
	}
	return out, nil
}

// labelled builds a BPF program whose forward jumps name their target,
// so inserting a check never silently shifts another check's target.
type labelled struct {
	insns  []bpf.Instruction
	labels map[string]int
	fixups []fixup
}

type fixup struct {
	at     int
	target string
	onTrue bool
}

func (b *labelled) add(i bpf.Instruction) { b.insns = append(b.insns, i) }

func (b *labelled) label(name string) {
	if b.labels == nil {
		b.labels = map[string]int{}
	}
	b.labels[name] = len(b.insns)
}

func (b *labelled) jumpIf(val uint32, target string) {
	b.fixups = append(b.fixups, fixup{at: len(b.insns), target: target, onTrue: true})
	b.add(bpf.JumpIf{Cond: bpf.JumpEqual, Val: val})
}

func (b *labelled) jumpIfNot(val uint32, target string) {
	b.fixups = append(b.fixups, fixup{at: len(b.insns), target: target, onTrue: false})
	b.add(bpf.JumpIf{Cond: bpf.JumpEqual, Val: val})
}

func (b *labelled) jumpGE(val uint32, target string) {
	b.fixups = append(b.fixups, fixup{at: len(b.insns), target: target, onTrue: true})
	b.add(bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: val})
}

func (b *labelled) resolve() ([]bpf.Instruction, error) {
	for _, f := range b.fixups {
		to, ok := b.labels[f.target]
		if !ok {
			return nil, fmt.Errorf("seccomp: undefined label %q", f.target)
		}
		skip := to - f.at - 1
		if skip < 0 || skip > 255 {
			return nil, fmt.Errorf("seccomp: jump to %q out of range (%d)", f.target, skip)
		}
		j := b.insns[f.at].(bpf.JumpIf)
		if f.onTrue {
			j.SkipTrue = uint8(skip)
		} else {
			j.SkipFalse = uint8(skip)
		}
		b.insns[f.at] = j
	}
	return b.insns, nil
}

// errnoOf decodes a SECCOMP_RET_ERRNO action, for tests and diagnostics.
func errnoOf(action uint32) (syscall.Errno, bool) {
	if action&0xffff0000 != seccompRetErrno {
		return 0, false
	}
	return syscall.Errno(action & 0xffff), true
}
