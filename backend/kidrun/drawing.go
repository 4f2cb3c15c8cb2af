package kidrun

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// The result's drawing (docs/runner-protocol.md, "Drawing model") comes
// from inside the sandbox like its pictures, and goes to `run --json`,
// run_python's card, pack checks and the window's replay. It is checked as
// the SVG is: rebuilt from the fields of the step kinds the runner writes,
// each value of the type the runner gives it, and within bounds. A drawing
// that is not one the runner could have sent is dropped whole; the SVG
// still shows the picture.

// Bounds on a drawing's values. Positions are kept within maxDrawingCoord
// (beyond it two decimals mean nothing); values the child chooses freely
// are clamped where the SVG renderer (python/kidsvg.py) clamps them.
const (
	maxDrawingCoord = 1e15
	maxDrawingSide  = 1 << 16 // canvas width and height, pixels
	maxPenWidth     = 10000   // pen width and dot diameter
	maxFontPoints   = 1500    // 2000 pixels; a negative size is pixels, as in Tk
	maxShapeSize    = 10000   // a turtle's stretch factor
	maxStampParts   = 256     // ids of one compound stamp
	drawingSlack    = 4 << 10 // the drawing's fields beside its steps and turtles
)

// stepFields are the fields of each step kind, in the runner's order
// (python/kidturtle_record.py STEP_FIELDS, which a test holds this to).
var stepFields = map[string][]string{
	"move":    {"t", "s", "x1", "y1", "x2", "y2", "c", "w"},
	"turn":    {"t", "s", "h"},
	"fill":    {"t", "s", "c", "pts", "z"},
	"dot":     {"t", "s", "x", "y", "d", "c"},
	"text":    {"t", "s", "x", "y", "text", "align", "font", "c"},
	"stamp":   {"t", "s", "id", "x", "y", "h", "shape", "c", "fc", "parts"},
	"unstamp": {"t", "s", "id"},
	"clear":   {"t", "s"},
	"bg":      {"s", "c"},
	"look":    {"t", "s", "shape", "visible", "size", "parts"},
	"del":     {"t", "s", "i"},
}

// optionalField says which fields a step may lack: a pen-up move has no
// colour or width, and clearscreen() names no turtle.
func optionalField(kind, field string) bool {
	return kind == "move" && (field == "c" || field == "w") || kind == "clear" && field == "t"
}

// checkDrawing returns the drawing rebuilt from what was understood of it,
// or nil: for none, for a request that asked for no steps (budget 0), and
// for a drawing whose steps take more than budget bytes of JSON, or whose
// turtles do, or that the runner could not have written.
func checkDrawing(raw json.RawMessage, budget int) json.RawMessage {
	if budget <= 0 || len(raw) == 0 || bytes.Equal(raw, []byte("null")) || len(raw) > 2*budget+drawingSlack {
		return nil
	}
	var d struct {
		Width, Height, View, Bg, Area, Scale, Truncated json.RawMessage
		Steps, Turtles                                  []json.RawMessage
	}
	if json.Unmarshal(raw, &d) != nil || d.Steps == nil || d.Turtles == nil || rawSize(d.Steps) > budget || rawSize(d.Turtles) > budget {
		return nil
	}
	w := &drawingWriter{}
	b := &w.buf
	b.Grow(len(raw))
	ok := w.key(`{"width"`) && w.number(d.Width, 0, maxDrawingSide) &&
		w.key(`,"height"`) && w.number(d.Height, 0, maxDrawingSide) &&
		w.key(`,"view"`) && w.view(d.View) &&
		w.key(`,"bg"`) && w.colour(d.Bg, false)
	if ok && d.Area != nil {
		ok = w.key(`,"area"`) && w.area(d.Area)
	}
	if ok && d.Scale != nil {
		ok = w.key(`,"scale"`) && w.scale(d.Scale)
	}
	if !ok {
		return nil
	}
	b.WriteString(`,"steps":[`)
	for i, s := range d.Steps {
		if i > 0 {
			b.WriteByte(',')
		}
		if !w.step(s, i) {
			return nil
		}
	}
	b.WriteString(`],"turtles":[`)
	for i, t := range d.Turtles {
		if i > 0 {
			b.WriteByte(',')
		}
		if !w.turtle(t) {
			return nil
		}
	}
	b.WriteString(`],"truncated":`)
	if !w.boolean(d.Truncated) {
		return nil
	}
	b.WriteByte('}')
	return json.RawMessage(b.Bytes())
}

