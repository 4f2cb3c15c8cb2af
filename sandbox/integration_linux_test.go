package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const testPython = "/usr/bin/python3"

// needSandbox skips only when the tools are absent; CI installs them, so
// there a skip is visible in the log.
func needSandbox(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap not installed (sudo apt install bubblewrap): sandbox integration tests skipped")
	}
	if _, err := os.Stat(testPython); err != nil {
		t.Skip(testPython + " missing: sandbox integration tests skipped")
	}
	if _, err := detectCached(); err != nil {
		t.Fatalf("bwrap is installed but unusable: %v", err)
	}
}

// testPolicy keeps attacks short: every limit is the default or tighter,
// but for the wall clock, which no test's real work reaches however busy
// the machine is (a Python start with two busy loops beside it took more
// than 5 s): a test of the wall clock sets its own, around a program that
// does nothing but wait or spin.
func testPolicy() Policy {
	p := DefaultPolicy()
	p.WallTime = 2 * time.Minute
	p.CPUTime = 3 * time.Second
	p.MemoryBytes = 512 << 20
	p.OutputBytes = 256 << 10
	return p
}

// recorder is a Handler that keeps everything, checking the one-goroutine
// promise on the way.
type recorder struct {
	mu      sync.Mutex
	calls   int
	inCall  atomic.Int32
	overlap bool
	out     []chunk
	frames  [][]byte
	onOut   func(Stream, []byte)
}

type chunk struct {
	s Stream
	b []byte
}

func (r *recorder) enter() {
	if r.inCall.Add(1) != 1 {
		r.overlap = true
	}
}

func (r *recorder) Output(s Stream, b []byte) {
	r.enter()
	defer r.inCall.Add(-1)
	r.mu.Lock()
	r.calls++
	r.out = append(r.out, chunk{s, append([]byte(nil), b...)})
	f := r.onOut
	r.mu.Unlock()
	if f != nil {
		f(s, b)
	}
}

func (r *recorder) Frame(b []byte) {
	r.enter()
	defer r.inCall.Add(-1)
	r.mu.Lock()
	r.frames = append(r.frames, append([]byte(nil), b...))
	r.mu.Unlock()
}

func (r *recorder) stream(s Stream) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b []byte
	for _, c := range r.out {
		if c.s == s {
			b = append(b, c.b...)
		}
	}
	return b
}

// runCode runs a program text in the sandbox.
func runCode(t testing.TB, code string, spec Spec, h Handler) (*Process, Outcome) {
	t.Helper()
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.py")
	if err := os.WriteFile(prog, []byte(code), 0o600); err != nil {
		t.Fatal(err)
	}
	if spec.Policy == (Policy{}) {
		spec.Policy = testPolicy()
	}
	spec.Python = testPython
	spec.Args = append([]string{"-I", "-B", ScratchDir + "/prog.py"}, spec.Args...)
	spec.Files = append(spec.Files, Mount{Host: prog, Sandbox: ScratchDir + "/prog.py"})
	p, err := Start(context.Background(), spec, h)
	if err != nil {
		t.Fatal(err)
	}
	return p, p.Wait()
}

// bait is what the host plants and listens on while the attacks run.
type bait struct {
	home, secretPath, secret, hostTmp, mark string
	tcp                                     net.Listener
	udp                                     net.PacketConn
	unixLn, abstractLn                      net.Listener
	abstract                                string
	hits                                    atomic.Int32
	helper                                  *exec.Cmd
}

func newBait(t *testing.T) *bait {
	b := &bait{secret: "KIDCODER-SECRET-" + randomHex(), mark: "kidcoder-escape-" + randomHex()[:12]}
	root := t.TempDir()
	os.Chmod(root, 0o755)
	b.home = filepath.Join(root, "home")
	b.secretPath = filepath.Join(b.home, ".ssh", "id_rsa")
	b.hostTmp = filepath.Join(root, "hosttmp")
	for _, d := range []string{filepath.Dir(b.secretPath), b.hostTmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// World-readable: only the sandbox may stand between it and the program.
	if err := os.WriteFile(b.secretPath, []byte(b.secret), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", b.home)
	t.Setenv("KIDCODER_TEST_SECRET", b.secret)

	var err error
	accept := func(ln net.Listener) {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b.hits.Add(1)
			c.Close()
		}
	}
	if b.tcp, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	go accept(b.tcp)
	if b.udp, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := b.udp.ReadFrom(buf); err != nil {
				return
			}
			b.hits.Add(1)
		}
	}()
	sock := filepath.Join(root, "host.sock")
	if b.unixLn, err = net.Listen("unix", sock); err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o777)
	go accept(b.unixLn)
	b.abstract = "kidcoder-test-" + randomHex()[:12]
	if b.abstractLn, err = net.Listen("unix", "@"+b.abstract); err != nil {
		t.Fatal(err)
	}
	go accept(b.abstractLn)
	// A host process under the very uid the sandbox runs as on the host:
	// kill(-1) from inside must not reach it.
	b.helper = exec.Command("/usr/bin/sleep", "600")
	if os.Geteuid() == 0 {
		b.helper.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}
	}
	if err := b.helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.tcp.Close()
		b.udp.Close()
		b.unixLn.Close()
		b.abstractLn.Close()
		b.helper.Process.Kill()
		b.helper.Wait()
	})
	return b
}

