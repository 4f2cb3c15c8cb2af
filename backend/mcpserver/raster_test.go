package mcpserver

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"

	"kidcoder/backend/kidrun"
)

const svgHead = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000" width="1000" height="1000">`

// zigzag is a 905-byte SVG whose 100 long lines carry a dash of 1/64
// pixel: rasterized as it stood, it took kidcoder mcp 68 s of CPU.
func zigzag() string {
	var b strings.Builder
	b.WriteString(svgHead + `<path d="M0 0`)
	for i := range 100 {
		fmt.Fprintf(&b, "L%d %d", (i%2)*1000, 1000*((i/2)%2))
	}
	b.WriteString(`" fill="none" stroke="#000" stroke-width="3" stroke-linecap="round" stroke-dasharray="0.02 0"/></svg>`)
	return b.String()
}

// A forged SVG that asks the rasterizer for more than its budget is
// refused before anything is drawn, so the session's queue moves on.
func TestForgedSVGIsTooComplex(t *testing.T) {
	var offsets strings.Builder
	offsets.WriteString(svgHead + `<path d="`)
	for range 10000 {
		offsets.WriteString("M0 0l1 0")
	}
	offsets.WriteString(`" fill="none" stroke="#000" stroke-dasharray="0.02" stroke-dashoffset="10000000"/></svg>`)
	for _, tt := range []struct{ name, svg string }{
		{"a tiny dash along long lines", zigzag()},
		// SVG dashes in user units (so the host counts 10,000); rasterx
		// dashes in output pixels, a thousand times as many here.
		{"a dash under a large scale", svgHead + `<g transform="scale(1000)"><path d="M0 0` + strings.Repeat("L1 0L0 0", 50) +
			`" fill="none" stroke="#000" stroke-dasharray="0.02 0"/></g></svg>`},
		{"a walk to a far dash offset in every subpath", offsets.String()},
		{"a million points", svgHead + `<path d="M0 0` + strings.Repeat("l1 1l-1-1", 800000) + `" stroke="#000" fill="none"/></svg>`},
	} {
		if _, err := svgToPNG(tt.svg); !errors.Is(err, errTooComplex) {
			t.Errorf("%s: %v, want %v", tt.name, err, errTooComplex)
		}
	}
}

// A drawing larger than the PNG is drawn on it, wherever its view box
// starts: oksvg's SetTarget left such a drawing off the picture, blank.
func TestLargeDrawingIsNotBlank(t *testing.T) {
	for _, vb := range []string{"-210 -10098.8 20221.5 20023", "0 0 20000 20000", "-5000 -100 10000 200", "-200 -200 400 400"} {
		var x0, y0, w, h float64
		fmt.Sscan(vb, &x0, &y0, &w, &h)
		svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s" width="%g" height="%g">`+
			`<rect x="%g" y="%g" width="%g" height="%g" fill="#ffffff"/>`+
			`<path d="M%g %gL%g %g" stroke="#000000" stroke-width="4" fill="none"/></svg>`,
			vb, w, h, x0, y0, w, h, x0, y0+h/2, x0+w, y0+h/2)
		img := rasterize(t, svg)
		b := img.Bounds()
		if n := ink(img, b); n < b.Dx() {
			t.Errorf("view box %s: %d pixels of ink on a %v picture, want a line across it", vb, n, b)
		}
	}
}

// The watchdog stops a drawing that does more than its estimate said,
// however the drawing got there.
func TestWatchdogStopsADrawing(t *testing.T) {
	icon, err := oksvg.ReadIconStream(strings.NewReader(zigzag()), oksvg.IgnoreErrorMode)
	if err != nil {
		t.Fatal(err)
	}
	paint := func(sc rasterx.Scanner) { icon.Draw(rasterx.NewDasher(100, 100, sc), 1) }
	img := image.NewRGBA(image.Rect(0, 0, 100, 100))
	b := &rasterBudget{left: maxRasterWork, done: rasterWatchdogWork - 1e6}
	if err := b.draw(img, paint); !errors.Is(err, errTooComplex) {
		t.Errorf("%v, want %v", err, errTooComplex)
	}
	small := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L10 10" stroke="#000" fill="none"/></svg>`
	if icon, err = oksvg.ReadIconStream(strings.NewReader(small), oksvg.IgnoreErrorMode); err != nil {
		t.Fatal(err)
	}
	icon.SetTarget(0, 0, 100, 100)
	img = image.NewRGBA(image.Rect(0, 0, 100, 100))
	b = newRasterBudget()
	if err := b.draw(img, paint); err != nil || b.done == 0 {
		t.Errorf("a small drawing: %v, %v units counted", err, b.done)
	}
	if c := img.RGBAAt(50, 50); c == (color.RGBA{}) {
		t.Errorf("nothing drawn")
	}
}

