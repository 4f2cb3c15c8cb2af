package kidrun

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// Within a spell the gate sends each kind once: the latest screen and
// dialog, bye once, and the draw frames' new steps as one draw frame at
// their positions; a frame that repeats steps adds only its new ones, one
// that adds none is dropped, and one that skips steps is passed on at
// once and ends live drawing. At the end, what waits is sent.
func TestLiveGateCoalesces(t *testing.T) {
	h := &heard{}
	sp := &spell{at: time.Now()}
	g := newLiveGate(h, func() {})
	g.now, g.after = sp.now, sp.after
	expect := func(want ...string) {
		t.Helper()
		for i := range want {
			want[i] = "live " + want[i]
		}
		if !slices.Equal(h.calls, want) {
			t.Fatalf("heard %.300q, want %.300q", h.calls, want)
		}
		h.calls = nil
	}
	screen := func(n int) string { return fmt.Sprintf(`{"type":"screen","width":%d}`, n) }
	draw := func(from int, steps ...int) string {
		var s []string
		for _, n := range steps {
			s = append(s, fmt.Sprintf(`{"k":"dot","x":%d}`, n))
		}
		return fmt.Sprintf(`{"type":"draw","from":%d,"steps":[%s]}`, from, strings.Join(s, ","))
	}
	in := func(kind, frame string) { g.frame(kind, []byte(frame)) }

	in("screen", screen(1))
	expect(screen(1))
	var all []int
	for i := range 1000 {
		in("screen", screen(i))
		in("draw", draw(i, i))
		in("dialog", fmt.Sprintf(`{"type":"dialog","n":%d}`, i))
		all = append(all, i)
	}
	expect()
	sp.end()
	expect(screen(999), draw(0, all...), `{"type":"dialog","n":999}`)
	in("draw", draw(998, 998, 999, 1000, 1001)) // two steps known, two new
	in("draw", draw(0, 0))                      // nothing new
	in("draw", `{"type":"draw","from":-1,"steps":[]}`)
	in("bye", `{"type":"bye"}`)
	in("bye", `{"type":"bye"}`)
	sp.end()
	expect(draw(1000, 1000, 1001), `{"type":"bye"}`)
	in("draw", draw(1002, 1002))
	in("draw", draw(1005, 1005)) // 1003 and 1004 skipped
	in("draw", draw(1006, 1006))
	in("screen", screen(7))
	expect(draw(1002, 1002), draw(1005, 1005))
	g.close()
	expect(screen(7))
	in("screen", screen(8))
	sp.end()
	expect()
}

// Steps that would pass one frame's bound go as a frame of their own at
// once, so no frame the gate sends is much over maxLiveFrame.
func TestLiveGateFrameBound(t *testing.T) {
	h := &heard{}
	sp := &spell{at: time.Now()}
	g := newLiveGate(h, func() {})
	g.now, g.after = sp.now, sp.after
	g.frame("screen", []byte(`{"type":"screen"}`)) // the spell begins
	big := strings.Repeat("x", maxLiveFrame/3)
	for i := range 7 {
		g.frame("draw", []byte(fmt.Sprintf(`{"type":"draw","from":%d,"steps":["%s"]}`, i, big)))
	}
	g.close()
	steps := 0
	for _, c := range h.calls[1:] {
		if len(c) > maxLiveFrame+64 {
			t.Errorf("a frame of %d bytes", len(c))
		}
		steps += strings.Count(c, big)
	}
	// Two steps fit a frame, a third would not.
	if steps != 7 || len(h.calls) != 1+4 {
		t.Errorf("%d frames with %d steps, want 4 with 7", len(h.calls)-1, steps)
	}
}