func (b *bait) env(name string) []string {
	return []string{
		"HOST_HOME=" + b.home,
		"HOST_TMP=" + b.hostTmp,
		"SECRET_PATH=" + b.secretPath,
		"BAIT_TCP=" + strconv.Itoa(b.tcp.Addr().(*net.TCPAddr).Port),
		"BAIT_UDP=" + strconv.Itoa(b.udp.LocalAddr().(*net.UDPAddr).Port),
		"BAIT_UNIX=" + b.unixLn.Addr().String(),
		"BAIT_ABSTRACT=" + b.abstract,
		"MARK=" + b.mark + "-" + name,
		"HOST_PID=" + strconv.Itoa(b.helper.Process.Pid),
	}
}

// hostProcessesWith lists host pids whose command line contains s.
func hostProcessesWith(s string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cl, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cl, []byte(s)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// attack is one testdata/attacks/NAME.py with its header.
type attack struct {
	name, code string
	status     Status
	fallback   Status // the status without a control group; "" means status
	limit      string
	stdout     *regexp.Regexp
	exit       *int
	truncated  bool
	stopped    bool
	frames     bool
	stopOn     string
	policy     Policy
}

func parseAttack(t *testing.T, path string) attack {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := attack{name: strings.TrimSuffix(filepath.Base(path), ".py"), code: string(b), policy: testPolicy()}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "# ") {
			break
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
		if !ok || strings.Contains(k, " ") {
			continue // prose
		}
		dur := func() time.Duration {
			d, err := time.ParseDuration(v)
			if err != nil {
				t.Fatalf("%s: %s: %v", a.name, k, err)
			}
			return d
		}
		num := func() int64 {
			m := int64(1)
			if strings.HasSuffix(v, "M") {
				m, v = 1<<20, strings.TrimSuffix(v, "M")
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("%s: %s: %v", a.name, k, err)
			}
			return n * m
		}
		switch k {
		case "expect-status":
			a.status = Status(v)
		case "expect-fallback-status":
			a.fallback = Status(v)
		case "expect-limit":
			a.limit = v
		case "expect-stdout":
			a.stdout = regexp.MustCompile("^(?:" + v + ")$")
		case "expect-exit":
			n := int(num())
			a.exit = &n
		case "expect-truncated":
			a.truncated = v == "true"
		case "expect-stopped":
			a.stopped = v == "true"
		case "frames":
			a.frames = v == "true"
		case "action":
			a.stopOn = strings.TrimPrefix(v, "stop-on=")
		case "policy-wall":
			a.policy.WallTime = dur()
		case "policy-cpu":
			a.policy.CPUTime = dur()
		case "policy-mem":
			a.policy.MemoryBytes = num()
		case "policy-procs":
			a.policy.MaxProcs = int(num())
		case "policy-files":
			a.policy.MaxOpenFiles = int(num())
		default:
			t.Fatalf("%s: unknown header %q", a.name, k)
		}
	}
	if a.status == "" {
		t.Fatalf("%s: no expect-status header", a.name)
	}
	return a
}

func TestAttacks(t *testing.T) {
	needSandbox(t)
	files, err := filepath.Glob("testdata/attacks/*.py")
	if err != nil || len(files) < 30 {
		t.Fatalf("want at least 30 attack programs, have %d (%v)", len(files), err)
	}
	b := newBait(t)
	modes := []string{ContainmentInfo().Mechanism}
	if modes[0] != MechRlimits {
		modes = append(modes, MechRlimits) // and again as on a machine without control groups
	} else if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
		t.Logf("no control group here (%s): whole-run limits run in their fallback only", ContainmentInfo().Detail)
	}
	for _, mode := range modes {
		if mode == MechRlimits && modes[0] != MechRlimits {
			t.Cleanup(withoutGroups())
		}
		t.Run(mode, func(t *testing.T) {
			for _, f := range files {
				a := parseAttack(t, f)
				if mode == MechRlimits && a.fallback != "" {
					a.status = a.fallback
					a.limit = ""
				}
				t.Run(a.name, func(t *testing.T) {
					t.Parallel()
					runAttack(t, a, b, mode != MechRlimits)
				})
			}
		})
	}
	// After every attack: nothing reached the host's listeners, the host
	// helper under the sandbox's host uid lives, the host dirs are as planted.
	if n := b.hits.Load(); n != 0 {
		t.Errorf("host listeners saw %d connections or datagrams", n)
	}
	if err := b.helper.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("host helper process was killed: %v", err)
	}
	if ents, _ := os.ReadDir(b.hostTmp); len(ents) != 0 {
		t.Errorf("host temp dir gained %d entries", len(ents))
	}
	if ents, _ := os.ReadDir(b.home); len(ents) != 1 {
		t.Errorf("host home has %d entries, want only .ssh", len(ents))
	}
}

