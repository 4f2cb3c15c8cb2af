package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// probe is one self-test: a plain Python program run through the real
// sandbox, judged by the host from the outcome and from host-side state.
type probe struct {
	name string
	kind string // "block" or "allow"
	code string
	env  func(h *probeHost) []string
	// policy adjusts the probe's limits, when it needs others.
	policy func(p *Policy)
	check  func(h *probeHost, o Outcome) (bool, string)
}

// probeHost is the host-side bait and evidence shared by the probes.
type probeHost struct {
	dir       string
	secret    string // content of the planted key; must never come out
	secretAt  string
	dataToken string
	listener  net.Listener
	outside   string // a host path the write probe aims at
	marker    string // a word in the host's own command line
}

// probeProcs is the process limit the process-limit probe runs under.
const probeProcs = 8

// probeWall is each probe's wall clock. No probe's verdict rests on the
// clock, and runs wait for a core behind every busy program on the machine
// (their CPU weight is a fifth of a default group's): on a loaded machine
// a probe takes longer rather than failing the check, which would keep the
// app from running any code.
const probeWall = time.Minute

var probes = []probe{
	{
		name: "write_outside_scratch", kind: "block",
		code: `import os
hits = []
for p in ["/x", "/kid/x", "/usr/x", "/etc/x", "/dev/x", "/proc/x", "/tmp/../x", "../x", "../../x"]:
    try:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write("escaped")
        hits.append(p)
    except OSError:
        pass
# The host's own temp dir path: at best it lands in the sandbox's private
# /tmp, and the host checks its side stays empty.
try:
    p = os.environ["OUTSIDE"]
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write("escaped")
except OSError:
    pass
print("WROTE %s" % hits if hits else "BLOCKED")
`,
		env: func(h *probeHost) []string { return []string{"OUTSIDE=" + h.outside} },
		check: func(h *probeHost, o Outcome) (bool, string) {
			if _, err := os.Stat(h.outside); err == nil {
				return false, "the program created " + h.outside + " on the host"
			}
			return expectLine(o, "BLOCKED")
		},
	},
	{
		name: "read_planted_secret", kind: "block",
		code: `import os
p = os.environ["SECRET_AT"]
try:
    print("READ", open(p).read())
except OSError as e:
    print("BLOCKED", type(e).__name__)
`,
		env: func(h *probeHost) []string { return []string{"SECRET_AT=" + h.secretAt} },
		check: func(h *probeHost, o Outcome) (bool, string) {
			if bytes.Contains(o.Stdout, []byte(h.secret)) || bytes.Contains(o.Stderr, []byte(h.secret)) {
				return false, "the planted key was read"
			}
			return expectLine(o, "BLOCKED FileNotFoundError")
		},
	},
	{
		name: "connect_host_loopback", kind: "block",
		code: `import os, socket
try:
    s = socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), timeout=2)
    print("CONNECTED")
except OSError as e:
    print("BLOCKED", type(e).__name__)
`,
		env: func(h *probeHost) []string {
			return []string{"PORT=" + strconv.Itoa(h.listener.Addr().(*net.TCPAddr).Port)}
		},
		check: func(h *probeHost, o Outcome) (bool, string) {
			h.listener.(*net.TCPListener).SetDeadline(time.Now())
			if c, err := h.listener.Accept(); err == nil {
				c.Close()
				return false, "the host listener accepted a connection"
			}
			if !strings.HasPrefix(string(o.Stdout), "BLOCKED") {
				return false, unexpected(o)
			}
			return o.Status == StatusOK, "status " + string(o.Status)
		},
	},
	{
		name: "see_host_processes", kind: "block",
		code: `import os
mark = os.environ["MARK"].encode()
pids = [p for p in os.listdir("/proc") if p.isdigit()]
seen = 0
for p in pids:
    try:
        if mark in open("/proc/%s/cmdline" % p, "rb").read():
            seen += 1
    except OSError:
        pass
print("PIDS", len(pids), "SEEN", seen)
`,
		env: func(h *probeHost) []string { return []string{"MARK=" + h.marker} },
		check: func(h *probeHost, o Outcome) (bool, string) {
			var n, seen int
			if _, err := fmt.Sscanf(string(o.Stdout), "PIDS %d SEEN %d", &n, &seen); err != nil {
				return false, unexpected(o)
			}
			if seen > 0 || n > 4 {
				return false, fmt.Sprintf("%d processes visible, %d of them the host's", n, seen)
			}
			return o.Status == StatusOK, fmt.Sprintf("%d processes visible, status %s", n, o.Status)
		},
	},
	{
		name: "exceed_process_limit", kind: "block",
		code: `import os
r, w = os.pipe()
n = 0
try:
    for _ in range(200):
        if os.fork() == 0:
            os.close(w)
            os.read(r, 1)
            os._exit(0)
        n += 1
    print("FORKED", n)
except OSError as e:
    print("BLOCKED", n, type(e).__name__)
`,
		check: func(h *probeHost, o Outcome) (bool, string) {
			var n int
			var kind string
			if _, err := fmt.Sscanf(string(o.Stdout), "BLOCKED %d %s", &n, &kind); err != nil {
				return false, unexpected(o)
			}
			if n >= probeProcs {
				return false, fmt.Sprintf("forked %d processes under a limit of %d", n, probeProcs)
			}
			return true, fmt.Sprintf("stopped after %d forks (%s)", n, kind)
		},
	},
	{
		name: "hidden_memory", kind: "block",
		// memfd and inotify are Linux calls; elsewhere they are simply absent.
		code: `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
made = []
def tried(name, make):
    try:
        if make() >= 0:
            made.append(name)
    except (OSError, AttributeError):
        pass
tried("memfd", lambda: os.memfd_create("x"))
tried("shm", lambda: libc.shmget(0, 1 << 20, 0o1600))
tried("inotify", lambda: libc.inotify_init1(0))
print("MADE " + " ".join(made) if made else "BLOCKED")
`,
		check: func(h *probeHost, o Outcome) (bool, string) { return expectLine(o, "BLOCKED") },
	},
	{
		// Four processes, each far under the per-process limit, together
		// over the run's: where a control group holds the run, the kernel
		// ends it. Without one this is the documented fallback, and says so.
		// No process lets its memory go before all four hold theirs: a
		// sleep instead let a busy machine run them one after another,
		// never over the bound together, and the probe failed a good box.
		name: "whole_run_memory", kind: "block",
		code: `import os
ready_r, ready_w = os.pipe()
go_r, go_w = os.pipe()
child = False
for i in range(3):
    if os.fork() == 0:
        child = True
        break
b = bytearray(48 << 20)
for j in range(0, len(b), 4096):
    b[j] = 1
if child:
    os.close(ready_r)
    os.close(go_w)
    os.write(ready_w, b"x")
    os.close(ready_w)
    os.read(go_r, 1)  # EOF once the first process lets go, or dies
else:
    os.close(ready_w)
    got = b""
    while len(got) < 3:
        more = os.read(ready_r, 3)
        if not more:
            break  # a process died before it held its memory
        got += more
    if len(got) == 3:
        print("HELD")
    os.close(go_w)
`,
		policy: func(p *Policy) { p.MemoryBytes = 128 << 20 },
		check: func(h *probeHost, o Outcome) (bool, string) {
			c := ContainmentInfo()
			if c.Mechanism == MechRlimits {
				return true, "no control group (" + c.Detail + "): memory is bounded per process"
			}
			if o.Status != StatusMemory {
				return false, c.Mechanism + ": " + unexpected(o)
			}
			return true, fmt.Sprintf("%s ended the run at %d MiB", c.Mechanism, o.RunMemoryPeak>>20)
		},
	},
	{
		name: "print", kind: "allow",
		code: "print('你好, sandbox')\n",
		check: func(h *probeHost, o Outcome) (bool, string) {
			return expectLine(o, "你好, sandbox")
		},
	},
	{
		name: "write_scratch", kind: "allow",
		code: `with open("note.txt", "w") as f:
    f.write("kept")
print(open("note.txt").read())
`,
		check: func(h *probeHost, o Outcome) (bool, string) { return expectLine(o, "kept") },
	},
	{
		name: "import_stdlib", kind: "allow",
		code: `import json, math, random
random.seed(1)
print(json.dumps({"floor": math.floor(2.5), "r": random.randint(1, 1)}))
`,
		check: func(h *probeHost, o Outcome) (bool, string) { return expectLine(o, `{"floor": 2, "r": 1}`) },
	},
	{
		name: "read_data_file", kind: "allow",
		code: `print(open("data.txt").read())
`,
		check: func(h *probeHost, o Outcome) (bool, string) { return expectLine(o, h.dataToken) },
	},
	{
		// The second wall stands from the program's first line: / is not
		// listed (nothing outside the runtime is), and the sandbox's init,
		// outside the run's Landlock domain, is not signalled.
		name: "second_wall", kind: "block",
		code: `import os
def refused(f):
    try:
        f()
        return "allowed"
    except PermissionError:
        return "refused"
print("root", refused(lambda: os.listdir("/")), "init", refused(lambda: os.kill(1, 0)))
`,
		check: func(h *probeHost, o Outcome) (bool, string) {
			if !landlockPlatform {
				return o.Status == StatusOK, "Landlock is Linux's: the platform's own sandbox is the wall here"
			}
			abi := landlockABI()
			want := "root allowed init allowed"
			switch {
			case abi >= LandlockFullABI:
				want = "root refused init refused"
			case abi >= 1:
				want = "root refused init allowed"
			}
			ok, detail := expectLine(o, want)
			if abi == 0 {
				return ok, "no Landlock here, the mounts are the one wall: " + detail
			}
			return ok, landlockName(abi) + ": " + detail
		},
	},
}

