//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// geometry is where a window is on the screen: its top left corner and size
// (the X client area, without a window manager's frame).
type geometry struct{ x, y, w, h int }

func (g geometry) String() string { return fmt.Sprintf("%dx%d at %d,%d", g.w, g.h, g.x, g.y) }

// windowGeometry asks xwininfo where window is on the screen (xdotool's
// getwindowgeometry counts a window manager's frame offset twice).
func windowGeometry(t testing.TB, x *xserver, window string) geometry {
	t.Helper()
	cmd := exec.Command("xwininfo", "-id", window)
	cmd.Env = append(os.Environ(), "DISPLAY="+x.display)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xwininfo: %v", err)
	}
	var g geometry
	for _, line := range strings.Split(string(out), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		switch k {
		case "Absolute upper-left X":
			g.x = n
		case "Absolute upper-left Y":
			g.y = n
		case "Width":
			g.w = n
		case "Height":
			g.h = n
		}
	}
	return g
}

// startWM runs openbox on display x and waits until it manages windows.
func startWM(t testing.TB, x *xserver) {
	t.Helper()
	if _, err := exec.LookPath("openbox"); err != nil {
		t.Fatal("openbox is needed (make test installs it)")
	}
	cmd := exec.Command("openbox", "--sm-disable")
	cmd.Env = append(os.Environ(), "DISPLAY="+x.display)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok := waitFor(ctx, 100*time.Millisecond, func() bool {
		c := exec.Command("xprop", "-root", "_NET_SUPPORTING_WM_CHECK")
		c.Env = append(os.Environ(), "DISPLAY="+x.display)
		out, err := c.Output()
		return err == nil && strings.Contains(string(out), "window id")
	})
	if !ok {
		t.Fatal("openbox did not start managing the display")
	}
}

// TestWindowFitsASmallScreen opens the app on an 800x600 screen, without a
// window manager and with one, and leaves the window where the app put it:
// all of it must be on the screen (the title, the lessons, Run), and the
// star must show whole.
func TestWindowFitsASmallScreen(t *testing.T) {
	const sw, sh = 800, 600
	for _, wm := range []string{"none", "openbox"} {
		t.Run(wm, func(t *testing.T) {
			x := startX(t, sw, sh)
			if wm != "none" {
				startWM(t, x)
			}
			a := startApp(t, x, "C.UTF-8", `{"lang":"zh","fontSize":18,"timeoutSeconds":10}`)
			// The star is smaller in a window shrunk below a title bar.
			img, ok := a.waitGold(t, sw*sh/600, 20*time.Second)
			path := savePNG(t, img, "window-800x600-"+wm+".png")
			// A window manager applies the size and place in its own time:
			// the window must settle inside the screen within a few seconds.
			var g geometry
			inside := func() bool {
				g = windowGeometry(t, x, a.window)
				return g.x >= 0 && g.y >= 0 && g.x+g.w <= sw && g.y+g.h <= sh
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if !waitFor(ctx, 100*time.Millisecond, inside) {
				t.Errorf("the window is %s, not inside the %dx%d screen (%s)", g, sw, sh, path)
			}
			if !ok {
				t.Errorf("no star on the %dx%d screen (%s)", sw, sh, path)
			}
		})
	}
}