func runAttack(t *testing.T, a attack, b *bait, contained bool) {
	rec := &recorder{}
	dir := t.TempDir()
	prog := filepath.Join(dir, a.name+".py")
	if err := os.WriteFile(prog, []byte(a.code), 0o600); err != nil {
		t.Fatal(err)
	}
	sandboxPath := ScratchDir + "/" + a.name + ".py"
	spec := Spec{
		Policy: a.policy,
		Python: testPython,
		Args:   []string{"-I", "-B", sandboxPath},
		Files:  []Mount{{Host: prog, Sandbox: sandboxPath}},
		Env:    b.env(a.name),
		Frames: a.frames,
	}
	p, err := Start(context.Background(), spec, rec)
	if err != nil {
		t.Fatal(err)
	}
	if a.stopOn != "" {
		var once sync.Once
		rec.mu.Lock()
		rec.onOut = func(s Stream, data []byte) {
			if bytes.Contains(data, []byte(a.stopOn)) {
				once.Do(p.Stop)
			}
		}
		rec.mu.Unlock()
	}
	p.CloseInput()
	o := p.Wait()
	out := string(o.Stdout) + string(o.Stderr)
	desc := fmt.Sprintf("status=%s limit=%s exit=%d signal=%s truncated=%v stopped=%v peak=%dMiB run-peak=%dMiB cpu=%v dur=%v\nstdout: %.400q\nstderr: %.600q",
		o.Status, o.Limit, o.ExitCode, o.Signal, o.Truncated, o.Stopped, o.PeakMemory>>20, o.RunMemoryPeak>>20, o.CPUTime, o.Duration, o.Stdout, o.Stderr)
	t.Log(desc)
	if !slices.Contains(strings.Split(string(a.status), "|"), string(o.Status)) {
		t.Errorf("status %s, want %s", o.Status, a.status)
	}
	if a.limit != "" && o.Limit != a.limit {
		t.Errorf("limit %q, want %q", o.Limit, a.limit)
	}
	// The kernel's own count of the run's memory never passed the limit.
	if contained && (o.RunMemoryPeak <= 0 || o.RunMemoryPeak > a.policy.MemoryBytes) {
		t.Errorf("run memory peak %d, want within (0, %d]", o.RunMemoryPeak, a.policy.MemoryBytes)
	}
	if a.stdout != nil && !a.stdout.MatchString(strings.TrimSpace(string(o.Stdout))) {
		t.Errorf("stdout does not match %s", a.stdout)
	}
	if a.exit != nil && o.ExitCode != *a.exit {
		t.Errorf("exit code %d, want %d", o.ExitCode, *a.exit)
	}
	if o.Truncated != a.truncated {
		t.Errorf("truncated %v, want %v", o.Truncated, a.truncated)
	}
	if o.Stopped != a.stopped {
		t.Errorf("stopped %v, want %v", o.Stopped, a.stopped)
	}
	if int64(len(o.Stdout)+len(o.Stderr)) > a.policy.OutputBytes {
		t.Errorf("kept %d output bytes over the %d bound", len(o.Stdout)+len(o.Stderr), a.policy.OutputBytes)
	}
	// What the handler got is exactly what the outcome holds, in order.
	if !bytes.Equal(rec.stream(Stdout), o.Stdout) || !bytes.Equal(rec.stream(Stderr), o.Stderr) {
		t.Error("handler output differs from the outcome's")
	}
	if rec.overlap {
		t.Error("handler called from two goroutines at once")
	}
	// However the frames are cut, the host reads no more than its bound.
	if n := len(rec.frames); n > maxFrames {
		t.Errorf("the handler got %d frames, over the %d bound", n, maxFrames)
	}
	if strings.Contains(out, b.secret) {
		t.Error("the host secret reached the program's output")
	}
	// After Wait no process of the run may remain on the host.
	for _, s := range []string{sandboxPath, b.mark + "-" + a.name} {
		if pids := hostProcessesWith(s); len(pids) > 0 {
			t.Errorf("processes %v with %q still exist after Wait", pids, s)
		}
	}
}
