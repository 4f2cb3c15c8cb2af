package kidrun

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"strings"
	"testing"

	"kidcoder/sandbox"
)

// bigPNG is a one-bit grey PNG of w × h pixels, all black: a few KB that
// pass checkPNG whatever their size.
func bigPNG(w, h uint32) []byte {
	return pngOf(ihdr(w, h, 1, 0, 0), pngChunk("IDAT", deflate(make([]byte, int(h)*(1+int(w+7)/8)))), pngChunk("IEND", nil))
}

// A run's pictures together stay within maxRunPixels and maxRunPictures,
// whatever each one passes; those left out are counted for the notice.
func TestCheckImagesWithinTheRunsBudget(t *testing.T) {
	huge := Image{Mime: "image/png", Data: b64(bigPNG(16384, 2048))} // 2^25 pixels, the whole budget
	half := Image{Mime: "image/png", Data: b64(bigPNG(16384, 1024))}
	small := Image{Mime: "image/png", Data: b64(encodePNG(t, image.NewGray(image.Rect(0, 0, 640, 480))))}
	broken := bigPNG(16384, 1024)
	broken[len(broken)-20] ^= 1 // the image data's checksum fails, after all of it is inflated
	svg := Image{Mime: "image/svg+xml", Data: b64([]byte(svgOpen + `<rect width="1"/></svg>`))}
	rep := func(n int, im Image) []Image {
		out := make([]Image, n)
		for i := range out {
			out[i] = im
		}
		return out
	}
	for _, tt := range []struct {
		name       string
		in         []Image
		kept, left int
	}{
		{"64 forged 16384 × 2048", rep(64, huge), 1, 63},
		{"the budget is spent", append([]Image{small}, rep(3, huge)...), 1, 3},
		{"a smaller one after one that does not fit", []Image{half, huge, small}, 2, 1},
		{"a picture that fails still costs its check", []Image{{Mime: "image/png", Data: b64(broken)}, half, small}, 1, 1},
		{"at most 21 pictures", append([]Image{svg}, rep(22, small)...), 21, 2},
		{"20 figures and a drawing fit", append([]Image{svg}, rep(20, small)...), 21, 0},
	} {
		got, left := checkImages(tt.in)
		var pixels int64
		for _, im := range got {
			if im.Mime == "image/png" {
				raw, _ := base64.StdEncoding.DecodeString(im.Data)
				pixels += pngPixels(raw)
			}
		}
		if len(got) != tt.kept || left != tt.left || pixels > maxRunPixels {
			t.Errorf("%s: kept %d (%d pixels), left out %d; want %d kept, %d left out", tt.name, len(got), pixels, left, tt.kept, tt.left)
		}
	}
	r := buildResult(sandbox.Outcome{Status: sandbox.StatusOK}, report{Images: rep(3, huge), Notices: []string{"from the runner"}}, sandbox.DefaultPolicy(), "en")
	if len(r.Notices) != 2 || r.Notices[1] != "ℹ️ Too many or too big pictures to show them all: 2 left out." {
		t.Errorf("notices %q", r.Notices)
	}
	if r := buildResult(sandbox.Outcome{Status: sandbox.StatusOK}, report{Images: rep(2, huge)}, sandbox.DefaultPolicy(), "zh"); len(r.Notices) != 1 || !strings.Contains(r.Notices[0], "有 1 张没有显示") {
		t.Errorf("zh notices %q", r.Notices)
	}
}

// A few bytes of SVG can ask a renderer for millions of dashes: the checks
// measure what it asks (svgcost) and refuse it past maxSVGDashes or
// maxSVGPoints, while plain dashes and the runner's drawings pass.
func TestSanitizeSVGComplexity(t *testing.T) {
	var zigzag strings.Builder
	zigzag.WriteString(`<path d="M0 0`)
	for i := range 100 {
		fmt.Fprintf(&zigzag, "L%d %d", (i%2)*1000, 1000*((i/2)%2))
	}
	zigzag.WriteString(`" fill="none" stroke="#000" stroke-width="3" stroke-linecap="round" stroke-dasharray="0.02 0"/>`)
	arcs := strings.Repeat("a1 1 0 00.1.1", maxSVGPoints/12+1)
	for _, tt := range []struct {
		name, body string
		ok         bool
		want       string // kept in the output when ok
	}{
		{"a tiny dash along a zigzag (905 bytes; 68 s in kidcoder mcp)", zigzag.String(), false, ""},
		{"a dash inherited from a group", `<g stroke-dasharray=".001"><line x2="1000" stroke="red"/></g>`, false, ""},
		{"dashed text in a huge font", `<text font-size="100000" stroke="red" stroke-dasharray="1">MMMMMMMMMM</text>`, false, ""},
		{"a dashed rect sized in percent", `<rect width="100%" height="1" stroke="red" stroke-dasharray="1"/>`, false, ""},
		{"arcs past the point bound", `<path d="M0 0` + arcs + `"/>`, false, ""},
		{"plain dashes", `<line x2="1000" stroke="red" stroke-dasharray="5 5"/>`, true, `stroke-dasharray="5 5"`},
		{"a dash array that is not numbers is dropped", `<line x2="9" stroke="red" stroke-dasharray="1em"/>`, true, `<line x2="9" stroke="red"/>`},
		{"a dash offset past float64 is dropped", `<line x2="9" stroke-dashoffset="1e999"/>`, true, `<line x2="9"/>`},
		{"a font size in other units is dropped", `<text font-size="9vw">a</text>`, true, `<text>a</text>`},
	} {
		out, err := sanitizeSVG([]byte(svgOpen + tt.body + `</svg>`))
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case !tt.ok && err == nil:
			t.Errorf("%s: passed", tt.name)
		case tt.ok && !bytes.Contains(out, []byte(tt.want)):
			t.Errorf("%s: %s lacks %s", tt.name, out, tt.want)
		}
	}
}
