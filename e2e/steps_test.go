//go:build e2e

package e2e

import (
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// drawingPart is the lower right of the window, where the drawing panel is
// while step by step shows the variables above it (in a 1280-wide window
// the right column starts at 62.5%).
func drawingPart(win image.Rectangle) image.Rectangle {
	return image.Rect(win.Min.X+win.Dx()*64/100, win.Min.Y+win.Dy()/2, win.Max.X, win.Max.Y)
}

// petals counts the flower's red and blue ink where the drawing is; the
// page has only the few of the panel's 🎨 there.
func petals(img image.Image, win image.Rectangle) int {
	return countPixels(img, drawingPart(win), func(r, g, b uint8) bool {
		return (r > 180 && g < 90 && b < 90) || (b > 180 && r < 90 && g < 90)
	})
}

// sameDrawing says whether two screenshots show the same pixels in the
// drawing's part of the window.
func sameDrawing(a, b image.Image, win image.Rectangle) bool {
	area := drawingPart(win)
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}

// TestStepThroughTheFlower steps through the flower lesson in the real
// window under a window manager: F7 records the run, End shows the whole
// flower, Home the empty start, and steps forward then as many back show
// exactly the picture they left, from the recording, not a new run.
func TestStepThroughTheFlower(t *testing.T) {
	flower, err := os.ReadFile(filepath.Join(repoRoot(t), "backend", "lessons", "starter", "2 flower.py"))
	if err != nil {
		t.Fatal(err)
	}
	a := openLesson(t, "flower.py", string(flower), 1280, 820, "C.UTF-8", `{"lang":"zh","fontSize":16,"timeoutSeconds":60}`)
	ex, ey := a.inWindow(t, 400, 250)
	a.x.xdo(t, "mousemove", ex, ey, "click", "1")

	a.x.xdo(t, "key", "F7")
	res := a.waitRuns(t, 2, 60*time.Second)
	if res["status"] != "ok" {
		t.Fatalf("the recorded run: %v", res)
	}
	var win image.Rectangle
	shot := func(what, name string, ok func(image.Image, image.Rectangle) bool) image.Image {
		t.Helper()
		var img image.Image
		a.waitScreen(t, what, name, 20*time.Second, func(i image.Image, w image.Rectangle) bool {
			img, win = i, w
			return ok(i, w)
		})
		return img
	}
	// The recording opens at its first step: nothing drawn yet.
	shot("the first step shows an empty drawing", "e2e-steps-first.png", func(i image.Image, w image.Rectangle) bool { return petals(i, w) < 50 })
	savePNG(t, a.x.screenshot(t), "e2e-steps-first.png")
	a.x.xdo(t, "key", "End")
	end := shot("End shows the whole flower", "e2e-steps-end.png", func(i image.Image, w image.Rectangle) bool { return petals(i, w) > 1000 })
	full := petals(end, win)
	savePNG(t, end, "e2e-steps-end.png")

	// From the start, 60 steps in: part of the flower.
	keys := func(key string, n int) {
		args := []string{"key", "--delay", "120"}
		for i := 0; i < n; i++ {
			args = append(args, key)
		}
		a.x.xdo(t, args...)
	}
	a.x.xdo(t, "key", "Home")
	shot("Home shows the empty start", "e2e-steps-home.png", func(i image.Image, w image.Rectangle) bool { return petals(i, w) < 50 })
	keys("Right", 60)
	var part image.Image
	shot("60 steps in shows part of the flower", "e2e-steps-part.png", func(i image.Image, w image.Rectangle) bool {
		n := petals(i, w)
		part = i
		return n > 50 && n < full
	})
	savePNG(t, part, "e2e-steps-part.png")
	// 20 more, then 20 back: the very picture it left, from the recording.
	keys("Right", 20)
	shot("20 steps more draw more", "e2e-steps-more.png", func(i image.Image, w image.Rectangle) bool { return petals(i, w) > petals(part, w) })
	keys("Left", 20)
	shot("20 steps back show the picture of 20 steps before", "e2e-steps-back.png", func(i image.Image, w image.Rectangle) bool { return sameDrawing(i, part, w) })

	// Home: the empty start again.
	a.x.xdo(t, "key", "Home")
	shot("Home shows the empty start", "e2e-steps-home.png", func(i image.Image, w image.Rectangle) bool { return petals(i, w) < 50 })
	if n := len(a.doneResults()); n != 2 {
		t.Fatalf("stepping ran the program again: %d runs done, want 2", n)
	}
}
