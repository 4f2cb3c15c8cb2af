package kidrun

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kidcoder/backend/kidrun/kidruntest"
	"kidcoder/sandbox"
)

// corpus is the folder of sample kids' programs.
func corpus(t testing.TB) string {
	const dir = "../../python/tests/corpus"
	if _, err := os.Stat(filepath.Join(dir, "hello_zh.py")); err != nil {
		t.Fatalf("corpus of sample programs: %v", err)
	}
	return dir
}

// TestMain removes the shared test engine's cache folder afterwards.
func TestMain(m *testing.M) {
	code := m.Run()
	if eng != nil {
		os.RemoveAll(eng.cacheDir)
	}
	os.Exit(code)
}

// engine is one Engine for all tests here, or a skip when no sandbox can run on this machine.
var (
	engOnce sync.Once
	eng     *Engine
	engErr  error
)

func testEngine(t testing.TB) *Engine {
	t.Helper()
	engOnce.Do(func() {
		cache, err := os.MkdirTemp("", "kidrun-test-cache-")
		if err != nil {
			engErr = err
			return
		}
		// The tests of a time bound set theirs on programs that only wait
		// or loop; every other run here does real work.
		eng, engErr = New(Options{CacheDir: cache, Policy: kidruntest.RoomyPolicy()})
		if engErr == nil {
			_, engErr = eng.Check(context.Background())
		}
	})
	if engErr != nil {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("sandbox required but unavailable: %v", engErr)
		}
		t.Skipf("sandbox unavailable here: %v", engErr)
	}
	return eng
}

// events records what an Observer hears.
type events struct {
	mu      sync.Mutex
	out     strings.Builder
	order   []string
	prompts []string
	waiting chan string
}

func newEvents() *events { return &events{waiting: make(chan string, 16)} }

func (e *events) Output(stream, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.out.WriteString(text)
	e.order = append(e.order, stream+":"+text)
}
func (e *events) Waiting(p string) {
	e.mu.Lock()
	e.prompts = append(e.prompts, p)
	e.mu.Unlock()
	e.waiting <- p
}
func (e *events) InputDone() {}

func runFile(t *testing.T, name string, req Request) *Result {
	t.Helper()
	return runFileOn(t, testEngine(t), name, req)
}

// runFileOn runs the corpus program name on engine e.
func runFileOn(t *testing.T, e *Engine, name string, req Request) *Result {
	t.Helper()
	code, err := os.ReadFile(filepath.Join(corpus(t), name))
	if err != nil {
		t.Fatal(err)
	}
	req.Code, req.Name = code, name
	r, err := e.Start(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Wait()
}

// expectLines checks that each line of NAME.expect appears in out, in order.
func expectLines(t *testing.T, name, out string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(corpus(t), strings.TrimSuffix(name, ".py")+".expect"))
	if err != nil {
		return
	}
	rest := out
	for _, line := range strings.Split(strings.TrimRight(string(want), "\n"), "\n") {
		i := strings.Index(rest, line)
		if i < 0 {
			t.Errorf("%s: output lacks %q (in order); got:\n%s", name, line, out)
			return
		}
		rest = rest[i+len(line):]
	}
}

func TestCorpus(t *testing.T) { checkCorpus(t, testEngine(t), nil) }

