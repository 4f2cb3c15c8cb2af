package kidrun

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"kidcoder/sandbox"
)

// The SVG fixtures in testdata/images are the runner's own output
// (`kidcoder run --out`) for corpus/flower.py, corpus/tree.py and
// testdata/images/rich.py (fills, dots, stamps, a visible turtle shape,
// escaped one- and two-line text); plot-1.png is corpus/plot.py's first figure.

// svgNode is an SVG document as a tree, for comparing meaning rather than bytes.
type svgNode struct {
	Name  xml.Name
	Attrs map[xml.Name]string
	Text  string
	Kids  []*svgNode
}

func parseSVGTree(t *testing.T, b []byte) *svgNode {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []*svgNode
	var root *svgNode
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			n := &svgNode{Name: tk.Name, Attrs: map[xml.Name]string{}}
			for _, a := range tk.Attr {
				n.Attrs[a.Name] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.Kids = append(p.Kids, n)
			} else if root == nil {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].Text += string(tk)
			}
		}
	}
	if root == nil {
		t.Fatal("no root element")
	}
	return root
}

// sameSVG reports the first difference between two trees, "" if none.
func sameSVG(a, b *svgNode, path string) string {
	path += "/" + a.Name.Local
	if a.Name != b.Name {
		return fmt.Sprintf("%s: element %v became %v", path, a.Name, b.Name)
	}
	if strings.TrimSpace(a.Text) != strings.TrimSpace(b.Text) {
		return fmt.Sprintf("%s: text %q became %q", path, a.Text, b.Text)
	}
	for k, v := range a.Attrs {
		if w, ok := b.Attrs[k]; !ok || w != v {
			return fmt.Sprintf("%s: attribute %v=%q became %q (present %v)", path, k, v, w, ok)
		}
	}
	for k := range b.Attrs {
		if _, ok := a.Attrs[k]; !ok {
			return fmt.Sprintf("%s: attribute %v appeared", path, k)
		}
	}
	if len(a.Kids) != len(b.Kids) {
		return fmt.Sprintf("%s: %d children became %d", path, len(a.Kids), len(b.Kids))
	}
	for i := range a.Kids {
		if d := sameSVG(a.Kids[i], b.Kids[i], path); d != "" {
			return d
		}
	}
	return ""
}

func countSVG(n *svgNode) int {
	c := 1
	for _, k := range n.Kids {
		c += countSVG(k)
	}
	return c
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "images", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The runner's drawings keep every element, attribute and text through the
// sanitiser, and sanitising again changes nothing.
func TestSanitizeSVGKeepsRunnerDrawings(t *testing.T) {
	for _, name := range []string{"flower.svg", "tree.svg", "rich.svg"} {
		t.Run(name, func(t *testing.T) {
			in := readFixture(t, name)
			out, err := sanitizeSVG(in)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			before, after := parseSVGTree(t, in), parseSVGTree(t, out)
			if d := sameSVG(before, after, ""); d != "" {
				t.Fatalf("meaning changed: %s", d)
			}
			if countSVG(before) < 3 {
				t.Fatalf("fixture holds only %d elements", countSVG(before))
			}
			again, err := sanitizeSVG(out)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("not a fixed point (err %v)", err)
			}
		})
	}
}

// assertSafeSVG checks what any kept SVG must be: well-formed, an SVG root,
// and nothing outside the allow-lists or able to run or fetch anything.
func assertSafeSVG(t *testing.T, out []byte) {
	t.Helper()
	root := parseSVGTree(t, out)
	if root.Name != (xml.Name{Space: svgNS, Local: "svg"}) {
		t.Errorf("root %v", root.Name)
	}
	var walk func(n *svgNode)
	walk = func(n *svgNode) {
		if n.Name.Space != svgNS || !svgElements[n.Name.Local] {
			t.Errorf("element %v kept", n.Name)
		}
		for k, v := range n.Attrs {
			if k.Local == "xmlns" && k.Space == "" && n == root && v == svgNS {
				continue
			}
			if k.Space != "" || !svgAttrs[k.Local] {
				t.Errorf("attribute %v kept", k)
			}
		}
		for _, k := range n.Kids {
			walk(k)
		}
	}
	walk(root)
	low := strings.ToLower(string(out))
	for _, bad := range []string{"<script", "javascript:", "url(", "href", "onload", "onclick", "<!", "<?", "style"} {
		if strings.Contains(low, bad) {
			t.Errorf("output holds %q: %s", bad, out)
		}
	}
	if again, err := sanitizeSVG(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("output not a fixed point (err %v)", err)
	}
}

