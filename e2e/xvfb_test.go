//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the checkout, two levels above this file's package.
func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// artifacts is where screenshots are kept for people to look at.
func artifacts(t testing.TB) string {
	dir := filepath.Join(repoRoot(t), "test-artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// xserver is a private Xvfb display.
type xserver struct {
	display string
	cmd     *exec.Cmd
}

// startX starts Xvfb on a free display of the given size and waits until it accepts clients.
func startX(t testing.TB, w, h int) *xserver {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Fatal("Xvfb is needed (make test installs it)")
	}
	r, wpipe, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", w, h), "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{wpipe}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wpipe.Close()
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("Xvfb did not report its display: %v", err)
	}
	x := &xserver{display: ":" + strings.TrimSpace(line), cmd: cmd}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	return x
}

// env is a clean environment for the app on this display, with its own home
// so the user's settings, lessons and caches are never touched.
func (x *xserver) env(t testing.TB, home, lang string) []string {
	return []string{
		"DISPLAY=" + x.display,
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local/share"),
		"XDG_RUNTIME_DIR=" + home,
		"PATH=" + os.Getenv("PATH"),
		"LANG=" + lang,
		"NO_AT_BRIDGE=1",
		"WEBKIT_DISABLE_COMPOSITING_MODE=1",
		"LIBGL_ALWAYS_SOFTWARE=1",
	}
}

// screenshot grabs the whole display.
func (x *xserver) screenshot(t testing.TB) image.Image {
	cmd := exec.Command("import", "-display", x.display, "-window", "root", "png:-")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("screenshot: %v: %s", err, errb.String())
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Fatalf("screenshot decode: %v", err)
	}
	return img
}

func savePNG(t testing.TB, img image.Image, name string) string {
	p := filepath.Join(artifacts(t), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	return p
}

// xdo runs xdotool on the display.
func (x *xserver) xdo(t testing.TB, args ...string) string {
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+x.display)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// countPixels counts pixels inside r that match.
func countPixels(img image.Image, r image.Rectangle, match func(r, g, b uint8) bool) int {
	return len(pixelsWhere(img, r, match))
}

// pixelsWhere are the points of r whose colour matches.
func pixelsWhere(img image.Image, r image.Rectangle, match func(r, g, b uint8) bool) []image.Point {
	var pts []image.Point
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if match(uint8(cr>>8), uint8(cg>>8), uint8(cb>>8)) {
				pts = append(pts, image.Point{x, y})
			}
		}
	}
	return pts
}

// isGold matches the star's gold (#ffd700 and its anti-aliased neighbours).
func isGold(r, g, b uint8) bool {
	return r > 225 && g > 180 && g < 230 && b < 90
}

// waitFor polls cond every interval until it holds or the deadline passes.
func waitFor(ctx context.Context, interval time.Duration, cond func() bool) bool {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if cond() {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// residentKiB is the resident memory of pid and its descendants.
func residentKiB(pid int) int {
	total := 0
	var walk func(int)
	walk = func(p int) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p))
		if err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "VmRSS:") {
					f := strings.Fields(l)
					if len(f) >= 2 {
						n, _ := strconv.Atoi(f[1])
						total += n
					}
				}
			}
		}
		kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", p, p))
		for _, k := range strings.Fields(string(kids)) {
			c, _ := strconv.Atoi(k)
			walk(c)
		}
	}
	walk(pid)
	return total
}
