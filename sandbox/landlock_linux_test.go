package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// needLandlock skips where the kernel lacks the ABI a test needs, and says so.
func needLandlock(t *testing.T, abi int) {
	t.Helper()
	if got := landlockABI(); got < abi {
		t.Skipf("this kernel offers %s, the test needs ABI %d", landlockName(got), abi)
	}
}

// allowAll is a seccomp filter of one instruction, RET ALLOW: the first
// wall's syscall filter gone, the second must hold alone.
func allowAll() []byte {
	b := binary.LittleEndian.AppendUint16(nil, 0x06) // BPF_RET|BPF_K
	b = append(b, 0, 0)
	return binary.LittleEndian.AppendUint32(b, seccompRetAllow)
}

// hole is a host folder bound into the sandbox by mistake.
type hole struct {
	host, sandbox string
	writable      bool
}

// holes is a first wall with every hole the second must stand behind: the
// host's network and processes shared, host folders bound, no /proc of
// its own (the host's pid namespace has none to give), and no seccomp
// filter to speak of. The folders are bound outside /tmp and the scratch:
// Landlock's rules hold for all below a folder, mounts included, so a
// folder bound below them would be as open as they are.
func holes(binds ...hole) func([]string) []string {
	return func(opts []string) []string {
		var out []string
		bound := false
		for i := 0; i < len(opts); i++ {
			switch {
			case opts[i] == "--unshare-net" || opts[i] == "--unshare-pid":
				continue
			case opts[i] == "--proc":
				i++
				continue
			case opts[i] == "--remount-ro" && !bound:
				bound = true
				for _, h := range binds {
					op := "--ro-bind"
					if h.writable {
						op = "--bind"
					}
					out = append(out, op, h.host, h.sandbox)
				}
			}
			out = append(out, opts[i])
		}
		return out
	}
}

// landlockBait is what the host plants for one attack on the second wall.
type landlockBait struct {
	secret, secretPath, hostTmp string
	tcp, abstract               net.Listener
	accepted                    atomic.Int32
	bindPort                    int
	helper                      *exec.Cmd
	helperDone                  chan struct{}
}

func newLandlockBait(t *testing.T) *landlockBait {
	t.Helper()
	root, err := os.MkdirTemp("", "kidcoder-landlock-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	// Reachable by the sandbox's host uid (nobody when the tests run as
	// root): only the sandbox may stand between the program and them.
	b := &landlockBait{secret: "KIDCODER-SECRET-" + randomHex(), hostTmp: filepath.Join(root, "tmp")}
	b.secretPath = filepath.Join(root, "home", "id_rsa")
	os.Chmod(root, 0o755)
	os.Mkdir(filepath.Dir(b.secretPath), 0o755)
	os.Mkdir(b.hostTmp, 0o777)
	os.Chmod(b.hostTmp, 0o777)
	if err := os.WriteFile(b.secretPath, []byte(b.secret), 0o644); err != nil {
		t.Fatal(err)
	}
	accept := func(ln net.Listener) {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b.accepted.Add(1)
			c.Close()
		}
	}
	if b.tcp, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	go accept(b.tcp)
	if b.abstract, err = net.Listen("unix", "@kidcoder-landlock-"+randomHex()[:12]); err != nil {
		t.Fatal(err)
	}
	go accept(b.abstract)
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.bindPort = free.Addr().(*net.TCPAddr).Port
	free.Close()
	b.helper = exec.Command("/usr/bin/sleep", "600")
	if os.Geteuid() == 0 {
		b.helper.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}
	}
	if err := b.helper.Start(); err != nil {
		t.Fatal(err)
	}
	b.helperDone = make(chan struct{})
	go func() { b.helper.Wait(); close(b.helperDone) }()
	t.Cleanup(func() {
		b.tcp.Close()
		b.abstract.Close()
		b.helper.Process.Kill()
		<-b.helperDone
	})
	return b
}

// Where the bait's folders are bound by mistake: a home and a host folder.
const (
	secretHole = "/home/kid"
	tmpHole    = "/srv/host"
)

func (b *landlockBait) holes() []hole {
	return []hole{{filepath.Dir(b.secretPath), secretHole, false}, {b.hostTmp, tmpHole, true}}
}

func (b *landlockBait) env() []string {
	return []string{
		"SECRET_PATH=" + secretHole + "/" + filepath.Base(b.secretPath),
		"HOST_TMP=" + tmpHole,
		"BAIT_TCP=" + strconv.Itoa(b.tcp.Addr().(*net.TCPAddr).Port),
		"BAIT_ABSTRACT=" + strings.TrimPrefix(b.abstract.Addr().String(), "@"),
		"BIND_PORT=" + strconv.Itoa(b.bindPort),
		"HOST_PID=" + strconv.Itoa(b.helper.Process.Pid),
	}
}