func expectLine(o Outcome, want string) (bool, string) {
	got := strings.TrimRight(string(o.Stdout), "\n")
	if o.Status != StatusOK {
		return false, fmt.Sprintf("status %s, stderr: %s", o.Status, clip(o.Stderr))
	}
	if got != want {
		return false, fmt.Sprintf("printed %q, want %q", clip([]byte(got)), want)
	}
	return true, "printed " + strconv.Quote(want)
}

func unexpected(o Outcome) string {
	return fmt.Sprintf("status %s (exit %d), output %q, stderr %q", o.Status, o.ExitCode, clip(o.Stdout), clip(o.Stderr))
}

func clip(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func randomHex() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func newProbeHost() (*probeHost, error) {
	dir, err := os.MkdirTemp("", "kidcoder-selftest-")
	if err != nil {
		return nil, err
	}
	h := &probeHost{dir: dir, secret: "SECRET-" + randomHex(), dataToken: "DATA-" + randomHex()}
	h.secretAt = filepath.Join(dir, "home", ".ssh", "id_rsa")
	h.outside = filepath.Join(dir, "outside", "escaped.txt")
	h.marker = filepath.Base(os.Args[0])
	if err := os.MkdirAll(filepath.Dir(h.secretAt), 0o755); err != nil {
		return nil, err
	}
	// World-readable on purpose: the sandbox, not file modes, must hide it.
	if err := os.WriteFile(h.secretAt, []byte(h.secret), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte(h.dataToken), 0o644); err != nil {
		return nil, err
	}
	if h.listener, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *probeHost) close() {
	if h.listener != nil {
		h.listener.Close()
	}
	os.RemoveAll(h.dir)
}

// SelfTest runs must-block and must-allow probes through the real sandbox.
// Any probe that misbehaves makes it return an error wrapping
// ErrUnavailable that names the probe; the report lists every probe.
func SelfTest(ctx context.Context, python string) (Report, error) {
	info, err := Detect()
	rep := Report{Info: info}
	if err != nil {
		return rep, err
	}
	h, err := newProbeHost()
	if err != nil {
		return rep, fmt.Errorf("sandbox self-test: %w", err)
	}
	defer h.close()
	rep.Probes = make([]Probe, len(probes))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, pr := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rep.Probes[i] = runProbe(ctx, h, python, pr)
		}()
	}
	wg.Wait()
	for _, p := range rep.Probes {
		if !p.OK {
			return rep, &UnavailableError{
				Reason: fmt.Sprintf("self-test probe %s (%s) failed: %s", p.Name, p.Kind, p.Detail),
				Fix:    "report this: the sandbox on this machine does not hold, so no code will run",
			}
		}
	}
	return rep, nil
}

