package sandbox

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/bpf"
)

func TestParseBwrap(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "bwrap", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		version, help string
		wantVersion   string
		wantErr       bool
		want          Features
		missing       []string
	}{
		{"version-0.8.0.txt", "help-0.8.0.txt", "0.8.0", false,
			Features{DisableUserns: true, Size: true, Seccomp: true, CapDrop: true, UnshareCgroupTry: true, InfoFD: true, DieWithParent: true}, nil},
		{"version-0.4.0.txt", "help-0.4.0.txt", "0.4.0", false,
			Features{Seccomp: true, CapDrop: true, UnshareCgroupTry: true, InfoFD: true, DieWithParent: true}, []string{"--size"}},
		{"version-garbage.txt", "help-0.4.0.txt", "", true, Features{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			v, err := parseBwrapVersion(read(tt.version))
			if (err != nil) != tt.wantErr || v != tt.wantVersion {
				t.Fatalf("version = %q, %v; want %q (err %v)", v, err, tt.wantVersion, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			f := parseBwrapFeatures(read(tt.help))
			if f != tt.want {
				t.Errorf("features = %+v, want %+v", f, tt.want)
			}
			if m := missingFeatures(f); !reflect.DeepEqual(m, tt.missing) {
				t.Errorf("missing = %v, want %v", m, tt.missing)
			}
		})
	}
	// A flag named only inside another option's description is no feature.
	if f := parseBwrapFeatures("    --unshare-user    may imply --disable-userns and --size\n"); f.DisableUserns || f.Size {
		t.Errorf("description text counted as options: %+v", f)
	}
}

func TestDiagnoseUserns(t *testing.T) {
	tests := []struct {
		name    string
		state   usernsState
		wantFix string // substring; "" means no error
	}{
		{"default kernel", usernsState{MaxUserNamespaces: "96364"}, ""},
		{"max zero", usernsState{MaxUserNamespaces: "0"}, "user.max_user_namespaces=15000"},
		{"debian clone off", usernsState{UnprivilegedClone: "0", MaxUserNamespaces: "100"}, "kernel.unprivileged_userns_clone=1"},
		{"ubuntu apparmor, no profile", usernsState{AppArmorRestrict: "1", MaxUserNamespaces: "100"}, "apparmor"},
		{"ubuntu apparmor with bwrap profile", usernsState{AppArmorRestrict: "1", AppArmorBwrapAllow: true}, ""},
		{"apparmor off", usernsState{AppArmorRestrict: "0"}, ""},
		{"setuid bwrap", usernsState{MaxUserNamespaces: "0", BwrapSetuid: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ue := diagnoseUserns(tt.state)
			if tt.wantFix == "" {
				if ue != nil {
					t.Fatalf("unexpected error %v", ue)
				}
				return
			}
			if ue == nil || !strings.Contains(ue.Fix, tt.wantFix) {
				t.Fatalf("got %v, want fix containing %q", ue, tt.wantFix)
			}
			if !errors.Is(ue, ErrUnavailable) {
				t.Error("UnavailableError does not wrap ErrUnavailable")
			}
		})
	}
	if !appArmorAllowsBwrap("profile bwrap /usr/bin/bwrap flags=(unconfined) {\n  userns,\n}\n") {
		t.Error("bwrap profile with userns not recognised")
	}
	if appArmorAllowsBwrap("profile firefox /usr/lib/firefox/firefox {\n  userns,\n}\n") {
		t.Error("a profile for another program counted as allowing bwrap")
	}
}

func TestGateCommand(t *testing.T) {
	got := gateCommand(7, []string{"/usr/bin/prlimit", "--", "/usr/bin/python3", "a b"})
	want := []string{"/bin/sh", "-c", `read -r go <&7 && exec 7<&- && exec "$@"`, "sandbox-gate",
		"/usr/bin/prlimit", "--", "/usr/bin/python3", "a b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("gateCommand = %q", got)
	}
}

func TestBwrapArgs(t *testing.T) {
	pol := DefaultPolicy()
	plan := bwrapPlan{
		Features:  Features{DisableUserns: true, Size: true, Seccomp: true, CapDrop: true, UnshareCgroupTry: true, InfoFD: true, DieWithParent: true},
		Policy:    pol,
		Root:      []rootEntry{{Path: "/bin", Link: "usr/bin"}, {Path: "/lib64"}},
		Python:    []string{"/opt/py"},
		Copies:    []fileCopy{{FD: 9, Sandbox: "/kid/py/kidrunner.py"}, {FD: 10, Sandbox: "/kid/home/prog.py", Bind: true}},
		Writable:  []Mount{{Host: "/cache/mpl", Sandbox: "/kid/mpl"}},
		Env:       []string{"KID_LANG=zh", "EMPTY="},
		SeccompFD: 5, InfoFD: 6, BlockFD: 8,
		Command: []string{"/usr/bin/python3", "-I", "/kid/home/prog.py"},
	}
	want := []string{
		"--unshare-user", "--uid", "1000", "--gid", "1000",
		"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
		"--unshare-cgroup-try", "--disable-userns",
		"--hostname", "kidcoder", "--new-session", "--die-with-parent", "--cap-drop", "ALL",
		"--clearenv",
		"--setenv", "PATH", "/usr/bin:/bin",
		"--setenv", "HOME", "/kid/home",
		"--setenv", "LANG", "C.UTF-8",
		"--setenv", "PYTHONIOENCODING", "utf-8",
		"--setenv", "PYTHONDONTWRITEBYTECODE", "1",
		"--setenv", "OPENBLAS_NUM_THREADS", "1",
		"--setenv", "MPLBACKEND", "Agg",
		"--setenv", "KID_LANG", "zh",
		"--setenv", "EMPTY", "",
		"--ro-bind", "/usr", "/usr",
		"--symlink", "usr/bin", "/bin",
		"--ro-bind-try", "/lib64", "/lib64",
		"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
		"--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
		"--ro-bind-try", "/etc/localtime", "/etc/localtime",
		"--ro-bind-try", "/etc/fonts", "/etc/fonts",
		"--ro-bind-try", "/etc/matplotlibrc", "/etc/matplotlibrc",
		"--ro-bind", "/opt/py", "/opt/py",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/pts",
		"--size", "8388608", "--tmpfs", "/tmp",
		"--size", "67108864", "--tmpfs", "/kid/home",
		"--perms", "0444", "--file", "9", "/kid/py/kidrunner.py",
		"--perms", "0444", "--ro-bind-data", "10", "/kid/home/prog.py",
		"--bind", "/cache/mpl", "/kid/mpl",
		"--remount-ro", "/dev", "--remount-ro", "/dev/pts", "--remount-ro", "/",
		"--chdir", "/kid/home",
		"--seccomp", "5", "--info-fd", "6", "--block-fd", "8",
		"--",
		"/usr/bin/python3", "-I", "/kid/home/prog.py",
	}
	if got := bwrapArgs(plan); !reflect.DeepEqual(got, want) {
		t.Errorf("bwrapArgs mismatch:\n got %q\nwant %q", got, want)
	}
	// Without the optional features the flags disappear; nothing else changes.
	plan.Features = Features{Size: true, Seccomp: true, CapDrop: true, InfoFD: true, DieWithParent: true}
	got := strings.Join(bwrapArgs(plan), " ")
	if strings.Contains(got, "--disable-userns") || strings.Contains(got, "--unshare-cgroup-try") {
		t.Errorf("optional flags used without support: %s", got)
	}
	// No host path outside the plan is ever bound: in particular not / or a home.
	for _, a := range bwrapArgs(plan) {
		if a == "/" && !strings.Contains(got, "--remount-ro /") || strings.HasPrefix(a, "/home") || strings.HasPrefix(a, "/root") || a == "/run" || a == "/var" || a == "/sys" {
			t.Errorf("unexpected host path %q in argv", a)
		}
	}
}

func TestRlimitCommands(t *testing.T) {
	pol := DefaultPolicy()
	pol.CPUTime = 2500 * time.Millisecond
	l := rlimitsOf(pol, false, false)
	if l != (rlimitValues{AS: 512 << 20, CPU: 3, FSize: 16 << 20, NProc: 64, NoFile: 256}) {
		t.Fatalf("rlimitsOf = %+v", l)
	}
	got := prlimitCommand("/usr/bin/prlimit", l, []string{"/usr/bin/python3", "x.py"})
	want := []string{"/usr/bin/prlimit", "--as=536870912:536870912", "--cpu=3:4", "--fsize=16777216:16777216",
		"--nproc=64:64", "--nofile=256:256", "--core=0:0", "--", "/usr/bin/python3", "x.py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("prlimitCommand = %q\nwant %q", got, want)
	}
	got = stubCommand("/usr/bin/python3", l, []string{"/usr/bin/python3", "x.py"})
	want = []string{"/usr/bin/python3", "-I", "-S", "-c", rlimitStub,
		"536870912", "3", "16777216", "64", "256", "0", "/usr/bin/python3", "x.py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stubCommand = %q\nwant %q", got, want)
	}
}

