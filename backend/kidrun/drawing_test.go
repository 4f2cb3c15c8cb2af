package kidrun

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The checker knows each step kind's fields as the recorder writes them.
func TestDrawingStepFieldsAreTheRunners(t *testing.T) {
	src, err := os.ReadFile("../../python/kidturtle_record.py")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)STEP_FIELDS = \{(.*?)\n\}`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no STEP_FIELDS in kidturtle_record.py")
	}
	runner := map[string][]string{}
	for _, m := range regexp.MustCompile(`"(\w+)": \(([^)]*)\)`).FindAllStringSubmatch(string(block[1]), -1) {
		runner[m[1]] = regexp.MustCompile(`"(\w+)"`).FindAllString(m[2], -1)
		for i, f := range runner[m[1]] {
			runner[m[1]][i] = strings.Trim(f, `"`)
		}
	}
	if !reflect.DeepEqual(runner, stepFields) {
		t.Errorf("the runner's step fields\n%v\ndiffer from the checker's\n%v", runner, stepFields)
	}
}

// sameJSON says whether a and b hold the same values.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %.200s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

// goodDrawing is a drawing as the runner writes one, with a step of each kind.
const goodDrawing = `{"width":400,"height":300,"view":[-210,-160,420,320],"bg":"#ffffff","scale":[1.0,1.0],"steps":[` +
	`{"k":"move","t":0,"s":3,"x1":0,"y1":0,"x2":100.5,"y2":0,"c":"#ff0000","w":2},` +
	`{"k":"move","t":0,"s":0,"x1":100.5,"y1":0,"x2":0,"y2":50},` +
	`{"k":"turn","t":0,"s":3,"h":90.0},` +
	`{"k":"fill","t":0,"s":0,"c":"#00ff00","pts":[[0,0],[10,0],[10,10]],"z":0},` +
	`{"k":"fill","t":0,"s":0,"c":null,"pts":[[0,0],[1,1],[2,0]],"z":1},` +
	`{"k":"dot","t":0,"s":0,"x":5,"y":5,"d":3,"c":"#0000ff"},` +
	`{"k":"text","t":0,"s":0,"x":1,"y":2,"text":"你好 <b>","align":"center","font":["Arial",12,"bold italic"],"c":"#000000"},` +
	`{"k":"stamp","t":1,"s":0,"id":7,"x":3,"y":4,"h":45,"shape":"turtle","c":"#000000","fc":"","parts":[[[[0,0],[1,0],[0,1]],"#000000","#111111",1]]},` +
	`{"k":"stamp","t":1,"s":0,"id":[8,9],"x":3,"y":4,"h":45,"shape":"pic.gif","c":"#000000","fc":"#ffffff","parts":[["image","pic.gif",1]]},` +
	`{"k":"unstamp","t":1,"s":0,"id":7},` +
	`{"k":"clear","t":1,"s":0},` +
	`{"k":"clear","s":0},` +
	`{"k":"bg","s":1,"c":"#abcdef"},` +
	`{"k":"look","t":0,"s":0,"shape":"classic","visible":false,"size":1.5,"parts":[[[[0,0],[1,0],[0,1]],"#000000","#000000"]]},` +
	`{"k":"del","t":0,"s":0,"i":2}` +
	`],"turtles":[{"id":0,"x":0,"y":50,"heading":90.0,"shape":"classic","visible":true,"pen":"#ff0000","fill":"#000000","size":1,"ow":1,"parts":[[[[0,0],[1,0],[0,1]],"#000000","#ff0000"]]}],"truncated":false}`

