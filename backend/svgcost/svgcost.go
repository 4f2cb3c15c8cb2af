package svgcost

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cost is what an SVG asks of whoever draws it. Lengths are upper bounds,
// so a cost is never less than the drawing's.
type Cost struct {
	// Elements counts every element.
	Elements int
	// Draws counts the fills and strokes of shapes: each shape (path,
	// line, polyline, polygon, circle, ellipse, rect) whose fill is not
	// none, and each whose stroke is set and not none. A scanline
	// rasterizer goes over its whole picture for each.
	Draws int
	// Points counts the points of shapes, control points included.
	Points int
	// Dashes counts dash segments as SVG dashes: along each dashed shape
	// and text, its length over its mean dash-array entry, both in its own
	// user units, whatever the transforms.
	Dashes float64
	// RasterDashes counts the dash segments of a rasterizer that reads dash
	// lengths as output pixels and rounds each down to 1/64 pixel
	// (rasterx, which oksvg draws with), per output pixel a root user unit
	// covers: multiply by the output's scale.
	RasterDashes float64
	// OffsetSteps counts the steps such a rasterizer takes to walk to the
	// dash offset, once per subpath, at any scale.
	OffsetSteps float64
}

// textOutline bounds the outline of one glyph, in ems: a dashed text is
// dashed along its glyphs' outlines, and a dense Chinese character's is
// some tens of ems long.
const textOutline = 64

// rasterQuantum is the unit rasterx rounds dash lengths down to (26.6 fixed
// point), and rasterMaxOffset the largest dash offset it can hold.
const (
	rasterQuantum   = 1.0 / 64
	rasterMaxOffset = 1 << 25
)

// frame is the style in force in one open element.
type frame struct {
	name     string
	fillNone bool      // fill is none
	stroke   bool      // stroke is set and not none
	dash     []float64 // the dash array; nil: none
	offset   float64
	fontSize float64 // pixels
	scale    float64 // bound on how much the transforms down to here stretch a length
}

// Meter adds up the cost of an SVG element by element, as a walk over it
// meets them: Start for each start tag, Text for character data, End for
// each end tag. Inherited presentation attributes are followed as SVG
// renderers follow them; a style sheet or style attribute is not read.
type Meter struct {
	stack []frame
	cost  Cost
}

// Cost is what the elements met so far ask for.
func (m *Meter) Cost() Cost { return m.cost }

// Start meets a start tag with its attributes.
func (m *Meter) Start(name string, attrs []xml.Attr) {
	f := frame{fontSize: 16, scale: 1}
	if n := len(m.stack); n > 0 {
		f = m.stack[n-1]
	}
	f.name = name
	get := func(key string) (string, bool) {
		for _, a := range attrs {
			if a.Name.Space == "" && a.Name.Local == key {
				v := strings.TrimSpace(a.Value)
				return v, v != "inherit"
			}
		}
		return "", false
	}
	if v, ok := get("fill"); ok {
		f.fillNone = v == "none"
	}
	if v, ok := get("stroke"); ok {
		f.stroke = v != "none" && v != ""
	}
	if v, ok := get("stroke-dasharray"); ok {
		f.dash = dashArray(v)
	}
	if v, ok := get("stroke-dashoffset"); ok {
		f.offset, _ = strconv.ParseFloat(v, 64)
	}
	if v, ok := get("font-size"); ok {
		f.fontSize = fontSize(v, f.fontSize)
	}
	if v, ok := get("transform"); ok {
		f.scale *= transformBound(v)
	}
	m.stack = append(m.stack, f)
	m.cost.Elements++

	num := func(key string) float64 {
		v, _ := get(key)
		return length(v)
	}
	var s shape
	switch name {
	case "path":
		d, _ := get("d")
		s = pathShape(d)
	case "polyline", "polygon":
		p, _ := get("points")
		s = pointsShape(p, name == "polygon")
	case "line":
		s = shape{length: math.Hypot(num("x2")-num("x1"), num("y2")-num("y1")), points: 2, subpaths: 1}
	case "rect":
		s = shape{length: 2 * (math.Abs(num("width")) + math.Abs(num("height"))), points: 8, subpaths: 1}
	case "circle":
		s = shape{length: 2 * math.Pi * math.Abs(num("r")), points: 12, subpaths: 1}
	case "ellipse":
		s = shape{length: 4 * (math.Abs(num("rx")) + math.Abs(num("ry"))), points: 12, subpaths: 1}
	default:
		return
	}
	if !f.fillNone && name != "line" {
		m.cost.Draws++
	}
	if f.stroke {
		m.cost.Draws++
	}
	m.cost.Points += s.points
	m.dashes(f, s, true)
}