// escaped is the host's own evidence that an attack got through.
func (b *landlockBait) escaped(name string, o Outcome) bool {
	switch name {
	case "read_host_secret":
		return strings.Contains(string(o.Stdout), b.secret)
	case "write_outside":
		_, err := os.Stat(filepath.Join(b.hostTmp, "escaped.txt"))
		return err == nil
	case "tcp_connect", "abstract_unix", "tcp_bind":
		return b.accepted.Load() > 0
	case "signal_outside":
		select {
		case <-b.helperDone:
			return true
		case <-time.After(time.Second):
			// The kill, had it been sent, was delivered before the run
			// ended; the wait is only for the reaper to notice.
			return false
		}
	case "exec_written":
		return strings.HasPrefix(string(o.Stdout), "ESCAPED")
	}
	panic("no evidence for " + name)
}

// TestLandlockAttacks runs each attack through a first wall with holes,
// once with the second wall down, where it must get through (else the
// attack proves nothing), and once with Landlock required, where it must
// not: the program is refused and the host sees nothing of it.
func TestLandlockAttacks(t *testing.T) {
	needSandbox(t)
	needLandlock(t, LandlockFullABI)
	files, err := filepath.Glob("testdata/landlock/*.py")
	if err != nil || len(files) < 7 {
		t.Fatalf("want the 7 attacks on the second wall, have %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		code, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, wall := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/landlock_off", true: "/landlock_on"}[wall], func(t *testing.T) {
				t.Parallel()
				b := newLandlockBait(t)
				pol := testPolicy()
				pol.Landlock = LandlockRequired
				spec := Spec{Policy: pol, Env: b.env(), loosen: &loosening{
					args:       holes(b.holes()...),
					filter:     allowAll(),
					noLandlock: !wall,
				}}
				stop := make(chan struct{})
				if name == "tcp_bind" {
					// The host's side of the bind attack: a connection to the
					// port the program would listen on, until the run ends.
					go func() {
						for {
							select {
							case <-stop:
								return
							case <-time.After(20 * time.Millisecond):
							}
							if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(b.bindPort)); err == nil {
								b.accepted.Add(1)
								c.Close()
								return
							}
						}
					}()
				}
				_, o := runCode(t, string(code), spec, nil)
				close(stop)
				t.Logf("status=%s stdout=%q stderr=%.300q", o.Status, o.Stdout, o.Stderr)
				if o.Status != StatusOK {
					t.Fatalf("status %s, want ok", o.Status)
				}
				got := b.escaped(name, o)
				said := strings.Fields(string(o.Stdout))
				if !wall {
					if !got || len(said) == 0 || said[0] != "ESCAPED" {
						t.Errorf("with the second wall down the attack did not get through (host saw it: %v): it proves nothing", got)
					}
					return
				}
				if got || len(said) != 2 || said[0] != "BLOCKED" {
					t.Errorf("the attack got through the second wall (host saw it: %v)", got)
				}
				// Files are refused with EACCES, sockets and signals with EPERM.
				if len(said) == 2 && !slices.Contains([]string{"PermissionError"}, said[1]) {
					t.Errorf("refused with %s, want PermissionError (Landlock's EACCES or EPERM)", said[1])
				}
			})
		}
	}
}

// TestLandlockWall runs a program through the real sandbox, first wall
// intact: the second wall stands from its first line (nothing outside
// the runtime is listed, bwrap's init is out of reach), and the program
// still does what a child's program does.
func TestLandlockWall(t *testing.T) {
	needSandbox(t)
	needLandlock(t, LandlockFullABI)
	code := `import os, signal, subprocess, sys, tempfile, json
def refused(f):
    try:
        f()
        return "allowed"
    except PermissionError:
        return "refused"
print("root", refused(lambda: os.listdir("/")))
print("kid", refused(lambda: os.listdir("/kid")))
print("init", refused(lambda: os.kill(1, 0)))
open("note.txt", "w").write("kept")
os.makedirs("a/b", exist_ok=True)
os.rename("note.txt", "a/b/note.txt")
print("scratch", open("a/b/note.txt").read())
with tempfile.NamedTemporaryFile("w") as f:
    f.write("t")
    print("tmp ok")
open("/dev/null", "w").write("x")
print("urandom", len(open("/dev/urandom", "rb").read(4)))
print("child", subprocess.run([sys.executable, "-c", "print(6*7)"], capture_output=True, text=True).stdout.strip())
print("child init", subprocess.run([sys.executable, "-c", "import os\ntry:\n os.kill(1, 0)\n print('allowed')\nexcept PermissionError:\n print('refused')"], capture_output=True, text=True).stdout.strip())
print("proc", len(open("/proc/self/status").read()) > 0)
print("stdlib", json.dumps([1]))
`
	_, o := runCode(t, code, Spec{}, nil)
	want := "root refused\nkid refused\ninit refused\nscratch kept\ntmp ok\nurandom 4\nchild 42\nchild init refused\nproc True\nstdlib [1]\n"
	if o.Status != StatusOK || string(o.Stdout) != want {
		t.Errorf("status %s\nstdout %s\nwant   %s\nstderr %s", o.Status, o.Stdout, want, o.Stderr)
	}
}

