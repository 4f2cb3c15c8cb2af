package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
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

// onOutput calls f once, the first time stdout contains marker.
func onOutput(rec *recorder, marker string, f func()) {
	var once sync.Once
	var seen []byte
	rec.mu.Lock()
	rec.onOut = func(s Stream, b []byte) {
		seen = append(seen, b...)
		if bytes.Contains(seen, []byte(marker)) {
			once.Do(f)
		}
	}
	rec.mu.Unlock()
}

func startCode(t *testing.T, code string, spec Spec, h Handler) *Process {
	t.Helper()
	return startCodeCtx(t, context.Background(), code, spec, h)
}

// startCodeCtx is startCode with the run's context.
func startCodeCtx(t *testing.T, ctx context.Context, code string, spec Spec, h Handler) *Process {
	t.Helper()
	prog := filepath.Join(t.TempDir(), "prog.py")
	if err := os.WriteFile(prog, []byte(code), 0o600); err != nil {
		t.Fatal(err)
	}
	if spec.Policy == (Policy{}) {
		spec.Policy = testPolicy()
	}
	spec.Python = testPython
	spec.Args = []string{"-I", "-B", ScratchDir + "/prog.py"}
	spec.Files = append(spec.Files, Mount{Host: prog, Sandbox: ScratchDir + "/prog.py"})
	p, err := Start(ctx, spec, h)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInputAndFrames(t *testing.T) {
	needSandbox(t)
	rec := &recorder{}
	code := `import os, struct, sys
def frame(b):
    os.write(3, struct.pack(">I", len(b)) + b)
frame(b'{"type":"input","prompt":"name? "}')
print("name? ", end="", flush=True)
line = sys.stdin.readline()
frame(b'{"type":"input_done"}')
print("hello " + line.strip())
frame(b"x" * 100000)
os.write(3, struct.pack(">I", 17 << 20))   # oversize: the host stops reading
try:
    frame(b"after")   # fails (EPIPE) once the host has closed the pipe
except OSError:
    pass
print("end")
`
	p := startCode(t, code, Spec{Frames: true}, rec)
	onOutput(rec, "name? ", func() { p.WriteInput([]byte("Ada\n")) })
	o := p.Wait()
	if o.Status != StatusOK || string(o.Stdout) != "name? hello Ada\nend\n" {
		t.Fatalf("outcome %s %q %q", o.Status, o.Stdout, o.Stderr)
	}
	if len(rec.frames) != 3 || string(rec.frames[0]) != `{"type":"input","prompt":"name? "}` ||
		string(rec.frames[1]) != `{"type":"input_done"}` || len(rec.frames[2]) != 100000 {
		t.Fatalf("frames: %d %q", len(rec.frames), rec.frames)
	}
}

func TestStopAsksThenKills(t *testing.T) {
	needSandbox(t)
	// A cooperative program ends itself on the stop line within the grace.
	rec := &recorder{}
	p := startCode(t, `import os
print("READY", flush=True)
line = os.read(4, 100)
print("got", line)
`, Spec{Frames: true}, rec)
	onOutput(rec, "READY", p.Stop)
	o := p.Wait()
	if !o.Stopped || o.Status != StatusOK || !strings.Contains(string(o.Stdout), `got b'stop\n'`) {
		t.Fatalf("cooperative stop: %+v %q", o.Status, o.Stdout)
	}
	// Without frames Stop kills at once.
	rec = &recorder{}
	p = startCode(t, "import time\nprint('READY', flush=True)\ntime.sleep(60)\n", Spec{}, rec)
	onOutput(rec, "READY", p.Stop)
	o = p.Wait()
	if !o.Stopped || o.Status != StatusKilled || o.Duration > 5*time.Second {
		t.Fatalf("stop without frames: %s stopped=%v after %v", o.Status, o.Stopped, o.Duration)
	}
}

func TestWaitingPausesWallClock(t *testing.T) {
	needSandbox(t)
	pol := testPolicy()
	pol.WallTime = 2 * time.Second
	pol.IdleTime = 10 * time.Second
	code := "import sys\nprint('ASK', flush=True)\nprint(sys.stdin.readline().strip())\n"
	rec := &recorder{}
	p := startCode(t, code, Spec{Policy: pol}, rec)
	answered := make(chan struct{})
	onOutput(rec, "ASK", func() {
		// The child "types" after longer than the whole wall budget.
		time.AfterFunc(2500*time.Millisecond, func() {
			p.WriteInput([]byte("typed\n"))
			close(answered)
		})
	})
	o := p.Wait()
	<-answered
	if o.Status != StatusOK || string(o.Stdout) != "ASK\ntyped\n" {
		t.Fatalf("waiting counted against the wall clock: %s %q", o.Status, o.Stdout)
	}
	if o.Duration < 2500*time.Millisecond {
		t.Errorf("duration %v excludes the wait; it is wall time", o.Duration)
	}

	// The idle clock bounds the wait itself.
	pol.IdleTime = 300 * time.Millisecond
	rec = &recorder{}
	p = startCode(t, code, Spec{Policy: pol}, rec)
	if o := p.Wait(); o.Status != StatusTimeout || o.ExitCode != 124 || o.Limit != "idle" {
		t.Fatalf("idle wait: %s %d %q", o.Status, o.ExitCode, o.Limit)
	}
}

func TestClosedInputIsEOF(t *testing.T) {
	needSandbox(t)
	p := startCode(t, "input('? ')\n", Spec{}, nil)
	p.CloseInput()
	o := p.Wait()
	if o.Status != StatusError || o.ExitCode != 1 || !strings.Contains(string(o.Stderr), "EOFError") {
		t.Fatalf("%s %d %q", o.Status, o.ExitCode, o.Stderr)
	}
}

func TestNeverUnsandboxed(t *testing.T) {
	pol := DefaultPolicy()
	if _, err := Start(context.Background(), Spec{Policy: pol}, nil); err == nil {
		t.Error("started without an interpreter")
	}
	pol.MemoryBytes = 0
	if _, err := Start(context.Background(), Spec{Policy: pol, Python: testPython}, nil); err == nil {
		t.Error("started with an unlimited memory policy")
	}
	if _, err := Start(context.Background(), Spec{Policy: DefaultPolicy(), Python: "/nonexistent/python3"}, nil); err == nil {
		t.Error("started with a missing interpreter")
	}
}

func TestContextCancelKills(t *testing.T) {
	needSandbox(t)
	ctx, cancel := context.WithCancel(context.Background())
	prog := filepath.Join(t.TempDir(), "p.py")
	os.WriteFile(prog, []byte("import time\nprint('R', flush=True)\ntime.sleep(60)\n"), 0o644)
	rec := &recorder{}
	p, err := Start(ctx, Spec{Policy: testPolicy(), Python: testPython, Args: []string{ScratchDir + "/p.py"},
		Files: []Mount{{Host: prog, Sandbox: ScratchDir + "/p.py"}}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	onOutput(rec, "R", cancel)
	if o := p.Wait(); o.Status != StatusKilled {
		t.Fatalf("cancelled run: %s", o.Status)
	}
}

func TestStubRlimits(t *testing.T) {
	needSandbox(t)
	// The Python stub used where prlimit is missing sets the same limits.
	argv := stubCommand(testPython, rlimitsOf(testPolicy(), false, false), []string{testPython, "-I", "-c",
		"import resource as r;print(*[r.getrlimit(n) for n in (r.RLIMIT_AS,r.RLIMIT_CPU,r.RLIMIT_NPROC,r.RLIMIT_CORE)])"})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "(536870912, 536870912) (3, 4) (64, 64) (0, 0)\n"
	if string(out) != want {
		t.Errorf("stub limits %q, want %q", out, want)
	}
}

func TestSelfTestPasses(t *testing.T) {
	needSandbox(t)
	dir := t.TempDir()
	rep, err := SelfTestCached(context.Background(), testPython, dir, "test-build")
	if err != nil {
		for _, p := range rep.Probes {
			t.Logf("%+v", p)
		}
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, p := range rep.Probes {
		kinds[p.Kind]++
	}
	if kinds["block"] < 5 || kinds["allow"] < 4 {
		t.Errorf("probes by kind: %v", kinds)
	}
	var kept []cachedVerdict
	if !readSealed(dir, verdictFile, &kept) || len(kept) != 1 || !kept[0].Report.OK() {
		t.Fatalf("verdict not cached: %+v", kept)
	}
	// Another build (the window beside the command line) keeps its own
	// verdict without pushing this one out.
	if _, err := SelfTestCached(context.Background(), testPython, dir, "other-build"); err != nil {
		t.Fatal(err)
	}
	kept = nil
	if !readSealed(dir, verdictFile, &kept) || len(kept) != 2 || kept[0].Key == kept[1].Key {
		t.Fatalf("verdicts kept for two builds: %d", len(kept))
	}
	// A failing verdict is never served from cache: errors wrap ErrUnavailable.
	if _, err := SelfTest(context.Background(), "/nonexistent/python3"); !errors.Is(err, ErrUnavailable) && err == nil {
		t.Error("self-test with a missing interpreter passed")
	}
}

func TestFindPython(t *testing.T) {
	needSandbox(t)
	p, err := FindPython("")
	if err != nil || !strings.HasPrefix(p, "/usr/bin/python3") {
		t.Fatalf("FindPython = %q, %v", p, err)
	}
	if _, err := FindPython("/nonexistent/python3"); !errors.Is(err, ErrNoPython) {
		t.Errorf("missing preferred interpreter: %v", err)
	}
	if _, err := FindPython("/usr/bin/true"); !errors.Is(err, ErrNoPython) {
		t.Errorf("a non-Python program accepted: %v", err)
	}
}

// readFrames, fed directly, passes on frames within its bounds and then
// closes the pipe: an oversize header ends it, so does the maxFrames-th
// empty frame, and so does the byte budget with each frame's overhead
// counted. The writer is never left blocked: its write fails instead.
func TestFrameReaderBounds(t *testing.T) {
	frame := func(n int) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(n))
		return append(b, bytes.Repeat([]byte("x"), n)...)
	}
	huge := binary.BigEndian.AppendUint32(nil, maxFrameBytes+1)
	// Frames that fill the budget exactly once their overhead is counted.
	fill := frame(1<<20 - frameOverhead)
	for _, tt := range []struct {
		name  string
		input []byte
		want  int
	}{
		{"oversize", slices.Concat(frame(2), huge, make([]byte, 1<<20)), 1},
		{"count", bytes.Repeat(frame(0), maxFrames+10), maxFrames},
		{"bytes", slices.Concat(bytes.Repeat(fill, maxFrameTotalBytes>>20), frame(0), frame(2)), maxFrameTotalBytes >> 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			p := &Process{events: make(chan event, 8)}
			go func() { p.readFrames(r); close(p.events) }()
			wrote := make(chan error, 1)
			go func() { _, err := w.Write(tt.input); w.Close(); wrote <- err }()
			got := 0
			for ev := range p.events {
				if got == 0 && tt.name == "oversize" && string(ev.data) != "xx" {
					t.Errorf("first frame %q", ev.data)
				}
				got++
			}
			if err := <-wrote; err != nil && !errors.Is(err, syscall.EPIPE) {
				t.Errorf("write: %v", err)
			}
			if got != tt.want {
				t.Errorf("%d frames passed, want %d", got, tt.want)
			}
		})
	}
}

// BenchmarkRunHello is the cost of one sandboxed print('hi'), the floor
// under every run a child makes. Compare with BenchmarkPlainPython.
func BenchmarkRunHello(b *testing.B) {
	needSandbox(b)
	prog := filepath.Join(b.TempDir(), "hi.py")
	os.WriteFile(prog, []byte("print('hi')\n"), 0o644)
	spec := Spec{Policy: DefaultPolicy(), Python: testPython, Args: []string{"-I", "-B", ScratchDir + "/hi.py"},
		Files: []Mount{{Host: prog, Sandbox: ScratchDir + "/hi.py"}}}
	for b.Loop() {
		p, err := Start(context.Background(), spec, nil)
		if err != nil {
			b.Fatal(err)
		}
		p.CloseInput()
		if o := p.Wait(); o.Status != StatusOK {
			b.Fatalf("%s %q", o.Status, o.Stderr)
		}
	}
}

func BenchmarkPlainPython(b *testing.B) {
	for b.Loop() {
		if out, err := exec.Command(testPython, "-I", "-c", "print('hi')").Output(); err != nil || string(out) != "hi\n" {
			b.Fatal(err)
		}
	}
}

// The idle allowance is one sum over the run: answering each question
// before the allowance runs out does not reset it.
func TestIdleAllowanceIsCumulative(t *testing.T) {
	needSandbox(t)
	pol := testPolicy()
	pol.WallTime = 30 * time.Second
	pol.IdleTime = 1500 * time.Millisecond
	code := "import sys\nfor i in range(6):\n    print('ASK', i, flush=True)\n    sys.stdin.readline()\nprint('ANSWERED ALL')\n"
	rec := &recorder{}
	p := startCode(t, code, Spec{Policy: pol}, rec)
	var asked atomic.Int32
	rec.mu.Lock()
	rec.onOut = func(s Stream, b []byte) {
		for range strings.Count(string(b), "ASK") {
			asked.Add(1)
			// Each wait (0.6 s) is under the allowance; three of them are over it.
			time.AfterFunc(600*time.Millisecond, func() { p.WriteInput([]byte("x\n")) })
		}
	}
	rec.mu.Unlock()
	o := p.Wait()
	if o.Status != StatusTimeout || o.Limit != "idle" || strings.Contains(string(o.Stdout), "ANSWERED ALL") {
		t.Fatalf("%s limit=%q after %d questions: %q", o.Status, o.Limit, asked.Load(), o.Stdout)
	}
}

// Sleeping with stdin open is not waiting for input: the wall clock runs.
// Nor is blocking on stdin while another process computes.
func TestOnlyRealWaitingPausesTheClock(t *testing.T) {
	needSandbox(t)
	pol := testPolicy()
	pol.WallTime = 1500 * time.Millisecond
	pol.CPUTime = 30 * time.Second
	pol.IdleTime = time.Minute
	for name, code := range map[string]string{
		"sleep":           "import time\ntime.sleep(20)\n",
		"helper computes": "import os, sys\nif os.fork() == 0:\n    while True: pass\nsys.stdin.readline()\n",
		"thread computes": "import sys, threading\ndef spin():\n    while True: pass\nthreading.Thread(target=spin, daemon=True).start()\nsys.stdin.readline()\n",
	} {
		p := startCode(t, code, Spec{Policy: pol}, nil)
		o := p.Wait()
		if o.Status != StatusTimeout || o.Limit != "" || o.Duration > 10*time.Second {
			t.Errorf("%s: %s limit=%q after %v, want the wall clock's timeout", name, o.Status, o.Limit, o.Duration)
		}
	}
}

// A descriptor the app inherited without close-on-exec (from whatever
// started it) never reaches the sandbox: only stdin, stdout, stderr and,
// with frames, fds 3 and 4.
func TestInheritedDescriptorsStayOutside(t *testing.T) {
	needSandbox(t)
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil { // no O_CLOEXEC, like an inherited fd
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	code := "import os\nprint(sorted(int(n) for n in os.listdir('/proc/self/fd')))\n"
	p := startCode(t, code, Spec{Frames: true}, nil)
	p.CloseInput()
	o := p.Wait()
	// The listing itself holds one more descriptor while it runs.
	if o.Status != StatusOK || !regexp.MustCompile(`^\[0, 1, 2, 3, 4, \d+\]$`).MatchString(strings.TrimSpace(string(o.Stdout))) {
		t.Fatalf("descriptors in the sandbox: %s %q %q", o.Status, o.Stdout, o.Stderr)
	}
}

// When the run cannot be placed in its control group, nothing of the
// program runs: the held sandbox is killed and the run is reported
// unavailable, never run outside its group.
func TestRunOutsideItsGroupNeverStarts(t *testing.T) {
	needSandbox(t)
	if ContainmentInfo().Mechanism == MechRlimits {
		t.Skip("no control group on this machine")
	}
	testBeforeAttach = func(g *runGroup) {
		g.remove() // the group vanishes: attaching fails
		// By now bwrap has usually made the held init, which must not be
		// left waiting or let go. (The verdict does not depend on it.)
		time.Sleep(100 * time.Millisecond)
	}
	defer func() { testBeforeAttach = nil }()
	p := startCode(t, "print('RAN')\n", Spec{}, nil)
	p.CloseInput()
	o := p.Wait()
	if o.Status != StatusUnavailable || len(o.Stdout) != 0 {
		t.Fatalf("%s, stdout %q: want sandbox_unavailable and nothing run", o.Status, o.Stdout)
	}
	if pids := hostProcessesWith(ScratchDir + "/prog.py"); len(pids) > 0 {
		for _, p := range pids {
			st, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
			t.Logf("%d: %s", p, st)
		}
		t.Errorf("processes %v of the run remain", pids)
	}
}

// Files given as bytes are in the scratch exactly, read-only, like files
// given by host path; what is over the staging bound is refused unrun.
func TestDataFiles(t *testing.T) {
	needSandbox(t)
	data := []byte("línea 1\n\x00\xff binary\n")
	code := `import os
print(open("data.bin", "rb").read() == ` + pyBytes(data) + `)
for name in ("data.bin", "prog.py"):
    try:
        open(name, "ab").write(b"x")
        print(name, "WRITABLE")
    except OSError:
        print(name, "read-only")
`
	spec := Spec{Policy: testPolicy(), Python: testPython, Args: []string{"-I", "-B", ScratchDir + "/prog.py"},
		Data: []DataFile{{Sandbox: ScratchDir + "/prog.py", Data: []byte(code)}, {Sandbox: ScratchDir + "/data.bin", Data: data}}}
	p, err := Start(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.CloseInput()
	o := p.Wait()
	want := "True\ndata.bin read-only\nprog.py read-only\n"
	if o.Status != StatusOK || string(o.Stdout) != want {
		t.Errorf("status %s, stdout %q, want %q; stderr %q", o.Status, o.Stdout, want, o.Stderr)
	}

	spec.Data = []DataFile{{Sandbox: ScratchDir + "/big.bin", Data: make([]byte, maxStageBytes+1)}}
	if _, err := Start(context.Background(), spec, nil); !errors.Is(err, errStageTooBig) {
		t.Errorf("a file over the staging bound: %v, want %v", err, errStageTooBig)
	}
}

// pyBytes is a Python bytes literal of b.
func pyBytes(b []byte) string {
	var s strings.Builder
	s.WriteString(`b"`)
	for _, c := range b {
		s.WriteString(`\x` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
	}
	s.WriteString(`"`)
	return s.String()
}
