package kidrun

import (
	"context"
	"encoding/base64"
	"os"
	"slices"
	"strings"
	"testing"
)

// runAttack runs testdata/attacks/NAME through the real sandbox and checks
// that its forged result frame reached the host, as its notice shows.
func runAttack(t *testing.T, name string, req Request) *Result {
	t.Helper()
	code, err := os.ReadFile("testdata/attacks/" + name)
	if err != nil {
		t.Fatal(err)
	}
	req.Code, req.Name, req.Lang = code, name, "en"
	r, err := testEngine(t).Start(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	if !slices.Contains(res.Notices, "forged frame arrived") {
		t.Fatalf("the forged frame never reached the host (status %s, notices %q, stdout %q, stderr %q): this test proves nothing",
			res.Status, res.Notices, res.Stdout, res.Stderr)
	}
	return res
}

// 64 forged PNGs of 16384 × 2048 pixels, 4 KB each, pass the per-picture
// checks: before, all of them reached the result (2.1 gigapixels, 8 GiB as
// RGBA in the window). Now the run's pictures stay within one pixel budget
// and a notice says some were left out.
func TestForgedPicturesStayWithinTheRunsPixels(t *testing.T) {
	res := runAttack(t, "forged_pictures.py", Request{})
	var pixels int64
	for _, im := range res.Images {
		b, err := base64.StdEncoding.DecodeString(im.Data)
		if err != nil || pngPixels(b) == 0 {
			t.Fatalf("not a PNG: %v", err)
		}
		pixels += pngPixels(b)
	}
	t.Logf("%d pictures kept, %d pixels; stdout %q", len(res.Images), pixels, res.Stdout)
	if pixels > maxRunPixels {
		t.Errorf("the run's pictures hold %d pixels, more than %d", pixels, maxRunPixels)
	}
	if len(res.Images) == 0 {
		t.Errorf("no picture kept: the first fits the budget")
	}
	if !slices.ContainsFunc(res.Notices, func(n string) bool { return strings.Contains(n, "left out") }) {
		t.Errorf("no notice that pictures were left out: %q", res.Notices)
	}
}

// A forged drawing (a canvas 1e308 wide, a 300,000-point fill, a font of
// size 1e9, unknown step kinds) passed unchecked into `run --json` and the
// window's replay. Now it is checked like the pictures, and dropped; and a
// drawing the runner could have sent reaches only a run that asked for
// that many steps.
func TestForgedDrawingIsDropped(t *testing.T) {
	for _, tt := range []struct {
		stdin  string
		replay int
		kept   bool
	}{
		{"hostile", MaxReplaySteps, false},
		{"hostile", MaxDrawingSteps, false},
		{"valid", 0, false}, // the window's live runs ask for none
		{"valid", MaxReplaySteps, false},
		{"valid", MaxDrawingSteps, true},
	} {
		res := runAttack(t, "forged_drawing.py", Request{ReplaySteps: tt.replay, Stdin: []byte(tt.stdin)})
		t.Logf("%s, replay %d: stdout %q, drawing of %d bytes", tt.stdin, tt.replay, res.Stdout, len(res.Drawing))
		if kept := len(res.Drawing) != 0; kept != tt.kept {
			t.Errorf("%s drawing, replay %d: kept %v, want %v", tt.stdin, tt.replay, kept, tt.kept)
		}
	}
}