// A program that forges its result with an SVG the host's checks pass (it
// asks for 10,000 dashes as SVG counts them) but rasterx would dash in
// output pixels, a thousand times as many: run_python answers with
// "picture too complex" and no picture, and the next call runs. Before,
// the session rasterized it for half a minute and more.
func TestForgedPictureDoesNotHoldTheQueue(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	svg := svgHead + `<g transform="scale(1000)"><path d="M0 0` + strings.Repeat("L1 0L0 0", 50) +
		`" fill="none" stroke="#000" stroke-dasharray="0.02 0"/></g></svg>`
	code := `import base64, json, os, struct
frame = json.dumps({"type": "result", "error": None, "drawing": None, "notices": ["forged frame arrived"],
                    "images": [{"mime": "image/svg+xml", "data": base64.b64encode(` + fmt.Sprintf("%q", svg) + `.encode()).decode()}]}).encode()
for name in os.listdir("/proc/self/fd"):
    if int(name) > 2:
        try:
            os.write(int(name), struct.pack(">I", len(frame)) + frame)
        except OSError:
            pass
os._exit(0)
`
	res := call(t, cs, "run_python", map[string]any{"code": code})
	var r kidrun.Result
	structured(t, res, &r)
	if !slices.Contains(r.Notices, "forged frame arrived") {
		t.Fatalf("the forged frame never reached the host (%q, %q): this test proves nothing", r.Notices, textOf(res))
	}
	if !strings.Contains(textOf(res), "Picture too complex") || !slices.ContainsFunc(r.Notices, func(n string) bool { return strings.Contains(n, "Picture too complex") }) {
		t.Errorf("no word of the picture left out: %q, notices %q", textOf(res), r.Notices)
	}
	for _, c := range res.Content {
		if _, ok := c.(*mcp.ImageContent); ok {
			t.Errorf("a picture came with the answer")
		}
	}
	if len(r.Images) != 0 {
		t.Errorf("images in the structured content: %+v", r.Images)
	}
	if next := call(t, cs, "run_python", map[string]any{"code": "print('next')"}); !strings.Contains(textOf(next), "next") {
		t.Errorf("the next run: %q", textOf(next))
	}
}

// What a turtle PNG costs, and what refusing a forged picture costs:
// go test -bench Raster -run ^$ ./backend/mcpserver/
func BenchmarkRaster(b *testing.B) {
	flower, err := os.ReadFile("../kidrun/testdata/images/flower.svg")
	if err != nil {
		b.Fatal(err)
	}
	var spiral strings.Builder
	spiral.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="-510 -510 1020 1020" width="1020" height="1020">`)
	x, y, colours := 0.0, 0.0, []string{"#ff0000", "#ffa500", "#008000", "#0000ff"}
	for i := range 2000 {
		a := float64(i) * 91 * math.Pi / 180
		nx, ny := x+float64(i)/4*math.Cos(a), y+float64(i)/4*math.Sin(a)
		fmt.Fprintf(&spiral, `<path d="M%.1f %.1fL%.1f %.1f" stroke="%s" fill="none" stroke-linecap="round"/>`, x, y, nx, ny, colours[i%4])
		x, y = nx, ny
	}
	spiral.WriteString(`</svg>`)
	for _, c := range []struct{ name, svg string }{
		{"flower", string(flower)},
		{"spiral-2000-colours", spiral.String()},
		{"forged-dashes-refused", zigzag()},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := svgToPNG(c.svg); err != nil && !errors.Is(err, errTooComplex) {
					b.Fatal(err)
				}
			}
		})
	}
}