// rawSize is the bytes of a JSON array of items.
func rawSize(items []json.RawMessage) int {
	n := 1 + len(items)
	for _, it := range items {
		n += len(it)
	}
	return n
}

// rawStep holds a step's fields as they came, by the runner's names.
type rawStep struct {
	K, T, S, X1, Y1, X2, Y2, X, Y, H, D, C, W, Pts, Z, ID, Shape, Text, Align, Font, Fc, Parts, Visible, Size, I json.RawMessage
}

func (s *rawStep) field(name string) json.RawMessage {
	switch name {
	case "t":
		return s.T
	case "s":
		return s.S
	case "x1":
		return s.X1
	case "y1":
		return s.Y1
	case "x2":
		return s.X2
	case "y2":
		return s.Y2
	case "x":
		return s.X
	case "y":
		return s.Y
	case "h":
		return s.H
	case "d":
		return s.D
	case "c":
		return s.C
	case "w":
		return s.W
	case "pts":
		return s.Pts
	case "z":
		return s.Z
	case "id":
		return s.ID
	case "shape":
		return s.Shape
	case "text":
		return s.Text
	case "align":
		return s.Align
	case "font":
		return s.Font
	case "fc":
		return s.Fc
	case "parts":
		return s.Parts
	case "visible":
		return s.Visible
	case "size":
		return s.Size
	case "i":
		return s.I
	}
	return nil
}

// drawingWriter writes the checked drawing; each method checks one value,
// writes it and says whether it was one the runner could have written.
type drawingWriter struct {
	buf bytes.Buffer
}

func (w *drawingWriter) key(k string) bool {
	w.buf.WriteString(k)
	w.buf.WriteByte(':')
	return true
}

// step writes step number i (fill's z and del's i name earlier steps).
func (w *drawingWriter) step(raw json.RawMessage, i int) bool {
	var s rawStep
	var kind string
	if json.Unmarshal(raw, &s) != nil || json.Unmarshal(s.K, &kind) != nil {
		return false
	}
	fields, ok := stepFields[kind]
	if !ok {
		return false
	}
	w.buf.WriteString(`{"k":`)
	w.str(s.K)
	for _, name := range fields {
		v := s.field(name)
		if v == nil || bytes.Equal(v, []byte("null")) && name != "c" && name != "fc" {
			if v == nil && optionalField(kind, name) {
				continue
			}
			return false
		}
		w.key(`,"` + name + `"`)
		if !w.stepValue(name, v, i) {
			return false
		}
	}
	w.buf.WriteByte('}')
	return true
}

// stepValue checks and writes one field of step number i.
func (w *drawingWriter) stepValue(name string, v json.RawMessage, i int) bool {
	switch name {
	case "t":
		return w.integer(v, 0, math.MaxInt32)
	case "s":
		return w.number(v, 0, 10)
	case "x1", "y1", "x2", "y2", "x", "y", "h":
		return w.number(v, -maxDrawingCoord, maxDrawingCoord)
	case "c", "fc":
		return w.colour(v, true)
	case "w", "d":
		w.lenient(v, 1, 0, maxPenWidth)
		return true
	case "pts":
		return w.points(v)
	case "z":
		return w.integer(v, 0, float64(i))
	case "i":
		return w.integer(v, 0, float64(max(i-1, 0)))
	case "id":
		return w.stampID(v)
	case "shape", "text":
		return w.str(v)
	case "align":
		var a string
		if json.Unmarshal(v, &a) != nil || a != "center" && a != "right" {
			a = "left" // the runner records it before Tk refuses it
		}
		w.buf.WriteString(strconv.Quote(a))
		return true
	case "font":
		return w.font(v)
	case "parts":
		return w.parts(v)
	case "visible":
		return w.boolean(v)
	case "size":
		return w.number(v, 0, maxShapeSize)
	}
	return false
}

