package packs

import (
	"encoding/json"
	"errors"
	"math"
)

// Drawing is the part of the runner's drawing model (docs/runner-protocol.md)
// that turtle checks look at.
type Drawing struct {
	Steps   []Step        `json:"steps"`
	Turtles []TurtleState `json:"turtles"`
}

// Step is one recorded drawing step; only the fields the checks use.
type Step struct {
	K   string       `json:"k"`
	T   int          `json:"t"`
	X1  float64      `json:"x1"`
	Y1  float64      `json:"y1"`
	X2  float64      `json:"x2"`
	Y2  float64      `json:"y2"`
	C   *string      `json:"c"`
	Pts [][2]float64 `json:"pts"`
}

// TurtleState is a turtle's state at the end of the program.
type TurtleState struct {
	ID      int     `json:"id"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Heading float64 `json:"heading"`
}

// ParseDrawing decodes result.drawing; nil or "null" is an empty drawing.
func ParseDrawing(raw []byte) (*Drawing, error) {
	d := &Drawing{}
	if len(raw) == 0 || string(raw) == "null" {
		return d, nil
	}
	if err := json.Unmarshal(raw, d); err != nil {
		return nil, err
	}
	return d, nil
}

type pt struct{ x, y float64 }

func dist(a, b pt) float64 { return math.Hypot(a.x-b.x, a.y-b.y) }

type segment struct {
	a, b  pt
	color string
}

// view is what is left on the canvas at the end: clear steps erase what
// their turtle drew before them, as they do on screen.
type view struct {
	segs   [][]segment // per chain: consecutive pen-down moves of one turtle
	fills  []Step
	colors map[string]bool
	last   int // id of the turtle that moved last
}

func (d *Drawing) view() *view {
	v := &view{colors: map[string]bool{}, last: -1}
	var chains []struct {
		t    int
		segs []segment
	}
	open := map[int]int{} // turtle -> index of its open chain, -1 when none
	var fills []Step
	var marks []struct {
		t     int
		color string
	}
	for _, s := range d.Steps {
		switch s.K {
		case "move":
			v.last = s.T
			if s.C == nil {
				open[s.T] = -1
				continue
			}
			seg := segment{a: pt{s.X1, s.Y1}, b: pt{s.X2, s.Y2}, color: *s.C}
			i, ok := open[s.T]
			if ok && i >= 0 {
				c := &chains[i]
				if dist(c.segs[len(c.segs)-1].b, seg.a) > 0.01 {
					i = -1
				}
			}
			if !ok || i < 0 {
				chains = append(chains, struct {
					t    int
					segs []segment
				}{t: s.T})
				i = len(chains) - 1
				open[s.T] = i
			}
			chains[i].segs = append(chains[i].segs, seg)
		case "fill":
			fills = append(fills, s)
		case "dot", "text", "stamp":
			if s.C != nil {
				marks = append(marks, struct {
					t     int
					color string
				}{s.T, *s.C})
			}
		case "clear":
			keep := chains[:0]
			for _, c := range chains {
				if c.t != s.T {
					keep = append(keep, c)
				}
			}
			chains = keep
			open = map[int]int{}
			for i, c := range chains {
				open[c.t] = i
			}
			open[s.T] = -1
			kf := fills[:0]
			for _, f := range fills {
				if f.T != s.T {
					kf = append(kf, f)
				}
			}
			fills = kf
			km := marks[:0]
			for _, m := range marks {
				if m.t != s.T {
					km = append(km, m)
				}
			}
			marks = km
		}
	}
	for _, c := range chains {
		v.segs = append(v.segs, c.segs)
		for _, s := range c.segs {
			v.colors[s.color] = true
		}
	}
	for _, f := range fills {
		if f.C != nil {
			v.colors[*f.C] = true
		}
	}
	for _, m := range marks {
		v.colors[m.color] = true
	}
	v.fills = fills
	return v
}

func (v *view) segmentCount() int {
	n := 0
	for _, c := range v.segs {
		n += len(c)
	}
	return n
}

// closeTolerance is how near (in turtle steps) a path must come back to
// count as closed: floating point turns leave 1e-13 errors, children's
// hand-made angles a little more.
const closeTolerance = 1.0

// loops calls fn with each closed loop in the drawing: a run of at least
// three consecutive segments of one chain that ends where it started. After
// a loop closes the search restarts, so a square drawn twice gives two.
func (v *view) loops(fn func(pts []pt) bool) bool {
	for _, chain := range v.segs {
		pts := make([]pt, 0, len(chain)+1)
		pts = append(pts, chain[0].a)
		for _, s := range chain {
			pts = append(pts, s.b)
		}
		start := 0
		grid := map[[2]int64][]int{}
		cell := func(p pt) [2]int64 {
			return [2]int64{int64(math.Floor(p.x / closeTolerance)), int64(math.Floor(p.y / closeTolerance))}
		}
		for j := 0; j < len(pts); j++ {
			c := cell(pts[j])
			found := -1
			for dx := int64(-1); dx <= 1 && found < 0; dx++ {
				for dy := int64(-1); dy <= 1 && found < 0; dy++ {
					for _, i := range grid[[2]int64{c[0] + dx, c[1] + dy}] {
						if i >= start && j-i >= 3 && dist(pts[i], pts[j]) <= closeTolerance {
							found = i
							break
						}
					}
				}
			}
			if found >= 0 {
				if fn(pts[found : j+1]) {
					return true
				}
				start = j
				grid = map[[2]int64][]int{}
			}
			if len(grid[c]) < 8 {
				grid[c] = append(grid[c], j)
			}
		}
	}
	return false
}

// corners merges straight runs of a closed loop and returns the interior
// angle at each corner, in order.
func corners(pts []pt) []float64 {
	type dir struct{ x, y float64 }
	var dirs []dir
	for i := 1; i < len(pts); i++ {
		dx, dy := pts[i].x-pts[i-1].x, pts[i].y-pts[i-1].y
		if math.Hypot(dx, dy) < 1e-6 {
			continue
		}
		dirs = append(dirs, dir{dx, dy})
	}
	turn := func(a, b dir) float64 {
		return math.Atan2(a.x*b.y-a.y*b.x, a.x*b.x+a.y*b.y) * 180 / math.Pi
	}
	var out []float64
	for i := range dirs {
		t := turn(dirs[i], dirs[(i+1)%len(dirs)])
		if math.Abs(t) < 0.5 {
			continue // straight on: one side drawn in pieces
		}
		out = append(out, 180-math.Abs(t))
	}
	return out
}

// ErrNoDrawing is the detail of a turtle check when the program drew nothing.
var ErrNoDrawing = errors.New("the program did not use the turtle")

// EvalTurtle evaluates one turtle rule on a drawing.
func EvalTurtle(c Check, d *Drawing) bool {
	v := d.view()
	tol := c.Tolerance
	switch c.Rule {
	case TurtleMinSegments:
		return v.segmentCount() >= c.Count
	case TurtleClosedShape:
		return v.loops(func([]pt) bool { return true })
	case TurtleFilledShape:
		for _, f := range v.fills {
			if len(f.Pts) >= 3 && (c.Color == "" || (f.C != nil && *f.C == c.Color)) {
				return true
			}
		}
		return false
	case TurtleColorsUsed:
		for _, col := range c.Colors {
			if !v.colors[col] {
				return false
			}
		}
		return true
	case TurtleFinalPosition, TurtleFinalHeading:
		t, ok := d.finalTurtle(v.last)
		if !ok {
			return false
		}
		if tol == 0 {
			tol = 1
		}
		if c.Rule == TurtleFinalPosition {
			return math.Hypot(t.X-*c.X, t.Y-*c.Y) <= tol
		}
		diff := math.Mod(math.Abs(t.Heading-*c.Heading), 360)
		return math.Min(diff, 360-diff) <= tol
	case TurtlePolygon:
		if tol == 0 {
			tol = 2
		}
		return v.loops(func(pts []pt) bool {
			angles := corners(pts)
			if len(angles) != c.Sides {
				return false
			}
			if c.Angle != nil {
				for _, a := range angles {
					if math.Abs(a-*c.Angle) > tol {
						return false
					}
				}
			}
			return true
		})
	}
	return false
}

// finalTurtle is the turtle the child steered: the one that moved last, or
// the first one when none moved.
func (d *Drawing) finalTurtle(last int) (TurtleState, bool) {
	for _, t := range d.Turtles {
		if t.ID == last {
			return t, true
		}
	}
	if len(d.Turtles) > 0 {
		return d.Turtles[0], true
	}
	return TurtleState{}, false
}
