package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPHello is a run_python hello round trip within one session of
// the real `kidcoder mcp` (KIDCODER_BIN, default build/bin/kidcoder) over
// stdio, as a host sees it: from the request written to the result read.
// scripts/bench.sh sets its median beside `kidcoder run hello.py`.
//
// "apart" leaves the server 300 ms (not timed) between calls, as a tutor's
// calls come seconds apart, so each run finds the sandbox the last one had
// started ahead; "back-to-back" calls again at once, so a run may start
// before that sandbox is ready.
func BenchmarkMCPHello(b *testing.B) {
	bin := os.Getenv("KIDCODER_BIN")
	if bin == "" {
		bin = filepath.Join("..", "..", "build", "bin", "kidcoder")
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		b.Skipf("no kidcoder binary (make build): %v", err)
	}
	for _, bc := range []struct {
		name  string
		pause time.Duration
	}{{"apart", 300 * time.Millisecond}, {"back-to-back", 0}} {
		b.Run(bc.name, func(b *testing.B) { benchHello(b, bin, bc.pause) })
	}
}

func benchHello(b *testing.B, bin string, pause time.Duration) {
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--lessons", b.TempDir())
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	hello := &mcp.CallToolParams{Name: "run_python", Arguments: map[string]any{"code": "print(\"hello\")\n"}}
	roundTrip := func() time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, hello)
		d := time.Since(start)
		if err != nil || res.IsError || textOf(res) != "hello\n" {
			b.Fatalf("hello: %v %+v", err, res)
		}
		return d
	}
	// Warm-up, as bench.sh warms hyperfine up.
	for range 3 {
		roundTrip()
		time.Sleep(pause)
	}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		times = append(times, roundTrip())
		b.StopTimer()
		time.Sleep(pause)
		b.StartTimer()
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}
