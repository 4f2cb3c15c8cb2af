package svgcost

import (
	"math"
	"testing"
)

func TestPathShape(t *testing.T) {
	for _, tt := range []struct {
		d        string
		length   float64
		points   int
		subpaths int
	}{
		{"", 0, 0, 0},
		{"M0 0L3 4", 5, 2, 1},
		{"M0 0l3 4l-3-4", 10, 3, 1},
		{"M0,0 3,4 6,8", 10, 3, 1}, // pairs after a moveto are linetos
		{"M0 0H10V10Z", 10 + 10 + math.Sqrt(200), 4, 1},
		{"m1 1h2m5 5v3", 5, 4, 2},
		{"M0 0C0 10 10 10 10 0", 30, 4, 1}, // the control polygon
		{"M0 0Q5 5 10 0", 2 * math.Sqrt(50), 3, 1},
		{"M0 0L1.5.5", math.Hypot(1.5, .5), 2, 1},
		{"M0 0L1e1 0", 10, 2, 1},
		{"M0 0L10 0X99 99", 10, 2, 1}, // read up to the error
		{"L10 0", 0, 0, 0},            // no current point
		{"M0 0A5 5 0 0 1 10 0", 40, 13, 1},
		{"M0 0A5 5 0 0110 0", 40, 13, 1},   // flags need no separator
		{"M0 0A1 1 0 0 1 10 0", 40, 13, 1}, // radii scaled up to span the chord: 5 and 5
		{"M0 0A0 5 0 0 1 10 0", 10, 13, 1}, // a zero radius: a line
	} {
		s := pathShape(tt.d)
		if math.Abs(s.length-tt.length) > 1e-9 || s.points != tt.points || s.subpaths != tt.subpaths {
			t.Errorf("%q: %+v, want length %v, %d points, %d subpaths", tt.d, s, tt.length, tt.points, tt.subpaths)
		}
	}
	if s := pathShape("M0 0L1e999 0"); !math.IsInf(s.length, 1) {
		t.Errorf("a number past float64 is not unbounded: %+v", s)
	}
}

func TestMeasure(t *testing.T) {
	const open = `<svg xmlns="http://www.w3.org/2000/svg">`
	for _, tt := range []struct {
		name, svg string
		want      Cost
	}{
		{"empty", open + `</svg>`, Cost{Elements: 1}},
		{"a filled path", open + `<path d="M0 0L10 0L10 10Z"/></svg>`, Cost{Elements: 2, Draws: 1, Points: 4}},
		{"a stroked line", open + `<path d="M0 0L10 0" fill="none" stroke="#000"/></svg>`, Cost{Elements: 2, Draws: 1, Points: 2}},
		{"fill and stroke", open + `<rect width="5" height="5" stroke="red"/></svg>`, Cost{Elements: 2, Draws: 2, Points: 8}},
		{"a line never fills", open + `<line x2="5"/></svg>`, Cost{Elements: 2, Points: 2}},
		{"inherited paint", open + `<g fill="none" stroke="red"><polyline points="0 0 3 4"/></g></svg>`, Cost{Elements: 3, Draws: 1, Points: 2}},
		{"dashes", open + `<path d="M0 0L100 0" stroke="#000" stroke-dasharray="1 1"/></svg>`,
			Cost{Elements: 2, Draws: 2, Points: 2, Dashes: 100, RasterDashes: 100}},
		{"an odd dash array repeats", open + `<path d="M0 0L100 0" stroke-dasharray="2"/></svg>`,
			Cost{Elements: 2, Draws: 1, Points: 2, Dashes: 50, RasterDashes: 50}},
		{"inherited dashes, transformed", open + `<g stroke-dasharray="5,5" transform="scale(2) translate(3 4)"><line x2="100" transform="matrix(3 0 0 4 0 0)"/></g></svg>`,
			Cost{Elements: 3, Points: 2, Dashes: 20, RasterDashes: 20 * 2 * 5}},
		{"dashes none", open + `<g stroke-dasharray="1"><line x2="100" stroke-dasharray="none"/></g></svg>`, Cost{Elements: 3, Points: 2}},
		{"inherit keeps the parent's", open + `<g stroke-dasharray="1"><line x2="100" stroke-dasharray="inherit"/></g></svg>`,
			Cost{Elements: 3, Points: 2, Dashes: 100, RasterDashes: 100}},
		{"rasterx rounds dashes down to 1/64", open + `<line x2="1" stroke-dasharray="0.02 0"/></svg>`,
			Cost{Elements: 2, Points: 2, Dashes: 100, RasterDashes: 128}},
		{"dashes too small for rasterx", open + `<line x2="1" stroke-dasharray="0.01"/></svg>`,
			Cost{Elements: 2, Points: 2, Dashes: 100}},
		{"the walk to the offset", open + `<path d="M0 0L1 0M5 5L6 5" stroke-dasharray="1" stroke-dashoffset="1000"/></svg>`,
			Cost{Elements: 2, Draws: 1, Points: 4, Dashes: 2, RasterDashes: 2, OffsetSteps: 2000}},
		{"dashed text", open + `<text font-size="10" stroke-dasharray="1">ab<tspan font-size="200%">c</tspan></text></svg>`,
			Cost{Elements: 3, Dashes: 2*10*textOutline + 20*textOutline}},
	} {
		got, err := Measure([]byte(tt.svg))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !near(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if c, err := Measure([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="50%" height="1" stroke-dasharray="1"/>`)); err == nil {
		t.Errorf("an unfinished SVG measured without error: %+v", c)
	} else if !math.IsInf(c.Dashes, 1) {
		t.Errorf("a dashed shape of unknown size is not unbounded: %+v", c)
	}
}

func near(a, b Cost) bool {
	f := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(y)) }
	return a.Elements == b.Elements && a.Draws == b.Draws && a.Points == b.Points &&
		f(a.Dashes, b.Dashes) && f(a.RasterDashes, b.RasterDashes) && f(a.OffsetSteps, b.OffsetSteps)
}

func TestTransformBound(t *testing.T) {
	for v, want := range map[string]float64{
		"":                          1,
		"translate(5 5) rotate(30)": 1,
		"scale(.1)":                 .1,
		"scale(2, -3)":              3,
		"scale(2) scale(3)":         6,
		"matrix(3 0 0 4 1 1)":       5,
		"skewX(45)":                 2,
		"scale(2) nonsense(1)":      1,
		"scale(":                    1,
		"scale(1e400)":              math.Inf(1),
	} {
		if got := transformBound(v); math.Abs(got-want) > 1e-9 && got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}