// TestLandlockRequiredOnOldKernel: a run that requires the second wall on
// a kernel without (all of) it starts nothing, and says why; best-effort
// runs there with what the kernel has.
func TestLandlockRequiredOnOldKernel(t *testing.T) {
	needSandbox(t)
	needLandlock(t, 5)
	defer func() { kernelLandlockABI = landlockABI }()
	code := "import os\ntry:\n    os.listdir('/')\n    print('open')\nexcept PermissionError:\n    print('walled')\n"
	for abi, want := range map[int]string{0: "open\n", 5: "walled\n"} {
		kernelLandlockABI = func() int { return abi }
		pol := testPolicy()
		pol.Landlock = LandlockRequired
		p, err := Start(context.Background(), Spec{Policy: pol, Python: testPython, Args: []string{"-I", "-c", code}}, nil)
		var ue *UnavailableError
		if !errors.As(err, &ue) || ue.Code != "landlock_missing" || !strings.Contains(ue.Reason, "Landlock") || p != nil {
			t.Errorf("ABI %d required: Start = %v, want landlock_missing and no run", abi, err)
		}
		pol.Landlock = LandlockBestEffort
		_, o := runCode(t, code, Spec{Policy: pol}, nil)
		if o.Status != StatusOK || string(o.Stdout) != want {
			t.Errorf("ABI %d best-effort: status %s stdout %q, want %q; stderr %.300q", abi, o.Status, o.Stdout, want, o.Stderr)
		}
	}
}

// TestLandlockStubFailsClosed: a stub that cannot put the wall up runs
// nothing of the program, and the run says which step failed.
func TestLandlockStubFailsClosed(t *testing.T) {
	needSandbox(t)
	needLandlock(t, 1)
	// A rule the kernel refuses (a right it does not know: EINVAL) stands
	// for any step that fails inside the sandbox.
	spec := Spec{loosen: &loosening{wall: func(w *landlockWall) {
		w.Rules = append(w.Rules, landlockRule{Access: 1 << 40, Path: "/usr"})
	}}}
	_, o := runCode(t, "print('RAN')\n", spec, nil)
	if o.Status != StatusUnavailable || o.Setup == nil || o.Setup.Step != "landlock" || strings.Contains(string(o.Stdout), "RAN") {
		t.Fatalf("status %s setup %v stdout %q, want sandbox_unavailable at step landlock with nothing run", o.Status, o.Setup, o.Stdout)
	}
	if o.Setup.Errno() != "EINVAL" {
		t.Errorf("errno %q, want EINVAL", o.Setup.Errno())
	}
}

// BenchmarkLandlockStart is a hello run with the second wall (the stub
// puts it up and sets the limits) and without (prlimit sets the limits):
// what the wall costs a cold run's start.
func BenchmarkLandlockStart(b *testing.B) {
	needSandbox(b)
	for _, wall := range []bool{true, false} {
		b.Run(map[bool]string{true: "on", false: "off"}[wall], func(b *testing.B) {
			for range b.N {
				if _, o := runCode(b, "print('hi')\n", Spec{loosen: &loosening{noLandlock: !wall}}, nil); o.Status != StatusOK {
					b.Fatalf("status %s: %s", o.Status, o.Stderr)
				}
			}
		})
	}
}

// TestLandlockStubSetsLimits: the stub that puts the wall up sets every
// limit prlimit sets without it, soft and hard.
func TestLandlockStubSetsLimits(t *testing.T) {
	needSandbox(t)
	needLandlock(t, 1)
	code := `import resource as r
print(*[r.getrlimit(getattr(r, "RLIMIT_" + n)) for n in ("AS", "CPU", "FSIZE", "NPROC", "NOFILE", "CORE")])
`
	var got [2]string
	for i, off := range []bool{false, true} {
		_, o := runCode(t, code, Spec{loosen: &loosening{noLandlock: off}}, nil)
		if o.Status != StatusOK {
			t.Fatalf("Landlock off %v: status %s: %s", off, o.Status, o.Stderr)
		}
		got[i] = string(o.Stdout)
	}
	if got[0] != got[1] || !strings.Contains(got[0], "(3, 4)") {
		t.Errorf("limits with the wall %q, without %q", got[0], got[1])
	}
}
