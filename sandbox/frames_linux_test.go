package sandbox

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// laggingHandler takes its time over every call while the run goes on, as
// a window that cannot keep up does, so a flooding program soon fills its
// pipes; once the run is ending it keeps up, so the end is not held.
type laggingHandler struct {
	p      atomic.Pointer[Process]
	frames atomic.Int64
}

func (h *laggingHandler) lag() {
	if p := h.p.Load(); p == nil || p.ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
}

func (h *laggingHandler) Output(Stream, []byte) { h.lag() }
func (h *laggingHandler) Frame([]byte)          { h.frames.Add(1); h.lag() }

// A live program blocked writing to a pipe the host has not read yet is
// busy, not waiting: the host is working for it. Flooding small frames or
// output at a host that lags behind ends at the wall clock, not after the
// quiet limit (before, the blocked writer counted as waiting and ran the
// whole idle time).
func TestLiveBlockedWriterIsBusy(t *testing.T) {
	for name, code := range map[string]string{
		"frames": "import os\nb = b'\\0\\0\\0\\x0c{\"type\":\"x\"}' * 4096\nwhile True:\n    os.write(3, b)\n",
		"output": "import os\nb = b'flood\\n' * 8192\nwhile True:\n    os.write(1, b)\n",
	} {
		eachContainment(t, name, func(t *testing.T) {
			pol := livePolicy(2*time.Second, time.Minute, 20*time.Second)
			pol.OutputBytes = 1 << 30
			h := &laggingHandler{}
			p := startCode(t, code, Spec{Policy: pol, Frames: true, Live: true}, h)
			h.p.Store(p)
			p.CloseInput()
			o := p.Wait()
			t.Logf("%s limit=%q after %v, host read %d frames", o.Status, o.Limit, o.Duration, h.frames.Load())
			if o.Status != StatusTimeout || o.Limit != "" {
				t.Errorf("%s: %s limit=%q after %v, want the wall clock's timeout", name, o.Status, o.Limit, o.Duration)
			}
		})
	}
}

// hostCPU is the CPU this process has used so far.
func hostCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEmptyFrameFlood is the host's CPU for a run that writes frames
// of length 0 as fast as it can under the default limits, normal and
// live, beside the run's own CPU, how long it ran and the frames the host
// read.
func BenchmarkEmptyFrameFlood(b *testing.B) {
	needSandbox(b)
	code, err := os.ReadFile("testdata/attacks/empty_frames.py")
	if err != nil {
		b.Fatal(err)
	}
	prog := filepath.Join(b.TempDir(), "flood.py")
	os.WriteFile(prog, code, 0o644)
	for _, live := range []bool{false, true} {
		name := map[bool]string{false: "normal", true: "live"}[live]
		b.Run(name, func(b *testing.B) {
			spec := Spec{Policy: DefaultPolicy(), Python: testPython, Args: []string{"-I", "-B", ScratchDir + "/flood.py"},
				Files: []Mount{{Host: prog, Sandbox: ScratchDir + "/flood.py"}}, Frames: true, Live: live}
			var host, run, took time.Duration
			var frames int64
			for b.Loop() {
				before := hostCPU()
				p, err := Start(b.Context(), spec, countingHandler{&frames})
				if err != nil {
					b.Fatal(err)
				}
				p.CloseInput()
				o := p.Wait()
				host += hostCPU() - before
				run += o.CPUTime
				took += o.Duration
			}
			b.ReportMetric(float64(host.Milliseconds())/float64(b.N), "ms-host-cpu")
			b.ReportMetric(float64(run.Milliseconds())/float64(b.N), "ms-run-cpu")
			b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "ms-run")
			b.ReportMetric(float64(frames)/float64(b.N), "frames")
		})
	}
}

// countingHandler counts frames and keeps nothing.
type countingHandler struct{ n *int64 }

func (countingHandler) Output(Stream, []byte) {}
func (h countingHandler) Frame([]byte)        { atomic.AddInt64(h.n, 1) }
