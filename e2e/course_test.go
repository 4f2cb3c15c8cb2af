//go:build e2e

package e2e

import (
	"fmt"
	"image"
	"testing"
	"time"
)

// mapShown: the course map is on screen, its "next" tags and dashed stops
// in the accent orange (#ff8c1a), which the rest of the window shows in a
// few pixels at most.
func mapShown(img image.Image, win image.Rectangle) bool {
	near := func(v, want uint8) bool { return abs(int(v)-int(want)) <= 12 }
	return countPixels(img, win, func(r, g, b uint8) bool { return near(r, 0xff) && near(g, 0x8c) && near(b, 0x1a) }) > 300
}

// TestCourseMapScreenshots opens the real window on a first start, where
// the course shelf opens by itself with every course's map, at the smallest
// supported window and a large one, in both languages, and keeps a
// screenshot of each for people to look at (the fonts and wrapping are
// WebKitGTK's here, not Chromium's).
func TestCourseMapScreenshots(t *testing.T) {
	for _, size := range [][2]int{{800, 600}, {1440, 900}} {
		for _, lang := range []string{"zh", "en"} {
			w, h := size[0], size[1]
			name := fmt.Sprintf("window-course-map-%dx%d-%s.png", w, h, lang)
			t.Run(name, func(t *testing.T) {
				x := startX(t, w, h)
				a := launchOn(t, x, w, h, "C.UTF-8", `{"lang":"`+lang+`","fontSize":18,"timeoutSeconds":10,"coursesOffered":false}`)
				a.waitScreen(t, "the course shelf opening by itself", name, 40*time.Second, mapShown)
				savePNG(t, a.x.screenshot(t), name)
			})
		}
	}
}
