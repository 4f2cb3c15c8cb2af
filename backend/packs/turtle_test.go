package packs

import (
	"encoding/json"
	"math"
	"testing"
)

// record simulates a turtle program as the runner would record it.
type record struct {
	steps   []map[string]any
	x, y, h float64
	pen     bool
	color   string
	t       int
}

func newRecord() *record { return &record{pen: true, color: "#000000"} }

func (r *record) fd(d float64) *record {
	nx := math.Round((r.x+d*math.Cos(r.h*math.Pi/180))*100) / 100
	ny := math.Round((r.y+d*math.Sin(r.h*math.Pi/180))*100) / 100
	s := map[string]any{"k": "move", "t": r.t, "s": 0, "x1": r.x, "y1": r.y, "x2": nx, "y2": ny}
	if r.pen {
		s["c"], s["w"] = r.color, 1
	}
	r.steps = append(r.steps, s)
	r.x, r.y = nx, ny
	return r
}

func (r *record) lt(a float64) *record {
	r.h = math.Mod(r.h+a+360, 360)
	r.steps = append(r.steps, map[string]any{"k": "turn", "t": r.t, "s": 0, "h": r.h})
	return r
}

func (r *record) up() *record   { r.pen = false; return r }
func (r *record) down() *record { r.pen = true; return r }
func (r *record) raw(s map[string]any) *record {
	r.steps = append(r.steps, s)
	return r
}

func (r *record) drawing(t *testing.T) *Drawing {
	b, err := json.Marshal(map[string]any{
		"width": 400, "height": 400, "steps": r.steps,
		"turtles": []map[string]any{{"id": r.t, "x": r.x, "y": r.y, "heading": r.h}},
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDrawing(b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func polygon(n int, side float64) *record {
	r := newRecord()
	for i := 0; i < n; i++ {
		r.fd(side).lt(360 / float64(n))
	}
	return r
}

func f(v float64) *float64 { return &v }

func TestEvalTurtle(t *testing.T) {
	square := polygon(4, 100)
	openSquare := newRecord().fd(100).lt(90).fd(100).lt(90).fd(100)
	star := newRecord()
	for i := 0; i < 5; i++ {
		star.fd(100).lt(144)
	}
	pieces := newRecord() // a triangle whose sides are drawn in 10 pieces each
	for i := 0; i < 3; i++ {
		for j := 0; j < 10; j++ {
			pieces.fd(10)
		}
		pieces.lt(120)
	}
	circle := newRecord()
	for i := 0; i < 36; i++ {
		circle.fd(10).lt(10)
	}
	filled := polygon(3, 50).raw(map[string]any{"k": "fill", "t": 0, "s": 0, "c": "#ff0000", "pts": [][2]float64{{0, 0}, {50, 0}, {25, 43.3}}})
	cleared := polygon(4, 100).raw(map[string]any{"k": "clear", "t": 0, "s": 0})
	twoColours := newRecord().fd(50)
	twoColours.color = "#ff0000"
	twoColours.fd(50)
	penUpGap := newRecord().fd(100).lt(90).fd(100).lt(90).up().fd(100).down().lt(90).fd(100)

	tests := []struct {
		name string
		rec  *record
		c    Check
		want bool
	}{
		{"segments enough", square, Check{Rule: TurtleMinSegments, Count: 4}, true},
		{"segments too few", openSquare, Check{Rule: TurtleMinSegments, Count: 4}, false},
		{"segments after clear", cleared, Check{Rule: TurtleMinSegments, Count: 1}, false},
		{"closed square", square, Check{Rule: TurtleClosedShape}, true},
		{"open square", openSquare, Check{Rule: TurtleClosedShape}, false},
		{"pen up breaks the path", penUpGap, Check{Rule: TurtleClosedShape}, false},
		{"closed circle", circle, Check{Rule: TurtleClosedShape}, true},
		{"polygon square", square, Check{Rule: TurtlePolygon, Sides: 4, Angle: f(90)}, true},
		{"polygon square wrong sides", square, Check{Rule: TurtlePolygon, Sides: 3}, false},
		{"polygon square wrong angle", square, Check{Rule: TurtlePolygon, Sides: 4, Angle: f(60)}, false},
		{"polygon hexagon", polygon(6, 40), Check{Rule: TurtlePolygon, Sides: 6, Angle: f(120)}, true},
		{"polygon star angles", star, Check{Rule: TurtlePolygon, Sides: 5, Angle: f(36)}, true},
		{"polygon sides in pieces", pieces, Check{Rule: TurtlePolygon, Sides: 3, Angle: f(60)}, true},
		{"polygon open", openSquare, Check{Rule: TurtlePolygon, Sides: 4}, false},
		{"filled any", filled, Check{Rule: TurtleFilledShape}, true},
		{"filled colour", filled, Check{Rule: TurtleFilledShape, Color: "#ff0000"}, true},
		{"filled wrong colour", filled, Check{Rule: TurtleFilledShape, Color: "#00ff00"}, false},
		{"not filled", square, Check{Rule: TurtleFilledShape}, false},
		{"colours used", twoColours, Check{Rule: TurtleColorsUsed, Colors: []string{"#000000", "#ff0000"}}, true},
		{"colour missing", twoColours, Check{Rule: TurtleColorsUsed, Colors: []string{"#0000ff"}}, false},
		{"fill colour counts", filled, Check{Rule: TurtleColorsUsed, Colors: []string{"#ff0000"}}, true},
		{"back home", square, Check{Rule: TurtleFinalPosition, X: f(0), Y: f(0)}, true},
		{"not home", openSquare, Check{Rule: TurtleFinalPosition, X: f(0), Y: f(0)}, false},
		{"position within tolerance", openSquare, Check{Rule: TurtleFinalPosition, X: f(2), Y: f(100), Tolerance: 3}, true},
		{"heading", openSquare, Check{Rule: TurtleFinalHeading, Heading: f(180)}, true},
		{"heading wraps", square, Check{Rule: TurtleFinalHeading, Heading: f(359.5)}, true},
		{"heading wrong", square, Check{Rule: TurtleFinalHeading, Heading: f(90)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.Type = CheckTurtle
			if got := EvalTurtle(tt.c, tt.rec.drawing(t)); got != tt.want {
				t.Errorf("EvalTurtle(%+v) = %v, want %v", tt.c, got, tt.want)
			}
		})
	}
}

func TestEvalTurtleEmptyDrawing(t *testing.T) {
	d, err := ParseDrawing([]byte("null"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{TurtleMinSegments, TurtleClosedShape, TurtleFilledShape, TurtlePolygon, TurtleFinalPosition} {
		c := Check{Type: CheckTurtle, Rule: rule, Count: 1, Sides: 3, X: f(0), Y: f(0), Colors: []string{"#000000"}}
		if EvalTurtle(c, d) {
			t.Errorf("%s passed on an empty drawing", rule)
		}
	}
}

func BenchmarkPolygonLargeDrawing(b *testing.B) {
	r := newRecord()
	for i := 0; i < 20000; i++ {
		r.fd(float64(i % 97)).lt(float64(i % 89))
	}
	raw, _ := json.Marshal(map[string]any{"steps": r.steps, "turtles": []any{}})
	d, err := ParseDrawing(raw)
	if err != nil {
		b.Fatal(err)
	}
	c := Check{Type: CheckTurtle, Rule: TurtlePolygon, Sides: 7}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		EvalTurtle(c, d)
	}
}
