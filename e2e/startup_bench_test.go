//go:build e2e

package e2e

import (
	"sort"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStartup measures, over launches of the real app under Xvfb (at
// least 5; medians): app start to the first of the golden star on screen
// and to the whole star, to the window, to the demo's result, and the
// resident memory of the app (all its processes, its warm sandbox
// included) after the demo. Pixels are read with GetImage every few
// milliseconds.
func BenchmarkStartup(b *testing.B) {
	var first, whole, window, done, rss []float64
	for i := 0; i < max(b.N, 5); i++ {
		a := launch(b, 1280, 820, "C.UTF-8")
		window = append(window, ms(time.Since(a.start)))
		x := dialX(b, a.x.display)
		area := drawingArea(a.x.screenshot(b))
		r := [4]int{area.Min.X, area.Min.Y, area.Dx(), area.Dy()}
		deadline := time.Now().Add(20 * time.Second)
		seen := false
		for {
			n := countRaw(x.pixels(b, r), isGold)
			if !seen && n >= 50 {
				first, seen = append(first, ms(time.Since(a.start))), true
			}
			if n >= 3000 {
				whole = append(whole, ms(time.Since(a.start)))
				break
			}
			if time.Now().After(deadline) {
				b.Fatal("star never appeared")
			}
			time.Sleep(5 * time.Millisecond)
		}
		a.waitRuns(b, 1, 10*time.Second)
		done = append(done, ms(time.Since(a.start)))
		time.Sleep(time.Second) // the warm sandbox is made after the demo
		rss = append(rss, float64(residentKiB(a.cmd.Process.Pid))/1024)
		// Close this app before the next launch, so launches don't overlap.
		syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
	}
	b.ReportMetric(median(first), "ms-to-first-star-ink")
	b.ReportMetric(median(whole), "ms-to-whole-star")
	b.ReportMetric(median(window), "ms-to-window")
	b.ReportMetric(median(done), "ms-to-demo-result")
	b.ReportMetric(median(rss), "MiB-resident")
	b.ReportMetric(0, "ns/op")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// countRaw counts the pixels of a GetImage reply (32-bit BGRX) that match.
func countRaw(data []byte, match func(r, g, b uint8) bool) int {
	n := 0
	for i := 0; i+3 < len(data); i += 4 {
		if match(data[i+2], data[i+1], data[i]) {
			n++
		}
	}
	return n
}