// Every value the runner writes passes as it is; what a forged drawing
// could hold beyond it is clamped or drops the drawing.
func TestCheckDrawing(t *testing.T) {
	got := checkDrawing(json.RawMessage(goodDrawing), MaxReplaySteps)
	if got == nil {
		t.Fatal("a drawing as the runner writes it was dropped")
	}
	if !sameJSON(t, got, []byte(goodDrawing)) {
		t.Errorf("the drawing changed:\n%s\n%s", goodDrawing, got)
	}
	for _, n := range []json.RawMessage{nil, json.RawMessage("null")} {
		if checkDrawing(n, MaxReplaySteps) != nil {
			t.Errorf("%q is a drawing", n)
		}
	}
	if checkDrawing(json.RawMessage(goodDrawing), 0) != nil {
		t.Error("a drawing reached a run that asked for no steps")
	}
	if checkDrawing(json.RawMessage(goodDrawing), 200) != nil {
		t.Error("steps over the run's budget passed")
	}
	swap := func(old, new string) string {
		if !strings.Contains(goodDrawing, old) {
			t.Fatalf("%q is not in the drawing", old)
		}
		return strings.Replace(goodDrawing, old, new, 1)
	}
	for _, tt := range []struct {
		name, drawing string
		want          string // "" : dropped; else in the checked drawing
	}{
		{"an unknown step kind", swap(`{"k":"clear","s":0}`, `{"k":"explode","s":0}`), ""},
		{"a step without a kind", swap(`{"k":"clear","s":0}`, `{"s":0}`), ""},
		{"a step that is not an object", swap(`{"k":"clear","s":0}`, `[1,2]`), ""},
		{"a missing field", swap(`"x":5,"y":5,"d":3`, `"x":5,"d":3`), ""},
		{"a coordinate that is a string", swap(`"x1":0,"y1":0`, `"x1":"0","y1":0`), ""},
		{"a colour no runner writes", swap(`"c":"#0000ff"`, `"c":"url(#x)"`), ""},
		{"a fill point of three numbers", swap(`[[0,0],[10,0],[10,10]]`, `[[0,0,0],[10,0],[10,10]]`), ""},
		{"a view of no size", swap(`"view":[-210,-160,420,320]`, `"view":[-210,-160,0,320]`), ""},
		{"a view of three numbers", swap(`"view":[-210,-160,420,320]`, `"view":[-210,-160,420]`), ""},
		{"no steps", swap(`"steps":[`, `"stepz":[`), ""},
		{"a font of two parts", swap(`["Arial",12,"bold italic"]`, `["Arial",12]`), ""},
		{"a part that is not a polygon", swap(`["image","pic.gif",1]`, `["video","pic.gif",1]`), ""},
		{"a number past float64", swap(`"h":90.0}`, `"h":1e999}`), ""},
		{"a canvas 1e308 wide", swap(`"width":400`, `"width":1e308`), `"width":65536`},
		{"a font size of 1e9", swap(`["Arial",12,`, `["Arial",1e9,`), `["Arial",1500,`},
		{"a far coordinate", swap(`"x2":100.5`, `"x2":-1e308`), `"x2":-1000000000000000,`},
		{"a dot size as a string, as Tk takes it", swap(`"d":3`, `"d":" 3 "`), `"d":3,`},
		{"a dot size that is no number", swap(`"d":3`, `"d":"big"`), `"d":1,`},
		{"the program's own window", swap(`"bg":"#ffffff"`, `"bg":"#ffffff","area":[-200,-150,400,300]`), `"area":[-200,-150,400,300]`},
		{"no window of its own", swap(`"bg":"#ffffff"`, `"bg":"#ffffff","area":null`), `"area":null`},
		{"a window of two numbers", swap(`"bg":"#ffffff"`, `"bg":"#ffffff","area":[1,2]`), ""},
		{"a pen width of 1e300", swap(`"c":"#ff0000","w":2`, `"c":"#ff0000","w":1e300`), `"w":10000`},
		{"a speed of 99", swap(`"s":3,"h"`, `"s":99,"h"`), `"s":10,"h"`},
		{"a fill painted after itself", swap(`"z":1`, `"z":9999`), `"z":4`},
		{"an align no runner accepts", swap(`"align":"center"`, `"align":"<script>"`), `"align":"left"`},
		{"unknown fields are left out", swap(`{"k":"clear","s":0}`, `{"k":"clear","s":0,"onload":"x"}`), `{"k":"clear","s":0}`},
	} {
		got := checkDrawing(json.RawMessage(tt.drawing), MaxReplaySteps)
		switch {
		case tt.want == "" && got != nil:
			t.Errorf("%s: passed", tt.name)
		case tt.want != "" && got == nil:
			t.Errorf("%s: dropped", tt.name)
		case tt.want != "" && !strings.Contains(string(got), tt.want):
			t.Errorf("%s: %s lacks %s", tt.name, got, tt.want)
		case tt.want != "" && strings.Contains(string(got), "onload"):
			t.Errorf("%s: %s", tt.name, got)
		}
	}
}

// What the runner sends for a replay, with a step of every kind, plain
// and live, passes the check unchanged in meaning. This runs the Python
// layer of this tree, so a new field or kind the checker lacks fails here.
func TestRunnerDrawingSurvivesCheck(t *testing.T) {
	code := `import turtle
s = turtle.Screen()
s.setup(500, 400)
t = turtle.Turtle()
t.pensize(3)
t.color("red", "yellow")
t.begin_fill()
for i in range(3):
    t.forward(80)
    t.left(120)
t.end_fill()
t.penup(); t.goto(-100, 50); t.pendown()
t.dot(15, "blue")
t.write("你好 <b>", align="center", font=("Arial", 14, "bold"))
sid = t.stamp()
t.shape("turtle")
t.shapesize(2)
t.stamp()
t.clearstamp(sid)
t.forward(30)
t.undo()
u = turtle.Turtle()
u.circle(20)
u.clear()
s.bgcolor("lightblue")
t.hideturtle()
s.clear()
t2 = turtle.Turtle()
t2.forward(10)
`
	for _, live := range []bool{false, true} {
		r, err := testEngine(t).Start(context.Background(), Request{Code: []byte(code), Name: "every_step.py", Lang: "en",
			Live: live, ReplaySteps: MaxDrawingSteps}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := r.Wait()
		raw := r.coll.report().Drawing
		if res.Status != "ok" || len(raw) == 0 {
			t.Fatalf("live %v: status %s, drawing of %d bytes; stderr %q", live, res.Status, len(raw), res.Stderr)
		}
		if len(res.Drawing) == 0 {
			t.Fatalf("live %v: the runner's drawing was dropped: %s", live, raw)
		}
		if !sameJSON(t, raw, res.Drawing) {
			t.Errorf("live %v: the drawing changed:\n%s\n%s", live, raw, res.Drawing)
		}
		var d struct {
			Steps []struct{ K string }
		}
		json.Unmarshal(res.Drawing, &d)
		kinds := map[string]bool{}
		for _, s := range d.Steps {
			kinds[s.K] = true
		}
		for k := range stepFields {
			if !kinds[k] && !(k == "look" && !live) {
				t.Errorf("live %v: no %s step to check", live, k)
			}
		}
	}
}