// checkCorpus runs the corpus on e; before each run, before(t) is called.
func checkCorpus(t *testing.T, e *Engine, before func(t *testing.T)) {
	tests := []struct {
		file      string
		status    string
		errType   string
		errLine   int
		images    int
		stdinFile string
	}{
		{file: "hello_zh.py", status: "ok"},
		{file: "flower.py", status: "ok", images: 1},
		{file: "tree.py", status: "ok", images: 1},
		{file: "guess.py", status: "ok", stdinFile: "guess.stdin"},
		{file: "plot.py", status: "ok", images: 2},
		{file: "typo.py", status: "error", errType: "NameError", errLine: 2},
		{file: "missing_colon.py", status: "error", errType: "SyntaxError", errLine: 1},
		{file: "str_plus_int.py", status: "error", errType: "TypeError", errLine: 2, stdinFile: "str_plus_int.stdin"},
		{file: "forever.py", status: "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			req := Request{Lang: "en"}
			if tt.stdinFile != "" {
				b, err := os.ReadFile(filepath.Join(corpus(t), tt.stdinFile))
				if err != nil {
					t.Fatal(err)
				}
				req.Stdin = b
			}
			if tt.status == "timeout" {
				p := e.Policy()
				p.WallTime = 1500 * time.Millisecond
				req.Policy = &p
			}
			if before != nil {
				before(t)
			}
			res := runFileOn(t, e, tt.file, req)
			if res.Status != tt.status {
				t.Fatalf("status %q, want %q (stderr %q, error %+v)", res.Status, tt.status, res.Stderr, res.Error)
			}
			expectLines(t, tt.file, res.Stdout)
			if tt.errType != "" {
				if res.Error == nil || res.Error.Type != tt.errType {
					t.Fatalf("error %+v, want type %s", res.Error, tt.errType)
				}
				if res.Error.Line == nil || *res.Error.Line != tt.errLine {
					t.Errorf("error line %v, want %d", res.Error.Line, tt.errLine)
				}
				if res.Error.Hint == "" {
					t.Error("no friendly hint")
				}
			}
			if tt.status == "timeout" {
				if res.ExitCode != 124 || !strings.Contains(res.Message, "1.5") {
					t.Errorf("timeout: exit %d message %q", res.ExitCode, res.Message)
				}
			}
			if len(res.Images) < tt.images {
				t.Errorf("%d images, want at least %d", len(res.Images), tt.images)
			}
			for _, im := range res.Images {
				if _, err := base64.StdEncoding.DecodeString(im.Data); err != nil {
					t.Errorf("image not base64: %v", err)
				}
			}
		})
	}
}

func TestInteractiveInput(t *testing.T) {
	e := testEngine(t)
	ev := newEvents()
	code := "name = input('你叫什么名字？')\nprint('你好，' + name + ' 🐢')\n"
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "ask.py", Lang: "zh", Interactive: true}, ev)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-ev.waiting:
		if p != "你叫什么名字？" {
			t.Errorf("prompt %q", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("program never said it was waiting for input")
	}
	ev.mu.Lock()
	sofar := ev.out.String()
	ev.mu.Unlock()
	if !strings.Contains(sofar, "你叫什么名字？") {
		t.Errorf("prompt not shown before blocking; output so far %q", sofar)
	}
	if err := r.Input("小明"); err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	if res.Status != "ok" || !strings.Contains(res.Stdout, "你好，小明 🐢") {
		t.Fatalf("got %s %q", res.Status, res.Stdout)
	}
}

func TestWaitingForInputPausesTheClock(t *testing.T) {
	p := testEngine(t).Policy()
	p.WallTime = 1 * time.Second
	ev := newEvents()
	r := startBounded(t, p, Request{Code: []byte("x = input('? ')\nprint('got', x)\n"), Name: "slow.py", Interactive: true}, ev)
	<-ev.waiting
	// The child takes longer to type than the wall limit; that must not count.
	time.Sleep(1500 * time.Millisecond)
	r.Input("42")
	res := r.Wait()
	if res.Status != "ok" || !strings.Contains(res.Stdout, "got 42") {
		t.Fatalf("a slow typist was punished: %s %q", res.Status, res.Stdout)
	}
}

func TestStopKeepsOutput(t *testing.T) {
	e := testEngine(t)
	ev := newEvents()
	code := "import time\nprint('before', flush=True)\nwhile True:\n    time.sleep(0.05)\n"
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "loop.py", Interactive: true}, ev)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ev.mu.Lock()
		got := ev.out.String()
		ev.mu.Unlock()
		if strings.Contains(got, "before") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no output before stop")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	r.Stop()
	res := r.Wait()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("stop took %v", took)
	}
	if !res.Stopped || res.Status == "ok" || !strings.Contains(res.Stdout, "before") {
		t.Fatalf("after stop: %+v", res)
	}
	if res.Error != nil {
		t.Errorf("a stop is not the child's error: %+v", res.Error)
	}
}

