//go:build e2e

package e2e

import (
	"image"
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

// runButton finds the Run button's green (#21a05a) in the column at x=300,
// below the window's header, and returns its top and bottom rows.
func runButton(t testing.TB, img image.Image) (top, bottom int) {
	top = -1
	run := 0
	for y := 60; y < img.Bounds().Max.Y; y++ {
		r, g, bl, _ := img.At(300, y).RGBA()
		if r>>8 < 60 && g>>8 > 140 && g>>8 < 180 && bl>>8 > 70 && bl>>8 < 110 {
			run++
			continue
		}
		if run >= 20 { // the button, not a green letter
			return y - run, y - 1
		}
		run = 0
	}
	if top < 0 {
		t.Fatalf("no Run button found (screen %s)", savePNG(t, img, "bench-click-layout.png"))
	}
	return top, bottom
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
	// Run is the green button below the editor; Clear and the console's
	// first line sit at fixed distances below it.
	top, bottom := runButton(b, a.x.screenshot(b))
	b.Logf("Run button rows %d-%d", top, bottom)
	run, clear := [2]int{330, (top + bottom) / 2}, [2]int{757, bottom + 26}
	line := [4]int{255, bottom + 52, 520, 28}
	a.x.xdo(b, "key", "ctrl+Return")
	a.waitRuns(b, 2, 15*time.Second)
	full := 0
	for deadline := time.Now().Add(10 * time.Second); full < 1000 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		full = countRaw(x.pixels(b, line), isInk)
	}
	if full < 1000 {
		b.Fatalf("the printed line shows only %d dark pixels where the console's first line should be (screen %s)", full,
			savePNG(b, a.x.screenshot(b), "bench-click-layout.png"))
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
