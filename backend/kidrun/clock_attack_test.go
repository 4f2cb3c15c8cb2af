package kidrun

import (
	"strings"
	"testing"
	"time"

	"kidcoder/sandbox"
)

// A program that finds the runner's private frame pipe and keeps saying
// "waiting for input" (and "done", to re-arm any idle limit) while it
// computes and sleeps gets no extra time: the wall clock goes by what the
// host sees, and the run ends as a timeout within its wall budget.
func TestForgedInputFramesDoNotPauseTheClock(t *testing.T) {
	code := `import fcntl, os, struct, time
frames = []
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    try:
        if fd > 2 and os.readlink("/proc/self/fd/%d" % fd).startswith("pipe:") and \
                fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
            frames.append(fd)
    except OSError:
        pass
print("FRAME FDS", len(frames), flush=True)
def say(b):
    for fd in frames:
        try:
            os.write(fd, struct.pack(">I", len(b)) + b)
        except OSError:
            pass
t0 = time.time()
while time.time() - t0 < 30:
    say(b'{"type":"input","prompt":"? "}')
    end = time.time() + 0.05
    while time.time() < end:
        pass
    time.sleep(0.05)
    say(b'{"type":"input_done"}')
print("OUTLASTED THE CLOCK")
`
	pol := testEngine(t).Policy()
	pol.WallTime = 2 * time.Second
	pol.CPUTime = 60 * time.Second
	pol.IdleTime = 3 * time.Second
	res := startBounded(t, pol, Request{Code: []byte(code), Name: "forge.py", Interactive: true}, nil).Wait()
	if !strings.Contains(res.Stdout, "FRAME FDS 1") {
		t.Fatalf("the attack did not find the frame pipe: %q %q", res.Stdout, res.Stderr)
	}
	if res.Status != string(sandbox.StatusTimeout) || strings.Contains(res.Stdout, "OUTLASTED") {
		t.Fatalf("status %s after %d ms: %q", res.Status, res.DurationMS, res.Stdout)
	}
	// The wall budget plus sampling slack, far from the 30 s the program wanted.
	if res.DurationMS > 10000 {
		t.Errorf("the run lasted %d ms against a 2 s wall clock", res.DurationMS)
	}
}

// Each whole-run bound that ends a run is named, in both languages.
func TestLimitMessages(t *testing.T) {
	p := sandbox.DefaultPolicy()
	for _, tt := range []struct {
		out    sandbox.Outcome
		zh, en string
	}{
		{sandbox.Outcome{Status: sandbox.StatusTimeout, Limit: "cpu"}, "10 秒的电脑时间", "10 s of computer time"},
		{sandbox.Outcome{Status: sandbox.StatusTimeout, Limit: "idle"}, "等你输入", "300 s in all"},
		{sandbox.Outcome{Status: sandbox.StatusTimeout, Limit: "quiet"}, "5 分钟没有按键", "no keys or clicks for 5 minutes"},
		{sandbox.Outcome{Status: sandbox.StatusKilled, Limit: "files"}, "最多 10000 个", "at most 10000"},
		{sandbox.Outcome{Status: sandbox.StatusTimeout}, "运行超过 10 秒", "longer than 10 s"},
		// Sizes as the window writes them, not in KiB/MiB.
		{sandbox.Outcome{Status: sandbox.StatusOutput}, "超过了 1 MB。", "more than 1 MB."},
		{sandbox.Outcome{Status: sandbox.StatusMemory}, "超过了 512 MB。", "more than 512 MB of memory"},
	} {
		zh, en := buildResult(tt.out, report{}, p, "zh"), buildResult(tt.out, report{}, p, "en")
		if !strings.Contains(zh.Message, tt.zh) || !strings.Contains(en.Message, tt.en) || en.Limit != tt.out.Limit {
			t.Errorf("%s/%s: %q / %q (limit %q)", tt.out.Status, tt.out.Limit, zh.Message, en.Message, en.Limit)
		}
	}
}