// seccompData lays out struct seccomp_data as the x/net/bpf VM reads it:
// the VM loads big-endian words, the kernel native ones, so each 32-bit
// word is written the way the kernel would present its value.
func seccompData(arch, nr uint32, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[16+8*i:], uint32(a))       // low half first on little-endian
		binary.BigEndian.PutUint32(b[16+8*i+4:], uint32(a>>32)) // high half
	}
	return b
}

func TestSeccompProgram(t *testing.T) {
	type call struct {
		name string
		arch uint32
		nr   uint32
		args []uint64
		want uint32
	}
	eperm := uint32(seccompRetErrno | errnoEPERM)
	for _, goarch := range []string{"amd64", "arm64"} {
		a := seccompArches[goarch]
		nr := func(n string) uint32 {
			v, ok := a.nr[n]
			if !ok {
				t.Fatalf("%s: no number for %s", goarch, n)
			}
			return v
		}
		calls := []call{
			{"read allowed", a.audit, 0, nil, seccompRetAllow},
			{"ptrace", a.audit, nr("ptrace"), nil, eperm},
			{"process_vm_readv", a.audit, nr("process_vm_readv"), nil, eperm},
			{"keyctl", a.audit, nr("keyctl"), nil, eperm},
			{"add_key", a.audit, nr("add_key"), nil, eperm},
			{"mount", a.audit, nr("mount"), nil, eperm},
			{"umount2", a.audit, nr("umount2"), nil, eperm},
			{"pivot_root", a.audit, nr("pivot_root"), nil, eperm},
			{"unshare", a.audit, nr("unshare"), nil, eperm},
			{"setns", a.audit, nr("setns"), nil, eperm},
			{"chroot", a.audit, nr("chroot"), nil, eperm},
			{"open_tree", a.audit, nr("open_tree"), nil, eperm},
			{"move_mount", a.audit, nr("move_mount"), nil, eperm},
			{"fsopen", a.audit, nr("fsopen"), nil, eperm},
			{"mount_setattr", a.audit, nr("mount_setattr"), nil, eperm},
			{"io_uring_setup", a.audit, nr("io_uring_setup"), nil, eperm},
			{"bpf", a.audit, nr("bpf"), nil, eperm},
			{"perf_event_open", a.audit, nr("perf_event_open"), nil, eperm},
			{"userfaultfd", a.audit, nr("userfaultfd"), nil, eperm},
			{"kexec_load", a.audit, nr("kexec_load"), nil, eperm},
			{"init_module", a.audit, nr("init_module"), nil, eperm},
			{"finit_module", a.audit, nr("finit_module"), nil, eperm},
			{"socket AF_UNIX", a.audit, nr("socket"), []uint64{1, 1, 0}, seccompRetAllow},
			{"socket AF_INET", a.audit, nr("socket"), []uint64{2, 1, 0}, seccompRetErrno | errnoEAFNOSUPPORT},
			{"socket AF_INET6", a.audit, nr("socket"), []uint64{10, 2, 0}, seccompRetErrno | errnoEAFNOSUPPORT},
			{"socket AF_NETLINK", a.audit, nr("socket"), []uint64{16, 3, 0}, seccompRetErrno | errnoEAFNOSUPPORT},
			{"socket AF_UNIX with high garbage", a.audit, nr("socket"), []uint64{1 | 1<<40, 1, 0}, seccompRetAllow},
			{"socketpair AF_UNIX", a.audit, nr("socketpair"), []uint64{1, 1, 0}, seccompRetAllow},
			{"socketpair AF_INET", a.audit, nr("socketpair"), []uint64{2, 1, 0}, seccompRetErrno | errnoEAFNOSUPPORT},
			{"ioctl TIOCSTI", a.audit, nr("ioctl"), []uint64{0, tiocsti}, eperm},
			{"ioctl TIOCSTI high bits", a.audit, nr("ioctl"), []uint64{0, 0xffffffff00000000 | tiocsti}, eperm},
			{"ioctl TIOCLINUX", a.audit, nr("ioctl"), []uint64{0, tioclinux}, eperm},
			{"ioctl TCGETS", a.audit, nr("ioctl"), []uint64{0, 0x5401}, seccompRetAllow},
			{"fcntl F_SETPIPE_SZ", a.audit, nr("fcntl"), []uint64{3, 1031, 1 << 20}, eperm},
			{"fcntl F_SETPIPE_SZ high bits", a.audit, nr("fcntl"), []uint64{3, 0xffffffff00000000 | 1031, 1 << 20}, eperm},
			{"fcntl F_GETPIPE_SZ", a.audit, nr("fcntl"), []uint64{3, 1032}, seccompRetAllow},
			{"fcntl F_SETFL", a.audit, nr("fcntl"), []uint64{3, 4, 0x800}, seccompRetAllow},
			{"clone fork", a.audit, nr("clone"), []uint64{0x01200011}, seccompRetAllow},
			{"clone thread", a.audit, nr("clone"), []uint64{0x003d0f00}, seccompRetAllow},
			{"clone newuser", a.audit, nr("clone"), []uint64{0x10000000 | 17}, eperm},
			{"clone newns", a.audit, nr("clone"), []uint64{0x00020000}, eperm},
			{"clone newnet", a.audit, nr("clone"), []uint64{0x40000000}, eperm},
			{"clone3", a.audit, nr("clone3"), nil, seccompRetErrno | errnoENOSYS},
			{"foreign arch i386", 0x40000003, 0, nil, seccompRetKillProcess},
			{"foreign arch arm32", 0x40000028, 0, nil, seccompRetKillProcess},
		}
		if goarch == "amd64" {
			calls = append(calls,
				call{"x32 read", a.audit, x32SyscallBit | 0, nil, seccompRetKillProcess},
				call{"x32 socket", a.audit, x32SyscallBit | 41, []uint64{2}, seccompRetKillProcess},
				call{"iopl", a.audit, nr("iopl"), nil, eperm},
			)
		} else {
			calls = append(calls, call{"amd64 arch on arm64", auditArchX86_64, 0, nil, seccompRetKillProcess})
		}
		prog, err := seccompProgram(goarch)
		if err != nil {
			t.Fatal(err)
		}
		vm, err := bpf.NewVM(prog)
		if err != nil {
			t.Fatalf("%s: %v", goarch, err)
		}
		for _, c := range calls {
			got, err := vm.Run(seccompData(c.arch, c.nr, c.args...))
			if err != nil {
				t.Fatalf("%s %s: %v", goarch, c.name, err)
			}
			if uint32(got) != c.want {
				t.Errorf("%s %s: action %#x, want %#x", goarch, c.name, uint32(got), c.want)
			}
		}
		// Every denied syscall known on this arch is refused.
		for _, name := range seccompDenied {
			n, ok := a.nr[name]
			if !ok {
				continue
			}
			got, _ := vm.Run(seccompData(a.audit, n))
			if e, ok := errnoOf(uint32(got)); !ok || e != syscall.Errno(errnoEPERM) {
				t.Errorf("%s %s: action %#x, want EPERM", goarch, name, uint32(got))
			}
		}
	}
	if _, err := seccompProgram("riscv64"); err == nil {
		t.Error("a filter for an architecture without a table")
	}
}

