package mcpserver

import (
	"encoding/xml"
	"image"
	"image/color"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Bounds of the write() text drawn into a turtle PNG: a program that writes
// without end costs no more than this.
const (
	maxTexts     = 200 // text elements drawn; the rest are left out
	maxTextRunes = 200 // characters of one text
	maxTextPx    = 256 // font size in pixels
)

// svgText is one <text> of a turtle drawing, in the SVG's coordinates.
type svgText struct {
	x, y, size float64
	anchor     string // "", "middle" or "end"
	bold       bool
	fill       color.RGBA
	text       string
}

// textsOf reads the drawing's text elements (kidrun's images checked the
// SVG: no transforms, no styles). A malformed SVG gives what was read.
func textsOf(svg string) []svgText {
	var out []svgText
	dec := xml.NewDecoder(strings.NewReader(svg))
	var cur *svgText
	for len(out) < maxTexts {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "text" {
				continue
			}
			cur = &svgText{size: 16, fill: color.RGBA{A: 255}}
			for _, a := range t.Attr {
				switch a.Name.Local {
				case "x":
					cur.x, _ = strconv.ParseFloat(a.Value, 64)
				case "y":
					cur.y, _ = strconv.ParseFloat(a.Value, 64)
				case "font-size":
					if v, err := strconv.ParseFloat(a.Value, 64); err == nil && v > 0 {
						cur.size = v
					}
				case "text-anchor":
					cur.anchor = a.Value
				case "font-weight":
					cur.bold = a.Value == "bold"
				case "fill":
					cur.fill = hexColor(a.Value)
				}
			}
		case xml.CharData:
			if cur != nil {
				cur.text += string(t)
			}
		case xml.EndElement:
			if t.Name.Local == "text" && cur != nil {
				if r := []rune(strings.TrimSpace(cur.text)); len(r) > 0 {
					cur.text = string(r[:min(len(r), maxTextRunes)])
					out = append(out, *cur)
				}
				cur = nil
			}
		}
	}
	return out
}

// hexColor reads #rgb or #rrggbb; anything else is black.
func hexColor(v string) color.RGBA {
	v = strings.TrimPrefix(v, "#")
	if len(v) == 3 {
		v = string([]byte{v[0], v[0], v[1], v[1], v[2], v[2]})
	}
	n, err := strconv.ParseUint(v, 16, 32)
	if len(v) != 6 || err != nil {
		return color.RGBA{A: 255}
	}
	return color.RGBA{R: uint8(n >> 16), G: uint8(n >> 8), B: uint8(n), A: 255}
}

// drawText draws texts onto img, whose pixel (0, 0) is the SVG's (vx, vy)
// and whose pixels are scale SVG units. Without a font nothing is drawn.
func drawText(img *image.RGBA, texts []svgText, vx, vy, scale float64) {
	for _, t := range texts {
		f := fonts(t.bold)
		if f == nil {
			return
		}
		size := min(t.size*scale, maxTextPx)
		if size < 1 {
			continue
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			continue
		}
		d := &font.Drawer{Dst: img, Src: image.NewUniform(t.fill), Face: face}
		x := (t.x - vx) * scale
		switch t.anchor {
		case "middle":
			x -= float64(d.MeasureString(t.text)) / 64 / 2
		case "end":
			x -= float64(d.MeasureString(t.text)) / 64
		}
		d.Dot = fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6((t.y - vy) * scale * 64)}
		d.DrawString(t.text)
		face.Close()
	}
}

// fontFiles are the fonts tried for text, in order: Noto Sans CJK (Debian's
// fonts-noto-cjk, which scripts/setup.sh installs) has both Chinese and
// Latin; the others are what other systems have.
var fontFiles = map[bool][]string{
	false: {"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
		"/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc", "/System/Library/Fonts/STHeiti Light.ttc",
		"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"},
	true: {"/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
		"/usr/share/fonts/google-noto-cjk/NotoSansCJK-Bold.ttc", "/System/Library/Fonts/STHeiti Medium.ttc",
		"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"},
}

var (
	fontOnce [2]sync.Once
	fontOf   [2]*opentype.Font
)

// fonts is the font for regular or bold text, opened once; a missing bold
// font is the regular one. nil when none is there.
func fonts(bold bool) *opentype.Font {
	i := 0
	if bold {
		i = 1
	}
	fontOnce[i].Do(func() { fontOf[i] = openFont(fontFiles[bold]) })
	if fontOf[i] == nil && bold {
		return fonts(false)
	}
	return fontOf[i]
}

// openFont opens the first of files that is a font; of a collection, the
// Simplified Chinese face. The file stays open: the font is read from it
// glyph by glyph rather than held in memory (Noto's collections are 20 MiB).
func openFont(files []string) *opentype.Font {
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if strings.HasSuffix(path, ".ttc") {
			c, err := opentype.ParseCollectionReaderAt(f)
			if err != nil {
				f.Close()
				continue
			}
			var first *opentype.Font
			for i := range c.NumFonts() {
				face, err := c.Font(i)
				if err != nil {
					continue
				}
				if first == nil {
					first = face
				}
				if name, _ := face.Name(nil, 1); strings.HasSuffix(name, " SC") {
					return face
				}
			}
			if first != nil {
				return first
			}
			f.Close()
			continue
		}
		if face, err := opentype.ParseReaderAt(f); err == nil {
			return face
		}
		f.Close()
	}
	return nil
}
