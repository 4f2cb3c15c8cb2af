//go:build e2e

package e2e

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkStartup measures app start to golden star visible under Xvfb, and
// the resident memory of the app (all its processes) after the demo.
func BenchmarkStartup(b *testing.B) {
	var total, window, done time.Duration
	var rss int
	for i := 0; i < b.N; i++ {
		a := launch(b, 1280, 820, "C.UTF-8")
		window += time.Since(a.start)
		a.waitRuns(b, 1, 20*time.Second)
		done += time.Since(a.start)
		if _, ok := a.waitGold(b, 3000, 20*time.Second); !ok {
			b.Fatal("star never appeared")
		}
		total += time.Since(a.start)
		a.waitRuns(b, 1, 10*time.Second)
		rss += residentKiB(a.cmd.Process.Pid)
		// Close this app before the next launch, so launches don't overlap.
		syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-star")
	b.ReportMetric(float64(window.Milliseconds())/float64(b.N), "ms-to-window")
	b.ReportMetric(float64(done.Milliseconds())/float64(b.N), "ms-to-demo-result")
	b.ReportMetric(float64(rss)/float64(b.N)/1024, "MiB-resident")
	b.ReportMetric(0, "ns/op")
}