// A program that forges the runner's frames and prints fake results must
// not change the host's verdict.
func TestForgedFramesDoNotChangeVerdict(t *testing.T) {
	e := testEngine(t)
	code := `import os, json, struct, sys
fake = json.dumps({"type": "result", "error": None, "images": [], "drawing": None}).encode()
print(json.dumps({"status": "ok", "exit_code": 0}))
for fd in range(3, 64):
    try:
        os.write(fd, struct.pack(">I", len(fake)) + fake)
        os.write(fd, b"\xff\xff\xff\xffgarbage")
    except OSError:
        pass
sys.exit(7)
`
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "forge.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	if res.Status != "error" || res.ExitCode != 7 {
		t.Fatalf("forged frames changed the verdict: status %s exit %d", res.Status, res.ExitCode)
	}
}

func TestInvalidUTF8AndSplitCharacters(t *testing.T) {
	e := testEngine(t)
	// 你 is split across two writes; \xff is not UTF-8 at all.
	code := "import os, time\nos.write(1, '你'.encode()[:2])\ntime.sleep(0.2)\nos.write(1, '你'.encode()[2:] + b'\\xff!\\n')\n"
	ev := newEvents()
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "bytes.py"}, ev)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	if res.Stdout != "你\uFFFD!\n" {
		t.Errorf("result stdout %q", res.Stdout)
	}
	if got := ev.out.String(); got != "你\uFFFD!\n" {
		t.Errorf("streamed %q", got)
	}
}

func TestBadNamesRefused(t *testing.T) {
	e := &Engine{}
	for _, name := range []string{"../x.py", "a/b.py", "x.txt", ".hidden.py"} {
		if _, err := e.Start(context.Background(), Request{Code: []byte("1"), Name: name}, nil); !errors.Is(err, ErrBadName) {
			t.Errorf("%q: err %v, want ErrBadName", name, err)
		}
	}
}

func TestCompleteUTF8(t *testing.T) {
	ni := []byte("你") // e4 bd a0
	tests := []struct {
		in   []byte
		want int
	}{
		{[]byte("abc"), 3},
		{ni, 3},
		{ni[:1], 0},
		{ni[:2], 0},
		{append([]byte("a"), ni[:2]...), 1},
		{[]byte{0xff}, 1},
		{[]byte("🐢")[:3], 0},
		{[]byte("🐢"), 4},
	}
	for _, tt := range tests {
		if got := completeUTF8(tt.in); got != tt.want {
			t.Errorf("completeUTF8(%x) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// A child's program, run through the runner, lives under the sandbox's
// limits: it sees them, cannot raise them, and a fork bomb stays bounded.
func TestLimitsHoldThroughTheRunner(t *testing.T) {
	e := testEngine(t)
	code := `import os, resource, sys
print(resource.getrlimit(resource.RLIMIT_NPROC), resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_FSIZE))
for lim in (resource.RLIMIT_NPROC, resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_NOFILE):
    try:
        resource.setrlimit(lim, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        print("RAISED", lim)
    except (ValueError, OSError):
        pass
kids = 0
try:
    for _ in range(500):
        if os.fork() == 0:
            import time
            time.sleep(30)
            os._exit(0)
        kids += 1
except OSError:
    pass
print("forked", kids)
sys.exit(0 if kids < 64 else 9)
`
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "limits.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	p := e.Policy()
	as, procs := sandbox.ProcessLimits(p)
	want := fmt.Sprintf("(%d, %d) (%d, %d) (%d, %d)", procs, procs, as, as, p.FileSizeBytes, p.FileSizeBytes)
	if !strings.Contains(res.Stdout, want) {
		t.Errorf("limits seen by the program: %q, want %s", res.Stdout, want)
	}
	if strings.Contains(res.Stdout, "RAISED") {
		t.Errorf("the program raised a limit: %q", res.Stdout)
	}
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "forked") {
		t.Errorf("fork bomb not bounded by the process limit: exit %d, %q", res.ExitCode, res.Stdout)
	}
}