func runProbe(ctx context.Context, h *probeHost, python string, pr probe) Probe {
	res := Probe{Name: pr.name, Kind: pr.kind}
	prog := filepath.Join(h.dir, pr.name+".py")
	if err := os.WriteFile(prog, []byte(pr.code), 0o644); err != nil {
		res.Detail = err.Error()
		return res
	}
	pol := DefaultPolicy()
	pol.MaxProcs = probeProcs
	pol.WallTime = probeWall
	if pr.policy != nil {
		pr.policy(&pol)
	}
	spec := Spec{
		Policy: pol,
		Python: python,
		Args:   []string{"-I", "-B", ScratchDir + "/probe.py"},
		Files: []Mount{
			{Host: prog, Sandbox: ScratchDir + "/probe.py"},
			{Host: filepath.Join(h.dir, "data.txt"), Sandbox: ScratchDir + "/data.txt"},
		},
	}
	if pr.env != nil {
		spec.Env = pr.env(h)
	}
	p, err := Start(ctx, spec, nil)
	if err != nil {
		res.Detail = err.Error()
		return res
	}
	p.CloseInput()
	o := p.Wait()
	res.OK, res.Detail = pr.check(h, o)
	res.Detail += fmt.Sprintf(" [%d ms]", o.Duration.Milliseconds())
	return res
}

