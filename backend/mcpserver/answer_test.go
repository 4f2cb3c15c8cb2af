package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
)

func TestCutKeepsHeadAndTail(t *testing.T) {
	var flood strings.Builder
	for i := range 100000 {
		fmt.Fprintf(&flood, "line %d\n", i)
	}
	long := strings.Repeat("长", 100000) // one line, no newline
	for _, tc := range []struct {
		name, in, lang string
		marker         string // "" when nothing is cut
	}{
		{"short", "hello\n", "en", ""},
		{"at the bound", strings.Repeat("x\n", (keepHead+keepTail)/2), "en", ""},
		{"a print flood", flood.String(), "en", "lines left out"},
		{"a print flood in Chinese", flood.String(), "zh", "中间省略了"},
		{"one long line", long, "en", "characters left out"},
	} {
		got := cut(tc.in, tc.lang)
		if tc.marker == "" {
			if got != tc.in {
				t.Errorf("%s: cut to %d bytes", tc.name, len(got))
			}
			continue
		}
		if !strings.Contains(got, tc.marker) || len(got) > keepHead+keepTail+200 || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes, valid UTF-8 %v, marker %v", tc.name, len(got), utf8.ValidString(got), strings.Contains(got, tc.marker))
		}
		if !strings.HasPrefix(tc.in, got[:keepHead/2]) || !strings.HasSuffix(tc.in, got[len(got)-keepTail/2:]) {
			t.Errorf("%s: the head or the tail is not the text's", tc.name)
		}
	}
	// The count is exact: the lines shown and the lines left out are all the lines.
	got := cut(flood.String(), "en")
	var left int
	for _, l := range strings.Split(got, "\n") {
		if _, err := fmt.Sscanf(l, "… %d lines left out …", &left); err == nil {
			break
		}
	}
	if shown := strings.Count(got, "\n") - 1; shown+left != 100000 {
		t.Errorf("%d lines shown and %d left out, of 100000", shown, left)
	}
}

// answerSize is the bytes of res as the JSON-RPC result a host reads.
func answerSize(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// validResult checks a run_python answer's structured content against the
// tool's output schema.
func validResult(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(resultSchema, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var v map[string]any
	json.Unmarshal(b, &v)
	if err := rs.Validate(v); err != nil {
		t.Fatalf("structured content does not fit the output schema: %v", err)
	}
}

func TestAnswersFitChatHosts(t *testing.T) {
	cs := connect(t, newServer(t, sandboxEngine(t), nil, false))
	spiral := "import turtle\nt = turtle.Turtle()\ncolors = ['red', 'orange', 'green', 'blue']\nfor i in range(2000):\n" +
		"    t.pencolor(colors[i % 4])\n    t.forward(i / 4)\n    t.left(91)\n"
	for _, tc := range []struct {
		name, code string
		max        int
		images     int
	}{
		{"a 100,000-line print loop", "for i in range(100000):\n    print('line', i)\n", 64 << 10, 0},
		{"a 2,000-step spiral", spiral, 200 << 10, 1},
	} {
		res := call(t, cs, "run_python", map[string]any{"code": tc.code, "timeout_seconds": 60})
		size := answerSize(t, res)
		t.Logf("%s: %d bytes", tc.name, size)
		if size > tc.max {
			t.Errorf("%s: the answer is %d bytes, more than %d", tc.name, size, tc.max)
		}
		validResult(t, res)
		var r kidrun.Result
		structured(t, res, &r)
		var images int
		for _, c := range res.Content {
			switch c.(type) {
			case *mcp.ImageContent:
				images++
			case *mcp.EmbeddedResource:
				t.Errorf("%s: a picture came twice, as a resource too", tc.name)
			}
		}
		for _, im := range r.Images {
			if im.Data != "" {
				t.Errorf("%s: a picture came twice, in the structured content too", tc.name)
			}
		}
		if images != tc.images || len(r.Images) != tc.images {
			t.Errorf("%s: %d image blocks, %d images in the result; want %d", tc.name, images, len(r.Images), tc.images)
		}
	}
	res := call(t, cs, "run_python", map[string]any{"code": "for i in range(100000):\n    print('line', i)\n"})
	var r kidrun.Result
	structured(t, res, &r)
	if !strings.Contains(textOf(res), "lines left out") || !strings.Contains(r.Stdout, "lines left out") ||
		!strings.HasPrefix(r.Stdout, "line 0\nline 1\n") {
		t.Errorf("the flood's text and stdout are not cut to a head and a tail: %q", r.Stdout[:100])
	}
}

// ink counts the pixels of img darker than mid-grey inside r.
func ink(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c, _, _, _ := img.At(x, y).RGBA(); c < 0x8000 {
				n++
			}
		}
	}
	return n
}