const svgOpen = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">`

func TestSanitizeSVGHostile(t *testing.T) {
	laughs := `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">` +
		`<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>` +
		svgOpen + `<text>&lol2;</text></svg>`
	tests := []struct {
		name string
		in   string
		keep []string // substrings the output must hold; nil means refused
	}{
		{"script", svgOpen + `<script>alert(1)</script><script type="text/ecmascript"><![CDATA[alert(2)]]></script><circle r="5"/></svg>`,
			[]string{`<circle r="5"/>`}},
		{"event handlers", strings.Replace(svgOpen, "<svg ", `<svg onload="alert(1)" `, 1) + `<circle r="5" onclick="alert(2)" onmouseover="x()"/></svg>`,
			[]string{`<circle r="5"/>`}},
		{"foreignObject", svgOpen + `<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script><iframe src="http://evil"/></body></foreignObject><rect width="1"/></svg>`,
			[]string{`<rect width="1"/>`}},
		{"javascript link", svgOpen + `<a xlink:href="javascript:alert(1)"><circle r="5"/></a><a href="javascript:alert(2)">x</a><rect width="2"/></svg>`,
			[]string{`<rect width="2"/>`}},
		{"image href", svgOpen + `<image href="http://evil/x.png" width="10"/><image xlink:href="file:///etc/passwd"/><use href="#a"/><rect width="3"/></svg>`,
			[]string{`<rect width="3"/>`}},
		{"href on a kept element", svgOpen + `<rect width="4" href="http://evil" xlink:href="http://evil" xml:base="http://evil"/></svg>`,
			[]string{`<rect width="4"/>`}},
		{"style attribute and element", svgOpen + `<style>rect{fill:url(http://evil/x)} @import "http://evil";</style><rect width="5" style="fill:url(http://evil/y)"/></svg>`,
			[]string{`<rect width="5"/>`}},
		{"url in paint", svgOpen + `<rect width="6" fill="url(http://evil/x)" stroke="URL(#g)"/><circle r="1" fill="&#x75;rl(#x)" stroke="\75 rl(#y)"/><text font-family="a, uRl(#z)">t</text></svg>`,
			[]string{`<rect width="6"/>`, `<circle r="1"/>`, `<text>t</text>`}},
		{"url and script in transform", svgOpen + `<g transform="url(#x) scale(2)"><path d="M0 0" transform="scale(.1) rotate(30, 1 2)"/></g><g transform="expression(alert(1))"/></svg>`,
			[]string{`<g><path d="M0 0" transform="scale(.1) rotate(30, 1 2)"/></g>`}},
		{"pointer attributes", svgOpen + `<rect width="7" clip-path="url(#c)" mask="url(#m)" filter="url(#f)" marker-end="url(#e)" class="c" id="i"/></svg>`,
			[]string{`<rect width="7"/>`}},
		{"animation", svgOpen + `<rect width="8"><set attributeName="onload" to="alert(1)"/><animate attributeName="href" values="javascript:alert(1)"/></rect></svg>`,
			[]string{`<rect width="8"/>`}},
		{"comments and processing instructions", `<?xml version="1.0"?><?xml-stylesheet href="http://evil/s.css"?>` + svgOpen + `<!-- a comment --><rect width="9"/></svg>`,
			[]string{`<rect width="9"/>`}},
		{"another namespace inside", svgOpen + `<g xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></g><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(2)</h:script><rect width="10"/></svg>`,
			[]string{`<rect width="10"/>`}},
		{"nested svg", svgOpen + `<svg onload="alert(1)"><rect width="1"/></svg><rect width="11"/></svg>`,
			[]string{`<rect width="11"/>`}},
		{"markup in text stays text", svgOpen + `<text x="1">&lt;script&gt;alert(1)&lt;/script&gt;<![CDATA[<img src=x onerror=alert(2)>]]></text></svg>`,
			[]string{`<text x="1">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</text>`}},
		{"quotes in attributes escaped", svgOpen + `<text font-family="a&quot; fill=&quot;red" x="&lt;">t</text></svg>`,
			[]string{`<text font-family="a&quot; fill=&quot;red" x="&lt;">t</text>`}},
		{"duplicate attributes", svgOpen + `<rect width="1" width="2"/></svg>`, []string{`<rect width="1"/>`}},
		{"twenty groups deep", svgOpen + strings.Repeat("<g>", 20) + `<rect width="12"/>` + strings.Repeat("</g>", 20) + `</svg>`,
			[]string{`<rect width="12"/>`}},

		{"billion laughs", laughs, nil},
		{"external DTD", `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://evil/svg11.dtd">` + svgOpen + `</svg>`, nil},
		{"external entity", `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>` + svgOpen + `<text>&x;</text></svg>`, nil},
		{"undeclared entity", svgOpen + `<text>&x;</text></svg>`, nil},
		{"deeply nested groups", svgOpen + strings.Repeat("<g>", 100) + strings.Repeat("</g>", 100) + `</svg>`, nil},
		{"very deeply nested groups", svgOpen + strings.Repeat("<g>", 200000) + strings.Repeat("</g>", 200000) + `</svg>`, nil},
		{"too many elements", svgOpen + strings.Repeat(`<g/>`, maxSVGElements) + `</svg>`, nil},
		{"html root", `<html><body><script>alert(1)</script></body></html>`, nil},
		{"svg root without namespace", `<svg viewBox="0 0 1 1"><rect width="1"/></svg>`, nil},
		{"svg root in another namespace", `<x:svg xmlns:x="http://evil/ns"><rect width="1"/></x:svg>`, nil},
		{"two roots", svgOpen + `</svg>` + svgOpen + `</svg>`, nil},
		{"unclosed", svgOpen + `<g><rect width="1"/>`, nil},
		{"empty", ``, nil},
		{"not UTF-8", svgOpen + "<text>\xff\xfe</text></svg>", nil},
		{"other encoding", `<?xml version="1.0" encoding="ISO-8859-1"?>` + svgOpen + `</svg>`, nil},
		{"huge", svgOpen + `<text>` + strings.Repeat("a", maxImageBytes) + `</text></svg>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := sanitizeSVG([]byte(tt.in))
			if tt.keep == nil {
				if err == nil {
					t.Fatalf("kept: %.300s", out)
				}
				if !errors.Is(err, errBadImage) {
					t.Errorf("error %v is not errBadImage", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			for _, k := range tt.keep {
				if !bytes.Contains(out, []byte(k)) {
					t.Errorf("output lacks %s:\n%s", k, out)
				}
			}
			assertSafeSVG(t, out)
		})
	}
}

// pngChunk is one chunk with its length and CRC.
func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

func ihdr(w, h uint32, depth, colour, lace byte) []byte {
	d := binary.BigEndian.AppendUint32(nil, w)
	d = binary.BigEndian.AppendUint32(d, h)
	return pngChunk("IHDR", append(d, depth, colour, 0, 0, lace))
}

func deflate(raw []byte) []byte {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	zw.Write(raw)
	zw.Close()
	return b.Bytes()
}

func pngOf(chunks ...[]byte) []byte {
	return bytes.Join(append([][]byte{pngSig}, chunks...), nil)
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// samePixels fails unless a and b decode to the same picture.
func samePixels(t *testing.T, a, b []byte) {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("original does not decode: %v", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("checked PNG does not decode: %v", err)
	}
	if ia.Bounds() != ib.Bounds() {
		t.Fatalf("bounds %v became %v", ia.Bounds(), ib.Bounds())
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if color.NRGBA64Model.Convert(ia.At(x, y)) != color.NRGBA64Model.Convert(ib.At(x, y)) {
				t.Fatalf("pixel %d,%d changed", x, y)
			}
		}
	}
}

// interlacedGrey is a 5×3 8-bit grey Adam7 PNG built by hand (image/png
// only writes non-interlaced ones), its pixel at x,y holding 40*y+x.
func interlacedGrey() []byte {
	var raw []byte
	passes := [][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}
	for _, p := range passes {
		for y := p[1]; y < 3; y += p[3] {
			if p[0] >= 5 {
				break
			}
			raw = append(raw, 0)
			for x := p[0]; x < 5; x += p[2] {
				raw = append(raw, byte(40*y+x))
			}
		}
	}
	return pngOf(ihdr(5, 3, 8, 0, 1), pngChunk("IDAT", deflate(raw)), pngChunk("IEND", nil))
}

func TestCheckPNGKeepsPictures(t *testing.T) {
	gradient := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			gradient.SetNRGBA(x, y, color.NRGBA{uint8(x * 4), uint8(y * 5), 128, uint8(255 - x)})
		}
	}
	pal := image.NewPaletted(image.Rect(0, 0, 7, 5), color.Palette{color.White, color.Black, color.NRGBA{255, 0, 0, 128}})
	pal.SetColorIndex(3, 2, 2)
	grey16 := image.NewGray16(image.Rect(0, 0, 3, 9))
	grey16.SetGray16(1, 1, color.Gray16{Y: 0xabcd})
	withText := encodePNG(t, gradient)
	// Text, ICC profile and animation chunks between IHDR and IDAT.
	extra := bytes.Join([][]byte{pngChunk("tEXt", []byte("Comment\x00<script>alert(1)</script>")),
		pngChunk("iCCP", []byte("x\x00\x00junk")), pngChunk("acTL", make([]byte, 8)), pngChunk("zzZz", []byte("?"))}, nil)
	withText = append(append(append([]byte{}, withText[:33]...), extra...), withText[33:]...)

	tests := []struct {
		name string
		in   []byte
	}{
		{"matplotlib figure", readFixture(t, "plot-1.png")},
		{"RGBA", encodePNG(t, gradient)},
		{"paletted", encodePNG(t, pal)},
		{"16-bit grey", encodePNG(t, grey16)},
		{"one pixel", encodePNG(t, image.NewGray(image.Rect(0, 0, 1, 1)))},
		{"interlaced", interlacedGrey()},
		{"ancillary chunks", withText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := checkPNG(tt.in)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			samePixels(t, tt.in, out)
			for _, typ := range []string{"tEXt", "iCCP", "acTL", "zzZz"} {
				if bytes.Contains(out, []byte(typ)) {
					t.Errorf("chunk %s kept", typ)
				}
			}
		})
	}
}

func TestCheckPNGHostile(t *testing.T) {
	good := encodePNG(t, image.NewGray(image.Rect(0, 0, 4, 4)))
	idatAt := bytes.Index(good, []byte("IDAT")) - 4
	head, idat, end := good[:idatAt], good[idatAt:len(good)-12], good[len(good)-12:]
	iend := pngChunk("IEND", nil)
	rows := func(n, width int) []byte { return make([]byte, n*(1+width)) }
	badCRC := bytes.Clone(good)
	badCRC[idatAt+9] ^= 0x40
	badCRCKeepLen := bytes.Clone(good)
	badCRCKeepLen[len(good)-1] ^= 1
	badFilter := rows(4, 4)
	badFilter[5] = 7
	tests := []struct {
		name string
		in   []byte
	}{
		{"bad signature", append([]byte("\x89PNG\r\n\x1a\x0a"[:7]+"X"), good[8:]...)},
		{"GIF", []byte("GIF89a\x01\x00\x01\x00")},
		{"signature only", pngSig},
		{"bad CRC in IDAT", badCRC},
		{"bad CRC in IEND", badCRCKeepLen},
		{"huge width", pngOf(ihdr(1<<31-1, 1, 8, 0, 0), pngChunk("IDAT", deflate(rows(1, 1))), iend)},
		{"side over the bound", pngOf(ihdr(maxPNGSide+1, 1, 8, 0, 0), pngChunk("IDAT", deflate(rows(1, maxPNGSide+1))), iend)},
		{"pixels over the bound", pngOf(ihdr(maxPNGSide, maxPNGSide, 1, 0, 0), pngChunk("IDAT", deflate(nil)), iend)},
		{"zero height", pngOf(ihdr(4, 0, 8, 0, 0), pngChunk("IDAT", deflate(nil)), iend)},
		{"truncated in a chunk", good[:len(good)-20]},
		{"truncated before IEND", good[:len(good)-12]},
		{"trailing junk", append(bytes.Clone(good), "<script>alert(1)</script>"...)},
		{"chunk after IEND", append(bytes.Clone(good), pngChunk("tEXt", []byte("a\x00b"))...)},
		{"length past the end", append(append(bytes.Clone(head), 0xff, 0xff, 0xff, 0xff), "IDATdata"...)},
		{"IHDR not first", pngOf(pngChunk("gAMA", []byte{0, 0, 0, 1}), head[8:], idat, end)},
		{"two IHDRs", pngOf(head[8:], head[8:], idat, end)},
		{"unknown critical chunk", pngOf(head[8:], pngChunk("EVIL", nil), idat, end)},
		{"chunk type not letters", pngOf(head[8:], pngChunk("a<b>", nil), idat, end)},
		{"no IDAT", pngOf(head[8:], end)},
		{"IDAT split by another chunk", pngOf(head[8:], pngChunk("IDAT", deflate(rows(4, 4))[:5]), pngChunk("gAMA", []byte{0, 0, 0, 1}), pngChunk("IDAT", deflate(rows(4, 4))[5:]), end)},
		{"palette missing", pngOf(ihdr(4, 4, 8, 3, 0), pngChunk("IDAT", deflate(rows(4, 4))), iend)},
		{"bad depth for colour", pngOf(ihdr(4, 4, 4, 6, 0), pngChunk("IDAT", deflate(rows(4, 8))), iend)},
		{"unknown interlace", pngOf(ihdr(4, 4, 8, 0, 2), pngChunk("IDAT", deflate(rows(4, 4))), iend)},
		{"not zlib", pngOf(ihdr(4, 4, 8, 0, 0), pngChunk("IDAT", rows(4, 4)), iend)},
		{"too few rows", pngOf(ihdr(4, 4, 8, 0, 0), pngChunk("IDAT", deflate(rows(3, 4))), iend)},
		{"more data than rows", pngOf(ihdr(4, 4, 8, 0, 0), pngChunk("IDAT", deflate(rows(5, 4))), iend)},
		{"inflates far past its rows", pngOf(ihdr(1, 1, 8, 0, 0), pngChunk("IDAT", deflate(make([]byte, 50<<20))), iend)},
		{"bad row filter", pngOf(ihdr(4, 4, 8, 0, 0), pngChunk("IDAT", deflate(badFilter)), iend)},
		{"bad zlib checksum", pngOf(ihdr(4, 4, 8, 0, 0), pngChunk("IDAT", func() []byte {
			z := deflate(rows(4, 4))
			z[len(z)-1] ^= 1
			return z
		}()), iend)},
		{"huge", append(bytes.Clone(good[:len(good)-12]), pngChunk("tEXt", make([]byte, maxImageBytes))...)},
	}
	if _, err := checkPNG(good); err != nil {
		t.Fatalf("the good PNG these are made from is refused: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := checkPNG(tt.in)
			if err == nil {
				t.Fatalf("kept (%d bytes)", len(out))
			}
			if !errors.Is(err, errBadImage) {
				t.Errorf("error %v is not errBadImage", err)
			}
		})
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// checkImages keeps the contract's shape: the SVG only first, PNGs after,
// every kept picture rewritten, and an empty list rather than null.
func TestCheckImages(t *testing.T) {
	svg := []byte(svgOpen + `<script>alert(1)</script><rect width="1"/></svg>`)
	pngB := encodePNG(t, image.NewGray(image.Rect(0, 0, 2, 2)))
	in := []Image{
		{Mime: "image/svg+xml", Data: b64(svg)},
		{Mime: "image/png", Data: b64(pngB)},
		{Mime: "image/svg+xml", Data: b64(svg)}, // a second SVG
		{Mime: "image/png", Data: b64([]byte("\x89PNG\r\n\x1a\nfake"))},
		{Mime: "image/png", Data: "not base64!"},
		{Mime: "text/html", Data: b64([]byte("<script>alert(1)</script>"))},
		{Mime: "image/png", Data: b64(pngB)},
	}
	got, left := checkImages(in)
	if left != 0 {
		t.Errorf("%d pictures left out for the run's budget", left)
	}
	if len(got) != 3 || got[0].Mime != "image/svg+xml" || got[1].Mime != "image/png" || got[2].Mime != "image/png" {
		t.Fatalf("kept %d: %+v", len(got), got)
	}
	raw, _ := base64.StdEncoding.DecodeString(got[0].Data)
	if bytes.Contains(raw, []byte("script")) {
		t.Errorf("SVG not sanitised: %s", raw)
	}
	if got, _ := checkImages([]Image{{Mime: "image/png", Data: b64(pngB)}, {Mime: "image/svg+xml", Data: b64(svg)}}); len(got) != 1 || got[0].Mime != "image/png" {
		t.Errorf("an SVG after a PNG: kept %+v", got)
	}
	js, _ := json.Marshal(buildResult(sandbox.Outcome{Status: sandbox.StatusOK}, report{Images: in[3:6]}, sandbox.DefaultPolicy(), "en"))
	if !bytes.Contains(js, []byte(`"images":[]`)) {
		t.Errorf("no pictures kept is not an empty list: %s", js)
	}
}

// runRaw runs code through the real sandbox and returns the result with the
// pictures of the runner's report as they arrived, before any check.
func runRaw(t *testing.T, name string, code []byte) (*Result, []Image) {
	t.Helper()
	// What is checked here is the pictures, not the speed: the test
	// engine's clocks are roomy (kidruntest.RoomyPolicy).
	r, err := testEngine(t).Start(context.Background(), Request{Code: code, Name: name, Lang: "en"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	return res, r.coll.report().Images
}

// What the runner draws for the corpus passes its checks unchanged in
// meaning: the same pictures, every SVG element and attribute, every pixel.
// This runs the Python layer of this tree, so a new element or attribute in
// python/kidsvg.py that the allow-list lacks fails here.
func TestRunnerPicturesSurviveChecks(t *testing.T) {
	progs := map[string]string{
		"flower.py": filepath.Join(corpus(t), "flower.py"),
		"tree.py":   filepath.Join(corpus(t), "tree.py"),
		"plot.py":   filepath.Join(corpus(t), "plot.py"),
		"rich.py":   filepath.Join("testdata", "images", "rich.py"),
	}
	for name, path := range progs {
		t.Run(name, func(t *testing.T) {
			code, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, raw := runRaw(t, name, code)
			if res.Status != "ok" || len(raw) == 0 {
				t.Fatalf("status %s, %d pictures; stderr %q", res.Status, len(raw), res.Stderr)
			}
			if len(res.Images) != len(raw) {
				t.Fatalf("%d pictures reported, %d kept", len(raw), len(res.Images))
			}
			for i := range raw {
				before, _ := base64.StdEncoding.DecodeString(raw[i].Data)
				after, err := base64.StdEncoding.DecodeString(res.Images[i].Data)
				if err != nil || res.Images[i].Mime != raw[i].Mime {
					t.Fatalf("picture %d: %s became %s (%v)", i, raw[i].Mime, res.Images[i].Mime, err)
				}
				if raw[i].Mime == "image/png" {
					samePixels(t, before, after)
					continue
				}
				if d := sameSVG(parseSVGTree(t, before), parseSVGTree(t, after), ""); d != "" {
					t.Errorf("picture %d: %s", i, d)
				}
			}
		})
	}
}

// A child's program that finds the runner's private frame pipe and sends
// its own result frame, then exits before the runner can send the real
// one, gets only checked pictures into the result.
func TestForgedResultFramePicturesChecked(t *testing.T) {
	good := encodePNG(t, image.NewGray(image.Rect(0, 0, 3, 2)))
	code := `import base64, json, os, struct
svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">'
       '<script>alert(2)</script><circle r="7" fill="#123456" onclick="alert(3)"/>'
       '<image href="http://evil/x.png"/><a xlink:href="javascript:alert(4)"><rect width="9"/></a>'
       '<rect width="5" style="fill:url(http://evil/y)"/></svg>')
fake_png = b"\x89PNG\r\n\x1a\n<script>alert(5)</script>"
b64 = lambda b: base64.b64encode(b).decode()
frame = json.dumps({"type": "result", "error": None, "drawing": None,
                    "notices": ["forged frame arrived"],
                    "images": [{"mime": "image/svg+xml", "data": b64(svg.encode())},
                               {"mime": "image/png", "data": b64(fake_png)},
                               {"mime": "image/png", "data": "` + b64(good) + `"}]}).encode()
try:
    fds = sorted(int(n) for n in os.listdir("/proc/self/fd"))
except OSError:
    fds = range(3, 1024)
for fd in fds:
    if fd > 2:
        try:
            os.write(fd, struct.pack(">I", len(frame)) + frame)
        except OSError:
            pass
os._exit(0)
`
	res, _ := runRaw(t, "forge_pictures.py", []byte(code))
	if !slices.Contains(res.Notices, "forged frame arrived") {
		t.Fatalf("the forged frame never reached the host (notices %q, stderr %q): this test proves nothing", res.Notices, res.Stderr)
	}
	if len(res.Images) != 2 || res.Images[0].Mime != "image/svg+xml" || res.Images[1].Mime != "image/png" {
		t.Fatalf("pictures kept: %+v", res.Images)
	}
	svg, _ := base64.StdEncoding.DecodeString(res.Images[0].Data)
	if !bytes.Contains(svg, []byte(`<circle r="7" fill="#123456"/>`)) || !bytes.Contains(svg, []byte(`<rect width="5"/>`)) {
		t.Errorf("the harmless part of the SVG is lost: %s", svg)
	}
	assertSafeSVG(t, svg)
	if pngOut, _ := base64.StdEncoding.DecodeString(res.Images[1].Data); !bytes.Equal(pngOut, good) {
		t.Errorf("the real PNG changed")
	}
}

// The window shows the SVG as an <img> from a data: URI
// (frontend/src/components/DrawingPane.svelte). A real browser engine draws
// each runner SVG and its checked copy to the same pixels at the same size.
func TestCheckedSVGShowsInBrowser(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed")
	}
	names := []string{"flower.svg", "tree.svg", "rich.svg"}
	var js strings.Builder
	for _, name := range names {
		in := readFixture(t, name)
		out, err := sanitizeSVG(in)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&js, "check(%q, %q, %q);\n", name, b64(in), b64(out))
	}
	page := `<html><body><pre id="r"></pre><script>
async function draw(b64) {
  const img = new Image();
  img.src = 'data:image/svg+xml;base64,' + b64;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  let h = 0, ink = 0;
  for (let i = 0; i < d.length; i++) { h = (h * 31 + d[i]) >>> 0; if (d[i] !== 255) ink++; }
  return c.width + 'x' + c.height + ' ink=' + (ink > 0) + ' hash=' + h;
}
function check(name, before, after) {
  Promise.all([draw(before), draw(after)]).then(
    ([a, b]) => { document.getElementById('r').textContent += name + ' ' + (a === b ? 'same ' + a : 'differ ' + a + ' / ' + b) + '\n'; },
    (e) => { document.getElementById('r').textContent += name + ' error ' + e + '\n'; });
}
` + js.String() + `</script></body></html>`
	dir := t.TempDir()
	file := filepath.Join(dir, "page.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--virtual-time-budget=10000", "--dump-dom", "file://"+file)
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	for _, name := range names {
		i := bytes.Index(dom, []byte(name+" "))
		if i < 0 {
			t.Errorf("%s: no verdict from the browser", name)
			continue
		}
		line, _, _ := strings.Cut(string(dom[i:]), "\n")
		if !strings.HasPrefix(line, name+" same ") || !strings.Contains(line, "ink=true") || strings.Contains(line, " 0x0 ") {
			t.Errorf("%s", line)
		}
	}
}

// Costs of the checks, for docs and reviews: go test -bench Image -run ^$ ./kidrun/
func BenchmarkImageSanitizeSVG(b *testing.B) {
	big := svgOpen + strings.Repeat(`<circle cx="-123.4" cy="56.7" r="2.5" fill="#ff8000"/>`, 50000) + `</svg>`
	for _, c := range []struct{ name, path string }{{"flower", "flower.svg"}, {"rich", "rich.svg"}, {"50k-circles", ""}} {
		in := []byte(big)
		if c.path != "" {
			var err error
			if in, err = os.ReadFile(filepath.Join("testdata", "images", c.path)); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := sanitizeSVG(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkImageCheckPNG(b *testing.B) {
	in, err := os.ReadFile(filepath.Join("testdata", "images", "plot-1.png"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("check", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if _, err := checkPNG(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A full decode, the alternative to inflating and counting rows.
	b.Run("image/png-decode", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if _, err := png.Decode(bytes.NewReader(in)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