func TestSeccompBytes(t *testing.T) {
	b, err := seccompBytes("amd64")
	if err != nil {
		t.Fatal(err)
	}
	prog, _ := seccompProgram("amd64")
	if len(b) != 8*len(prog) {
		t.Fatalf("%d bytes for %d instructions", len(b), len(prog))
	}
	// First instruction: BPF_LD|BPF_W|BPF_ABS (0x20) of the arch at offset 4.
	if op, k := binary.LittleEndian.Uint16(b[0:]), binary.LittleEndian.Uint32(b[4:]); op != 0x20 || k != 4 {
		t.Errorf("first instruction op=%#x k=%d, want ld [4]", op, k)
	}
	// Last: return KILL_PROCESS.
	last := b[len(b)-8:]
	if op, k := binary.LittleEndian.Uint16(last[0:]), binary.LittleEndian.Uint32(last[4:]); op != 0x06 || k != seccompRetKillProcess {
		t.Errorf("last instruction op=%#x k=%#x, want ret KILL_PROCESS", op, k)
	}
}

func TestSeatbelt(t *testing.T) {
	plan := seatbeltPlan{
		Python:   "/opt/homebrew/Cellar/python@3.12/3.12.1/Frameworks/Python.framework/Versions/3.12/bin/python3.12",
		Prefixes: []string{"/opt/homebrew/Cellar/python@3.12/3.12.1/Frameworks/Python.framework/Versions/3.12"},
		Scratch:  `/private/var/folders/x/kidcoder-run-1 "(allow default)"`,
		ReadOnly: []string{"/Applications/Kid Coder.app/Contents/Resources/py"},
		Command:  []string{"/opt/py", "-c", "stub"},
	}
	wantProfile := `(version 1)
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
  (subpath (param "SCRATCH"))
  (subpath (param "PREFIX_0"))
  (subpath (param "RO_0")))
(allow file-write*
  (literal "/dev/null")
  (subpath (param "SCRATCH")))
`
	got := seatbeltArgs(plan)
	want := []string{"-p", wantProfile,
		"-D", "PYTHON=" + plan.Python,
		"-D", "SCRATCH=" + plan.Scratch,
		"-D", "PREFIX_0=" + plan.Prefixes[0],
		"-D", "RO_0=" + plan.ReadOnly[0],
		"/opt/py", "-c", "stub"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seatbeltArgs:\n got %q\nwant %q", got, want)
	}
	// A hostile path travels as a parameter only, never into the profile.
	if strings.Contains(got[1], "allow default") || strings.Contains(got[1], "kidcoder-run") {
		t.Error("a path was spliced into the profile text")
	}
	for _, forbidden := range []string{"network", "process-fork", "(allow default"} {
		if strings.Contains(got[1], forbidden) {
			t.Errorf("profile allows %s", forbidden)
		}
	}
	rw := seatbeltProfile(0, 0, 1)
	if strings.Count(rw, `(param "RW_0")`) != 2 {
		t.Errorf("writable dir must be readable and writable:\n%s", rw)
	}
}

