//go:build e2e

package e2e

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// click moves the pointer to (px, py) and clicks the left button, through XTEST.
func (x *xconn) click(t testing.TB, px, py int) {
	if err := xtest.FakeInputChecked(x.c, xproto.MotionNotify, 0, 0, x.root, int16(px), int16(py), 0).Check(); err != nil {
		t.Fatalf("XTEST motion: %v", err)
	}
	for _, typ := range []byte{xproto.ButtonPress, xproto.ButtonRelease} {
		if err := xtest.FakeInputChecked(x.c, typ, 1, 0, x.root, 0, 0, 0).Check(); err != nil {
			t.Fatalf("XTEST button: %v", err)
		}
	}
}

// BenchmarkClickToOutput measures, in the real window under Xvfb, the time
// from a click on Run to the program's first output line on screen, for a
// program that prints one line at once. Runs are a second or more apart,
// as a child's are, so each finds the warm sandbox ready. The console is
// cleared before each click; the line is a row of full blocks, so the
// first-line area turns dark when it is there.
func BenchmarkClickToOutput(b *testing.B) {
	a := startedApp(b)
	a.typeProgram(b, `print("\u2588" * 30)`)
	x := dialX(b, a.x.display)
	// Where the window puts Run, Clear and the console's first line at 1280x820.
	run, clear := [2]int{330, 504}, [2]int{757, 552}
	line := [4]int{255, 578, 520, 30}
	a.x.xdo(b, "key", "ctrl+Return")
	a.waitRuns(b, 2, 15*time.Second)
	full := countRaw(x.pixels(b, line), isInk)
	if full < 1000 {
		b.Fatalf("the printed line shows only %d dark pixels where the console's first line should be", full)
	}
	var lat []time.Duration
	n := max(b.N, 15)
	for i := 0; i < n; i++ {
		x.click(b, clear[0], clear[1])
		time.Sleep(1200 * time.Millisecond)
		if got := countRaw(x.pixels(b, line), isInk); got > full/4 {
			b.Fatalf("run %d: the console did not clear (%d dark pixels)", i, got)
		}
		start := time.Now()
		x.click(b, run[0], run[1])
		for countRaw(x.pixels(b, line), isInk) < full/2 {
			if time.Since(start) > 10*time.Second {
				b.Fatalf("run %d: no output on screen within 10 s (so far %v; screen %s)", i, lat,
					savePNG(b, a.x.screenshot(b), "bench-click-no-output.png"))
			}
		}
		lat = append(lat, time.Since(start))
		a.waitRuns(b, i+3, 15*time.Second)
	}
	if res := a.waitRuns(b, n+2, 15*time.Second); !strings.Contains(res["stdout"].(string), "\u2588") {
		b.Fatalf("last run: %v", res)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-click-to-output-median")
	b.ReportMetric(ms(lat[len(lat)*9/10]), "ms-click-to-output-p90")
	b.ReportMetric(ms(lat[0]), "ms-click-to-output-min")
	b.ReportMetric(0, "ns/op")
}