func rasterize(t *testing.T, svg string) image.Image {
	t.Helper()
	b, err := svgToPNG(svg)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestPNGDrawsWriteText(t *testing.T) {
	if fonts(false) == nil {
		t.Skip("no font for text on this machine (scripts/setup.sh installs fonts-noto-cjk)")
	}
	page := func(body string) string {
		return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-100 -50 200 100" width="200" height="100">` +
			`<rect x="-100" y="-50" width="200" height="100" fill="#ffffff"/>` + body + `</svg>`
	}
	text := func(s, anchor string) string {
		return `<text x="0" y="10" font-family="&#39;Arial&#39;, sans-serif" font-size="24" fill="#000000"` + anchor + `>` + s + `</text>`
	}
	all := image.Rect(0, 0, 200, 100)
	blank := rasterize(t, page(""))
	if n := ink(blank, all); n != 0 {
		t.Fatalf("a blank drawing has %d dark pixels", n)
	}
	hello := rasterize(t, page(text("hello", "")))
	if n := ink(hello, all); n < 50 {
		t.Fatalf("write('hello') drew %d dark pixels", n)
	}
	// Left-aligned text starts at x: nothing left of it; centred text is around it.
	if n := ink(hello, image.Rect(0, 0, 98, 100)); n != 0 {
		t.Errorf("left-aligned text has %d dark pixels left of its x", n)
	}
	centred := rasterize(t, page(text("hello", ` text-anchor="middle"`)))
	if ink(centred, image.Rect(0, 0, 100, 100)) == 0 || ink(centred, image.Rect(100, 0, 200, 100)) == 0 {
		t.Error("centred text is not on both sides of its x")
	}
	// Chinese is drawn with its own glyphs, not one missing-glyph box for each.
	ni, hao := rasterize(t, page(text("你", ""))), rasterize(t, page(text("好", "")))
	if ink(ni, all) < 30 || ink(ni, all) == ink(hao, all) {
		t.Errorf("你 and 好 drew %d and %d dark pixels", ink(ni, all), ink(hao, all))
	}
	// Bounded: a thousand texts cost no more than maxTexts of them.
	if got := len(textsOf(page(strings.Repeat(text("x", ""), 1000)))); got != maxTexts {
		t.Errorf("%d texts read of a thousand, want %d", got, maxTexts)
	}
	if got := textsOf(page(text(strings.Repeat("长", 1000), ""))); len([]rune(got[0].text)) != maxTextRunes {
		t.Errorf("a text of 1000 characters kept %d", len([]rune(got[0].text)))
	}
}

func TestPalettedKeepsEveryColour(t *testing.T) {
	few := image.NewRGBA(image.Rect(0, 0, 20, 20))
	for i := range few.Pix {
		few.Pix[i] = 255
	}
	few.Set(3, 4, color.RGBA{R: 250, G: 250, B: 250, A: 255}) // a faint line's edge
	few.Set(5, 6, color.RGBA{R: 200, A: 255})
	p, ok := paletted(few).(*image.Paletted)
	if !ok {
		t.Fatal("an image of three colours was not made paletted")
	}
	for y := range 20 {
		for x := range 20 {
			if p.At(x, y) != few.At(x, y) {
				t.Fatalf("pixel %d,%d is %v, was %v", x, y, p.At(x, y), few.At(x, y))
			}
		}
	}
	// Past 256 colours nothing is rounded to a palette: the image stays as it is.
	many := image.NewRGBA(image.Rect(0, 0, 300, 1))
	for x := range 300 {
		many.Set(x, 0, color.RGBA{R: uint8(x), G: uint8(x >> 8), A: 255})
	}
	if got := paletted(many); got != image.Image(many) {
		t.Fatalf("an image of 300 colours became %T", got)
	}
}