// turtle writes one entry of the drawing's turtles.
func (w *drawingWriter) turtle(raw json.RawMessage) bool {
	var t struct {
		ID, X, Y, Heading, Shape, Visible, Pen, Fill, Size, Ow, Parts json.RawMessage
	}
	if json.Unmarshal(raw, &t) != nil || t.Ow == nil {
		return false
	}
	ok := w.key(`{"id"`) && w.integer(t.ID, 0, math.MaxInt32) &&
		w.key(`,"x"`) && w.number(t.X, -maxDrawingCoord, maxDrawingCoord) &&
		w.key(`,"y"`) && w.number(t.Y, -maxDrawingCoord, maxDrawingCoord) &&
		w.key(`,"heading"`) && w.number(t.Heading, -maxDrawingCoord, maxDrawingCoord) &&
		w.key(`,"shape"`) && w.str(t.Shape) &&
		w.key(`,"visible"`) && w.boolean(t.Visible) &&
		w.key(`,"pen"`) && w.colour(t.Pen, true) &&
		w.key(`,"fill"`) && w.colour(t.Fill, true) &&
		w.key(`,"size"`) && w.number(t.Size, 0, maxShapeSize) &&
		w.key(`,"ow"`)
	if !ok {
		return false
	}
	w.lenient(t.Ow, 1, 0, maxPenWidth)
	if !w.key(`,"parts"`) || !w.parts(t.Parts) {
		return false
	}
	w.buf.WriteByte('}')
	return true
}

// numberOf reads a JSON number.
func numberOf(v json.RawMessage) (float64, bool) {
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, err == nil
}

func (w *drawingWriter) writeNumber(f float64) {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	w.buf.Write(strconv.AppendFloat(w.buf.AvailableBuffer(), f, format, -1, 64))
}

// number writes a number, clamped to [lo, hi].
func (w *drawingWriter) number(v json.RawMessage, lo, hi float64) bool {
	f, ok := numberOf(v)
	if !ok {
		return false
	}
	w.writeNumber(min(max(f, lo), hi))
	return true
}

// integer writes a whole number, clamped to [lo, hi].
func (w *drawingWriter) integer(v json.RawMessage, lo, hi float64) bool {
	f, ok := numberOf(v)
	if !ok || f != math.Trunc(f) {
		return false
	}
	w.writeNumber(min(max(f, lo), hi))
	return true
}

// lenient writes a value the runner passes on as the child gave it (a pen
// width may be "3"): a number or a string holding one, clamped, else def,
// as the SVG renderer reads it.
func (w *drawingWriter) lenient(v json.RawMessage, def, lo, hi float64) {
	f, ok := numberOf(v)
	if !ok {
		var s string
		if json.Unmarshal(v, &s) == nil {
			var err error
			f, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
			ok = err == nil && !math.IsNaN(f)
		}
	}
	if !ok || f < 0 {
		f = def
	}
	w.writeNumber(min(max(f, lo), hi))
}

// colour writes "#rrggbb", "" (no colour) or, when null is allowed, null:
// the only colours the runner's normcolor gives.
func (w *drawingWriter) colour(v json.RawMessage, null bool) bool {
	if bytes.Equal(v, []byte("null")) {
		if null {
			w.buf.WriteString("null")
		}
		return null
	}
	var c string
	if json.Unmarshal(v, &c) != nil || c != "" && !isHexColour(c) {
		return false
	}
	w.buf.WriteString(strconv.Quote(c))
	return true
}