// selfTestCache holds in-process verdicts per key, so concurrent callers
// share one probe run.
var selfTestCache sync.Map // key -> *selfTestEntry

type selfTestEntry struct {
	once sync.Once
	rep  Report
	err  error
}

type cachedVerdict struct {
	Key    string `json:"key"`
	Report Report `json:"report"`
}

// maxVerdicts bounds the verdict file: the command line, the window and a
// test binary or two may each have their own build key on one machine.
const maxVerdicts = 8

// selfTestKey is what a verdict depends on: this build, the sandbox tool
// and its version, the kernel, the interpreter, the files of both as they
// are now, how whole runs are bounded, and whether the app lives where its
// runs can enter their groups.
func selfTestKey(buildID string, info Info, kernel, python string) string {
	h := sha256.New()
	for _, s := range []string{buildID, info.Kind, info.Path, info.Version, kernel, python, fileStamp(info.Path, python), info.Containment.Mechanism, groupPlaceKey()} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// SelfTestCached is SelfTest with the verdict kept in cacheDir and in
// memory, keyed by buildID, the sandbox tool's version, the kernel release
// and the interpreter path. Only a passing verdict is stored: a failure is
// probed again next time, so fixing the machine needs no cache clearing.
func SelfTestCached(ctx context.Context, python, cacheDir, buildID string) (Report, error) {
	info, err := detectForSelfTest()
	if err != nil {
		return Report{Info: info}, err
	}
	key := selfTestKey(buildID, info, kernelRelease(), python)
	e, _ := selfTestCache.LoadOrStore(key, &selfTestEntry{})
	ent := e.(*selfTestEntry)
	ent.once.Do(func() { ent.rep, ent.err = selfTestDisk(ctx, python, cacheDir, key, info) })
	if ent.err != nil {
		// Let the next caller probe again rather than inherit a failure.
		selfTestCache.CompareAndDelete(key, ent)
	}
	// A verdict kept on disk names the groups of the process that probed;
	// how this process's runs are bounded is its own finding.
	rep := ent.rep
	rep.Info.Containment = info.Containment
	rep.Info.Landlock = info.Landlock
	return rep, ent.err
}

// selfTestDisk serves a passing verdict this install sealed in cacheDir
// (facts.go says when one is believed), or probes and seals the result;
// info is the sandbox tool as this process found it.
func selfTestDisk(ctx context.Context, python, cacheDir, key string, info Info) (Report, error) {
	var kept []cachedVerdict
	readSealed(cacheDir, verdictFile, &kept)
	for _, v := range kept {
		if v.Key == key && v.Report.OK() {
			if !factsHeld.Load() {
				saveFacts(cacheDir, info)
			}
			return v.Report, nil
		}
	}
	rep, err := SelfTest(ctx, python)
	if err != nil {
		return rep, err
	}
	saveFacts(cacheDir, rep.Info)
	// Newest first; other builds' verdicts stay so they need not probe again.
	kept = append([]cachedVerdict{{Key: key, Report: rep}}, kept...)
	if len(kept) > maxVerdicts {
		kept = kept[:maxVerdicts]
	}
	writeSealed(cacheDir, verdictFile, kept)
	return rep, nil
}
