package svgcost

import (
	"math"
	"strconv"
	"strings"
)

// shape is what one element asks of a renderer: its outline's length in
// its own user units (an upper bound: curves count their control polygon,
// arcs the box of their ellipse), its points and its subpaths.
type shape struct {
	length   float64
	points   int
	subpaths int
}

// pathShape reads path data as SVG renderers do: up to the first error.
func pathShape(d string) shape {
	var (
		s          shape
		p          = pathScanner{s: d}
		cx, cy     float64 // current point
		sx, sy     float64 // start of the subpath
		qx, qy     float64 // last control point, for S and T
		cmd, prev  byte
		hasCurrent bool
	)
	for {
		p.space()
		if p.done() {
			return s
		}
		if c := p.s[p.i]; isCommand(c) {
			cmd = c
			p.i++
		} else if cmd == 0 || cmd == 'Z' || cmd == 'z' {
			return s // numbers without a command, or after Z
		}
		rel := cmd >= 'a'
		up := cmd &^ 0x20
		if up != 'M' && !hasCurrent {
			return s
		}
		var args [7]float64
		for i := range argCount(up) {
			var ok bool
			if up == 'A' && (i == 3 || i == 4) {
				args[i], ok = p.flag()
			} else {
				args[i], ok = p.number()
			}
			if !ok {
				return s
			}
		}
		ox, oy := 0.0, 0.0
		if rel {
			ox, oy = cx, cy
		}
		x0, y0 := cx, cy
		switch up {
		case 'M':
			cx, cy = ox+args[0], oy+args[1]
			sx, sy = cx, cy
			s.subpaths++
			s.points++
			hasCurrent = true
			// Pairs after a moveto are linetos.
			cmd = 'L' | (cmd & 0x20)
		case 'L', 'T':
			cx, cy = ox+args[0], oy+args[1]
			if up == 'T' {
				qx, qy = reflect(prev, "QqTt", x0, y0, qx, qy)
				s.length += math.Hypot(qx-x0, qy-y0) + math.Hypot(cx-qx, cy-qy)
			} else {
				s.length += math.Hypot(cx-x0, cy-y0)
			}
			s.points++
		case 'H':
			cx = ox + args[0]
			s.length += math.Abs(cx - x0)
			s.points++
		case 'V':
			cy = oy + args[0]
			s.length += math.Abs(cy - y0)
			s.points++
		case 'C':
			x1, y1, x2, y2 := ox+args[0], oy+args[1], ox+args[2], oy+args[3]
			cx, cy = ox+args[4], oy+args[5]
			s.length += math.Hypot(x1-x0, y1-y0) + math.Hypot(x2-x1, y2-y1) + math.Hypot(cx-x2, cy-y2)
			qx, qy = x2, y2
			s.points += 3
		case 'S':
			x1, y1 := reflect(prev, "CcSs", x0, y0, qx, qy)
			x2, y2 := ox+args[0], oy+args[1]
			cx, cy = ox+args[2], oy+args[3]
			s.length += math.Hypot(x1-x0, y1-y0) + math.Hypot(x2-x1, y2-y1) + math.Hypot(cx-x2, cy-y2)
			qx, qy = x2, y2
			s.points += 3
		case 'Q':
			qx, qy = ox+args[0], oy+args[1]
			cx, cy = ox+args[2], oy+args[3]
			s.length += math.Hypot(qx-x0, qy-y0) + math.Hypot(cx-qx, cy-qy)
			s.points += 2
		case 'A':
			cx, cy = ox+args[5], oy+args[6]
			s.length += arcBound(x0, y0, cx, cy, args[0], args[1], args[2])
			// A renderer draws an arc as up to four cubic curves.
			s.points += 12
		case 'Z':
			s.length += math.Hypot(sx-cx, sy-cy)
			cx, cy = sx, sy
			s.points++
		}
		prev = cmd
	}
}

// reflect is the first control point of a smooth curve: the last one
// mirrored in the current point when the previous command was of kinds,
// else the current point itself.
func reflect(prev byte, kinds string, x, y, qx, qy float64) (float64, float64) {
	if prev != 0 && strings.IndexByte(kinds, prev) >= 0 {
		return 2*x - qx, 2*y - qy
	}
	return x, y
}

// arcBound bounds the length of an elliptical arc (SVG's endpoint form):
// its ellipse, radii scaled up as renderers scale them when they cannot
// span the chord, lies in a box of perimeter 4(rx+ry), and no convex arc
// inside it is longer; a zero radius makes a straight line.
func arcBound(x0, y0, x, y, rx, ry, angle float64) float64 {
	rx, ry = math.Abs(rx), math.Abs(ry)
	chord := math.Hypot(x-x0, y-y0)
	if rx == 0 || ry == 0 {
		return chord
	}
	sin, cos := math.Sincos(angle * math.Pi / 180)
	dx, dy := (x0-x)/2, (y0-y)/2
	x1, y1 := cos*dx+sin*dy, -sin*dx+cos*dy
	if l := x1*x1/(rx*rx) + y1*y1/(ry*ry); l > 1 {
		rx, ry = rx*math.Sqrt(l), ry*math.Sqrt(l)
	}
	return max(chord, 4*(rx+ry))
}

// argCount is how many numbers a command takes.
func argCount(up byte) int {
	switch up {
	case 'H', 'V':
		return 1
	case 'M', 'L', 'T':
		return 2
	case 'S', 'Q':
		return 4
	case 'C':
		return 6
	case 'A':
		return 7
	}
	return 0
}

func isCommand(c byte) bool { return strings.IndexByte("MmLlHhVvCcSsQqTtAaZz", c) >= 0 }

// pathScanner reads the numbers of path data and of points lists.
type pathScanner struct {
	s string
	i int
}

func (p *pathScanner) done() bool { return p.i >= len(p.s) }

// space skips white space and at most one comma.
func (p *pathScanner) space() {
	comma := false
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
		case c == ',' && !comma:
			comma = true
		default:
			return
		}
		p.i++
	}
}

// number reads one number ("-1.5e3", ".5", "1." are numbers; "1.5.5" is two).
func (p *pathScanner) number() (float64, bool) {
	p.space()
	start := p.i
	if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		p.i++
	}
	digits := p.digits()
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		digits += p.digits()
	}
	if digits == 0 {
		p.i = start
		return 0, false
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		if j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			p.i = j
			p.digits()
		}
	}
	// A number too large for a float is infinite: it costs without bound.
	v, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil && !math.IsInf(v, 0) {
		p.i = start
		return 0, false
	}
	return v, true
}

func (p *pathScanner) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// flag reads an arc flag, a single 0 or 1 that needs no separator.
func (p *pathScanner) flag() (float64, bool) {
	p.space()
	if p.i < len(p.s) && (p.s[p.i] == '0' || p.s[p.i] == '1') {
		p.i++
		return float64(p.s[p.i-1] - '0'), true
	}
	return 0, false
}

// pointsShape reads a points list (polyline, polygon); closed adds the
// segment back to the first point.
func pointsShape(list string, closed bool) shape {
	p := pathScanner{s: list}
	var s shape
	var x0, y0, px, py float64
	for {
		x, ok := p.number()
		if !ok {
			break
		}
		y, ok := p.number()
		if !ok {
			break
		}
		if s.points == 0 {
			x0, y0 = x, y
		} else {
			s.length += math.Hypot(x-px, y-py)
		}
		px, py = x, y
		s.points++
	}
	if s.points > 0 {
		s.subpaths = 1
		if closed {
			s.length += math.Hypot(x0-px, y0-py)
		}
	}
	return s
}