func isHexColour(c string) bool {
	if len(c) != 7 || c[0] != '#' {
		return false
	}
	for _, r := range c[1:] {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// str writes a string, escaped anew.
func (w *drawingWriter) str(v json.RawMessage) bool {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return false
	}
	b, _ := json.Marshal(s)
	w.buf.Write(b)
	return true
}

func (w *drawingWriter) boolean(v json.RawMessage) bool {
	var x bool
	if json.Unmarshal(v, &x) != nil {
		return false
	}
	w.buf.WriteString(strconv.FormatBool(x))
	return true
}

// view writes [minx, miny, w, h], w and h above 0 (a player divides by them).
func (w *drawingWriter) view(v json.RawMessage) bool {
	var xs []float64
	if json.Unmarshal(v, &xs) != nil || len(xs) != 4 || !(xs[2] > 0 && xs[3] > 0) {
		return false
	}
	return w.numbers(xs, maxDrawingCoord)
}

// area writes the program's own window, [x, y, w, h], or null for none.
func (w *drawingWriter) area(v json.RawMessage) bool {
	if bytes.Equal(v, []byte("null")) {
		w.buf.WriteString("null")
		return true
	}
	var xs []float64
	if json.Unmarshal(v, &xs) != nil || len(xs) != 4 {
		return false
	}
	return w.numbers(xs, maxDrawingCoord)
}

// scale writes [x, y] pixels per world unit, neither 0.
func (w *drawingWriter) scale(v json.RawMessage) bool {
	var xs []float64
	if json.Unmarshal(v, &xs) != nil || len(xs) != 2 || xs[0] == 0 || xs[1] == 0 {
		return false
	}
	return w.numbers(xs, maxDrawingCoord)
}

// numbers writes an array of numbers, each clamped to ±bound.
func (w *drawingWriter) numbers(xs []float64, bound float64) bool {
	w.buf.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.writeNumber(min(max(x, -bound), bound))
	}
	w.buf.WriteByte(']')
	return true
}

// points writes a polygon: [[x, y], ...].
func (w *drawingWriter) points(v json.RawMessage) bool {
	var pts [][]float64
	if json.Unmarshal(v, &pts) != nil {
		return false
	}
	w.buf.WriteByte('[')
	for i, p := range pts {
		if len(p) != 2 {
			return false
		}
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.numbers(p, maxDrawingCoord)
	}
	w.buf.WriteByte(']')
	return true
}

// stampID writes what stamp() returned: a number, or for a compound
// shape a list of them.
func (w *drawingWriter) stampID(v json.RawMessage) bool {
	if f, ok := numberOf(v); ok {
		w.writeNumber(min(max(f, -maxDrawingCoord), maxDrawingCoord))
		return true
	}
	var ids []float64
	if json.Unmarshal(v, &ids) != nil || len(ids) > maxStampParts {
		return false
	}
	return w.numbers(ids, maxDrawingCoord)
}

// font writes [family, size, style], the size clamped as the SVG renderer
// clamps it.
func (w *drawingWriter) font(v json.RawMessage) bool {
	var f []json.RawMessage
	if json.Unmarshal(v, &f) != nil || len(f) != 3 {
		return false
	}
	w.buf.WriteByte('[')
	ok := w.str(f[0])
	w.buf.WriteByte(',')
	ok = ok && w.number(f[1], -4.0/3*maxFontPoints, maxFontPoints)
	w.buf.WriteByte(',')
	ok = ok && w.str(f[2])
	w.buf.WriteByte(']')
	return ok
}

// parts writes a shape's polygons, [[pts, fill, outline(, width)], ...],
// or a picture shape, [["image", name(, width)]].
func (w *drawingWriter) parts(v json.RawMessage) bool {
	var parts [][]json.RawMessage
	if json.Unmarshal(v, &parts) != nil {
		return false
	}
	w.buf.WriteByte('[')
	for i, p := range parts {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		if len(p) < 2 || len(p) > 4 {
			return false
		}
		w.buf.WriteByte('[')
		var name string
		if json.Unmarshal(p[0], &name) == nil {
			if name != "image" || len(p) > 3 || !w.str(p[0]) {
				return false
			}
			w.buf.WriteByte(',')
			if !w.str(p[1]) {
				return false
			}
			if len(p) == 3 {
				w.buf.WriteByte(',')
				w.lenient(p[2], 1, 0, maxPenWidth)
			}
		} else {
			if len(p) < 3 || !w.points(p[0]) {
				return false
			}
			w.buf.WriteByte(',')
			if !w.colour(p[1], true) {
				return false
			}
			w.buf.WriteByte(',')
			if !w.colour(p[2], true) {
				return false
			}
			if len(p) == 4 {
				w.buf.WriteByte(',')
				w.lenient(p[3], 1, 0, maxPenWidth)
			}
		}
		w.buf.WriteByte(']')
	}
	w.buf.WriteByte(']')
	return true
}