// Text meets character data inside the innermost open element.
func (m *Meter) Text(b []byte) {
	if n := len(m.stack); n > 0 {
		if f := m.stack[n-1]; f.name == "text" || f.name == "tspan" {
			glyphs := float64(utf8.RuneCount(bytes.TrimSpace(b)))
			m.dashes(f, shape{length: glyphs * f.fontSize * textOutline}, false)
		}
	}
}

// End meets an end tag.
func (m *Meter) End() {
	if n := len(m.stack); n > 0 {
		m.stack = m.stack[:n-1]
	}
}

// dashes adds the dash segments of s drawn with f's dash array; raster:
// s is a shape a rasterizer draws (it draws no text).
func (m *Meter) dashes(f frame, s shape, raster bool) {
	if len(f.dash) == 0 {
		return
	}
	var sum, fixed float64
	for _, v := range f.dash {
		sum += v
		// rasterx converts each entry to an int32 of 1/64 pixels; one too
		// large for it comes out negative, which counts as 0.
		if q := math.Floor(v / rasterQuantum); q < math.MaxInt32 {
			fixed += q
		}
	}
	n := float64(len(f.dash))
	if sum > 0 {
		m.cost.Dashes += s.length * n / sum
	}
	if raster && fixed > 0 {
		perPixel := n / (fixed * rasterQuantum)
		m.cost.RasterDashes += s.length * f.scale * perPixel
		m.cost.OffsetSteps += float64(s.subpaths) * min(max(f.offset, 0), rasterMaxOffset) * perPixel
	}
}

// dashArray reads a dash array: nil for none, and a negative entry (which
// makes it invalid) as 0, so a cost is never less than the drawing's.
func dashArray(v string) []float64 {
	if v == "none" || v == "" {
		return nil
	}
	var out []float64
	p := pathScanner{s: v}
	for {
		x, ok := p.number()
		if !ok {
			break
		}
		out = append(out, max(x, 0))
	}
	if p.space(); !p.done() {
		return nil // not a list of numbers: renderers ignore it
	}
	return out
}

// length is a plain number, optionally in px; any other unit or a
// percentage is unbounded here, so a dashed shape sized that way costs
// without bound.
func length(v string) float64 {
	if v == "" {
		return 0
	}
	x, err := strconv.ParseFloat(strings.TrimSuffix(v, "px"), 64)
	if err != nil {
		return math.Inf(1)
	}
	return x
}

// fontSize is a font-size in pixels, given the parent's: a number in px,
// pt, em or %; any other form is unbounded here.
func fontSize(v string, parent float64) float64 {
	unit := 1.0
	for _, u := range []struct {
		suffix string
		factor float64
	}{{"px", 1}, {"pt", 4.0 / 3}, {"em", parent}, {"%", parent / 100}} {
		if s, ok := strings.CutSuffix(v, u.suffix); ok {
			v, unit = s, u.factor
			break
		}
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return math.Inf(1)
	}
	return math.Abs(x) * unit
}

// transformBound bounds how much a transform list stretches a length: the
// product of each function's bound (a matrix's Frobenius norm, a scale's
// larger factor, 1 + |tan| for a skew). A list renderers cannot read is
// ignored by them, and is 1 here.
func transformBound(v string) float64 {
	bound := 1.0
	rest := v
	for {
		rest = strings.TrimLeft(rest, " \t\r\n,")
		if rest == "" {
			return bound
		}
		open := strings.IndexByte(rest, '(')
		end := strings.IndexByte(rest, ')')
		if open < 0 || end < open {
			return 1
		}
		name := strings.TrimSpace(rest[:open])
		var args []float64
		p := pathScanner{s: rest[open+1 : end]}
		for {
			x, ok := p.number()
			if !ok {
				break
			}
			args = append(args, x)
		}
		if p.space(); !p.done() || len(args) == 0 {
			return 1
		}
		switch name {
		case "matrix":
			if len(args) != 6 {
				return 1
			}
			bound *= math.Sqrt(args[0]*args[0] + args[1]*args[1] + args[2]*args[2] + args[3]*args[3])
		case "scale":
			sy := args[0]
			if len(args) > 1 {
				sy = args[1]
			}
			bound *= max(math.Abs(args[0]), math.Abs(sy))
		case "skewX", "skewY":
			bound *= 1 + math.Abs(math.Tan(args[0]*math.Pi/180))
		case "translate", "rotate":
		default:
			return 1
		}
		rest = rest[end+1:]
	}
}

// Measure walks svg and returns its cost; an SVG that is not well-formed
// XML is an error, with the cost of what was read.
func Measure(svg []byte) (Cost, error) {
	var m Meter
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return m.Cost(), nil
		}
		if err != nil {
			return m.Cost(), err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			m.Start(t.Name.Local, t.Attr)
		case xml.EndElement:
			m.End()
		case xml.CharData:
			m.Text(t)
		}
	}
}