func TestHostPath(t *testing.T) {
	mounts := []Mount{{Host: "/App/py", Sandbox: "/kid/py"}}
	tests := []struct{ in, want string }{
		{"/kid/home/prog.py", "/s/prog.py"},
		{"/kid/home", "/s"},
		{"/kid/homework", "/kid/homework"},
		{"/kid/py/kidrunner.py", "/App/py/kidrunner.py"},
		{"HOME=/kid/home", "HOME=/s"},
		{"--mpl-cache=/kid/py/x", "--mpl-cache=/App/py/x"},
		{"-I", "-I"},
		{"/usr/bin/python3", "/usr/bin/python3"},
	}
	for _, tt := range tests {
		if got := hostPath(tt.in, "/s", mounts); got != tt.want {
			t.Errorf("hostPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestVerdict(t *testing.T) {
	pol := DefaultPolicy() // 10 s CPU, 512 MiB
	tests := []struct {
		name   string
		o      observation
		status Status
		code   int
		signal string
	}{
		{"clean exit", observation{exitCode: 0}, StatusOK, 0, ""},
		{"exception", observation{exitCode: 1}, StatusError, 1, ""},
		{"sys.exit(3)", observation{exitCode: 3}, StatusError, 3, ""},
		{"wall clock", observation{cause: errTimeout, exitCode: 137}, StatusTimeout, 124, "SIGKILL"},
		{"cpu limit", observation{exitCode: 128 + 9, cpu: 10 * time.Second}, StatusTimeout, 124, "SIGKILL"},
		{"cpu soft limit", observation{exitCode: 128 + 24, cpu: 9500 * time.Millisecond}, StatusTimeout, 124, "SIGXCPU"},
		{"cpu soft limit, cpu under-sampled", observation{exitCode: 128 + 24, cpu: 5 * time.Second}, StatusTimeout, 124, "SIGXCPU"},
		{"SIGXCPU caught, hard limit", observation{exitCode: 137, cpu: 10900 * time.Millisecond}, StatusTimeout, 124, "SIGKILL"},
		{"SIGKILL without cpu", observation{exitCode: 137, cpu: time.Second}, StatusKilled, 137, "SIGKILL"},
		{"memory bomb then MemoryError", observation{exitCode: 1, peak: 500 << 20}, StatusMemory, 1, ""},
		{"segfault near memory limit", observation{exitCode: 128 + 11, peak: 510 << 20}, StatusMemory, 139, "SIGSEGV"},
		{"segfault", observation{exitCode: 128 + 11, peak: 20 << 20}, StatusKilled, 139, "SIGSEGV"},
		{"output flood", observation{cause: errOutputLimit, exitCode: 137}, StatusOutput, 137, "SIGKILL"},
		{"bwrap itself killed", observation{exitCode: -1, signal: 9}, StatusKilled, 137, "SIGKILL"},
		{"caller cancelled", observation{cause: errors.New("ctx"), exitCode: 137}, StatusKilled, 137, "SIGKILL"},
		{"stopped, runner exited", observation{cause: errStopped, exitCode: 1, stopped: true}, StatusError, 1, ""},
		{"stopped and killed", observation{cause: errStopped, exitCode: 137, stopped: true}, StatusKilled, 137, "SIGKILL"},
		{"memory watchdog", observation{cause: errMemoryLimit, exitCode: 137}, StatusMemory, 137, "SIGKILL"},
	}
	for _, tt := range tests {
		tt.o.policy = pol
		s, code, sig := verdict(tt.o)
		if s != tt.status || code != tt.code || sig != tt.signal {
			t.Errorf("%s: got %s/%d/%q, want %s/%d/%q", tt.name, s, code, sig, tt.status, tt.code, tt.signal)
		}
	}
}

func TestPythonCandidates(t *testing.T) {
	tests := []struct {
		goos, preferred, clt string
		want                 []string
	}{
		{"linux", "", "", []string{"/usr/bin/python3", "/usr/local/bin/python3"}},
		{"linux", "/opt/py/bin/python3", "", []string{"/opt/py/bin/python3"}},
		{"darwin", "", "", []string{"/opt/homebrew/bin/python3", "/usr/local/bin/python3",
			"/Library/Frameworks/Python.framework/Versions/Current/bin/python3"}},
		{"darwin", "", "/Library/Developer/CommandLineTools", []string{"/opt/homebrew/bin/python3", "/usr/local/bin/python3",
			"/Library/Frameworks/Python.framework/Versions/Current/bin/python3",
			"/Library/Developer/CommandLineTools/usr/bin/python3"}},
	}
	for _, tt := range tests {
		got := pythonCandidates(tt.goos, tt.preferred, tt.clt)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %q %q: %q, want %q", tt.goos, tt.preferred, tt.clt, got, tt.want)
		}
		for _, c := range got {
			if c == "/usr/bin/python3" && tt.goos == "darwin" {
				t.Error("the macOS install stub /usr/bin/python3 is a candidate")
			}
		}
	}
	for v, ok := range map[string]bool{"3.8": true, "3.13": true, "4.0": true, "3.7": false, "2.7": false, "x": false} {
		if versionAtLeast(v, 3, 8) != ok {
			t.Errorf("versionAtLeast(%q) != %v", v, ok)
		}
	}
}

func TestSelfTestKey(t *testing.T) {
	info := Info{Kind: "bubblewrap", Path: "/usr/bin/bwrap", Version: "0.8.0"}
	base := selfTestKey("b1", info, "6.1", "/usr/bin/python3")
	newer := info
	newer.Version = "0.9.0"
	for name, k := range map[string]string{
		"build":  selfTestKey("b2", info, "6.1", "/usr/bin/python3"),
		"bwrap":  selfTestKey("b1", newer, "6.1", "/usr/bin/python3"),
		"kernel": selfTestKey("b1", info, "6.2", "/usr/bin/python3"),
		"python": selfTestKey("b1", info, "6.1", "/usr/local/bin/python3"),
	} {
		if k == base {
			t.Errorf("changing the %s keeps the cache key", name)
		}
	}
	if selfTestKey("b1", info, "6.1", "/usr/bin/python3") != base {
		t.Error("key not stable")
	}
}

func TestReportOK(t *testing.T) {
	if (Report{}).OK() {
		t.Error("an empty report passes")
	}
	if (Report{Probes: []Probe{{OK: true}, {OK: false}}}).OK() {
		t.Error("a report with a failed probe passes")
	}
	if !(Report{Probes: []Probe{{OK: true}}}).OK() {
		t.Error("a passing report fails")
	}
}
