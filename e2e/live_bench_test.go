//go:build e2e

package e2e

import (
	"bytes"
	"io"
	"log"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// xconn is a direct X connection for measuring: it presses keys through
// XTEST and reads pixels with GetImage, each in a millisecond or two, where
// xdotool and import cost a process start each.
type xconn struct {
	c      *xgb.Conn
	root   xproto.Window
	upCode xproto.Keycode
}

func dialX(t testing.TB, display string) *xconn {
	xgb.Logger = log.New(io.Discard, "", 0) // Xvfb here needs no authority file: nothing to say
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatalf("connecting to %s: %v", display, err)
	}
	t.Cleanup(c.Close)
	if err := xtest.Init(c); err != nil {
		t.Fatalf("XTEST: %v", err)
	}
	setup := xproto.Setup(c)
	x := &xconn{c: c, root: setup.DefaultScreen(c).Root}
	const keysymUp = 0xff52
	n := byte(setup.MaxKeycode - setup.MinKeycode + 1)
	km, err := xproto.GetKeyboardMapping(c, setup.MinKeycode, n).Reply()
	if err != nil {
		t.Fatalf("keyboard mapping: %v", err)
	}
	per := int(km.KeysymsPerKeycode)
	for i := 0; i < int(n); i++ {
		for j := 0; j < per; j++ {
			if km.Keysyms[i*per+j] == keysymUp {
				x.upCode = xproto.Keycode(int(setup.MinKeycode) + i)
			}
		}
	}
	if x.upCode == 0 {
		t.Fatal("no keycode for Up")
	}
	return x
}

// pressUp sends one press and release of the Up arrow.
func (x *xconn) pressUp(t testing.TB) {
	for _, typ := range []byte{xproto.KeyPress, xproto.KeyRelease} {
		if err := xtest.FakeInputChecked(x.c, typ, byte(x.upCode), 0, x.root, 0, 0, 0).Check(); err != nil {
			t.Fatalf("XTEST key: %v", err)
		}
	}
}

// pixels reads the raw pixels of r on the root window.
func (x *xconn) pixels(t testing.TB, r [4]int) []byte {
	img, err := xproto.GetImage(x.c, xproto.ImageFormatZPixmap, xproto.Drawable(x.root),
		int16(r[0]), int16(r[1]), uint16(r[2]), uint16(r[3]), 0xffffffff).Reply()
	if err != nil {
		t.Fatalf("GetImage: %v", err)
	}
	return img.Data
}

// BenchmarkKeyToMove measures, in the real window under Xvfb, the time from
// an arrow key press to the first screen change in the drawing area, for a
// game that moves its turtle on each press (the "Up" handler draws a thick
// line). It also reports Stop to the end of the game's run.
func BenchmarkKeyToMove(b *testing.B) {
	a := startedApp(b)
	a.typeProgram(b, gameProgram)
	a.x.xdo(b, "key", "ctrl+Return")
	a.waitLive(b, "listen", 15*time.Second)
	time.Sleep(time.Second)
	x := dialX(b, a.x.display)
	full := a.x.screenshot(b)
	d := drawingArea(full)
	area := [4]int{d.Min.X, d.Min.Y, d.Dx(), d.Dy()}
	var lat []time.Duration
	presses := max(b.N, 20)
	for i := 0; i < presses; i++ {
		if i%4 == 3 { // keep the line on screen: turn now and then
			a.x.xdo(b, "key", "Left")
			time.Sleep(300 * time.Millisecond)
		}
		base := x.pixels(b, area)
		start := time.Now()
		x.pressUp(b)
		for {
			if time.Since(start) > 5*time.Second {
				b.Fatalf("press %d: the drawing did not change within 5 s", i)
			}
			if !bytes.Equal(x.pixels(b, area), base) {
				break
			}
		}
		lat = append(lat, time.Since(start))
		time.Sleep(300 * time.Millisecond) // let the move finish before the next press
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	a.x.xdo(b, "mousemove", "300", "300", "click", "1")
	stopAt := time.Now()
	a.x.xdo(b, "key", "Escape")
	res := a.waitRuns(b, 2, 10*time.Second)
	stop := time.Since(stopAt)
	if out, _ := res["stdout"].(string); !strings.Contains(out, "after done") {
		b.Fatalf("stopped game: stdout %q", out)
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-key-to-move-median")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "ms-key-to-move-p90")
	b.ReportMetric(float64(stop.Microseconds())/1000, "ms-stop-to-end")
	b.ReportMetric(0, "ns/op")
}
