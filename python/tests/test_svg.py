"""The SVG parses, shows what was drawn, and escapes everything a child controls."""

import base64
import os
import shutil
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

import harness

sys.path.insert(0, harness.PYDIR)
import kidsvg  # noqa: E402
import kidturtle  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def svg_of(result):
    img = result["images"][0]
    assert img["mime"] == "image/svg+xml"
    return ET.fromstring(base64.b64decode(img["data"]).decode("utf-8"))


class SvgTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_prog(self, src):
        return harness.run(harness.write_program(self.tmp, "draw.py", src))

    def test_square_merged_into_one_path(self):
        r = self.run_prog("import turtle\nt = turtle.Turtle()\nt.pencolor('red')\nt.pensize(3)\n"
                          "for i in range(4):\n    t.forward(100)\n    t.left(90)\nt.hideturtle()\n")
        root = svg_of(r.result)
        paths = [p for p in root.iter(NS + "path") if p.get("stroke") == "#ff0000"]
        self.assertEqual(len(paths), 1)
        self.assertEqual(paths[0].get("stroke-width"), "30")   # tenths of a pixel
        self.assertEqual(paths[0].get("d").count("l"), 4)
        for el in root.iter():
            self.assertNotIn(el.tag, (NS + "script", NS + "foreignObject", NS + "use"))

    def test_turtle_shape_fill_dot_text_stamp(self):
        r = self.run_prog(
            "import turtle\nt = turtle.Turtle()\nt.shape('turtle')\nt.color('blue', 'yellow')\n"
            "t.begin_fill()\nt.circle(40)\nt.end_fill()\nt.dot(30, 'green')\nt.stamp()\n"
            "t.penup()\nt.goto(0, -80)\nt.write('海龟 <b>&', align='center', font=('Arial', 20, 'bold'))\n")
        root = svg_of(r.result)
        fills = [p for p in root.iter(NS + "path") if p.get("fill") == "#ffff00" and p.get("fill-rule")]
        self.assertEqual(len(fills), 1)
        circles = [c for c in root.iter(NS + "circle") if c.get("fill") == "#008000"]
        self.assertEqual(len(circles), 1)
        self.assertEqual(circles[0].get("r"), "15")
        shapes = [p for p in root.iter(NS + "path") if p.get("fill") == "#ffff00" and p.get("stroke") == "#0000ff"]
        self.assertEqual(len(shapes), 2)        # the stamp and the turtle itself
        texts = list(root.iter(NS + "text"))
        self.assertEqual(len(texts), 1)
        self.assertEqual(texts[0].text, "海龟 <b>&")
        self.assertEqual(texts[0].get("text-anchor"), "middle")
        self.assertEqual(texts[0].get("font-weight"), "bold")
        self.assertIn("Noto Sans CJK SC", texts[0].get("font-family"))
        # The fill is painted beneath the outline drawn around it.
        order = [el for el in root if el.tag == NS + "path"]
        fill_at = order.index(fills[0])
        outline_at = next(i for i, p in enumerate(order) if p.get("stroke") == "#0000ff")
        self.assertLess(fill_at, outline_at)

    def test_hostile_text_and_font_are_escaped(self):
        r = self.run_prog(
            "import turtle\nturtle.write('<script>alert(1)</script>\\x01\"', font=('x\"/><script>', 12, 'normal'))\n")
        raw = base64.b64decode(r.result["images"][0]["data"]).decode("utf-8")
        self.assertNotIn("<script", raw)
        root = ET.fromstring(raw)
        self.assertEqual([e for e in root.iter(NS + "script")], [])
        text = next(root.iter(NS + "text"))
        self.assertTrue(text.text.startswith("<script>alert(1)</script>"))

    def test_colour_names_with_quotes_are_rejected(self):
        r = self.run_prog("import turtle\nturtle.pencolor('red\" onload=\"x')\n")
        self.assertEqual(r.result["error"]["type"], "TurtleGraphicsError")
        raw = base64.b64decode(r.result["images"][0]["data"]).decode("utf-8")
        self.assertNotIn("onload", raw)

    def test_view_box_holds_far_drawing(self):
        r = self.run_prog("import turtle\nturtle.forward(1000)\n")
        root = svg_of(r.result)
        x, y, w, h = (float(v) for v in root.get("viewBox").split())
        self.assertGreaterEqual(x + w, 1000)
        self.assertLessEqual(x, -200)
        view = r.result["drawing"]["view"]
        self.assertGreaterEqual(view[0] + view[2], 1000)

    def test_background_and_clear(self):
        r = self.run_prog("import turtle\nturtle.bgcolor('black')\nt = turtle.Turtle()\nt.pencolor('white')\n"
                          "t.forward(50)\nt.clear()\nt.pencolor('red')\nt.forward(20)\nt.undo()\nt.hideturtle()\n")
        root = svg_of(r.result)
        rect = next(root.iter(NS + "rect"))
        self.assertEqual(rect.get("fill"), "#000000")
        strokes = [p.get("stroke") for p in root.iter(NS + "path")]
        self.assertEqual(strokes, [])

    def test_no_turtle_no_svg(self):
        r = self.run_prog("import turtle\nprint(turtle.Vec2D(1, 2))\n")
        self.assertEqual(r.result["images"], [])
        self.assertIsNone(r.result["drawing"])

    def test_drawing_model_fields(self):
        r = self.run_prog("import turtle\nt = turtle.Turtle()\nt.speed(5)\nt.forward(10)\nt.left(90)\n"
                          "t.penup()\nt.forward(5)\nturtle.tracer(0)\nt.pendown()\nt.forward(1)\n")
        d = r.result["drawing"]
        kinds = [(s["k"], s.get("s")) for s in d["steps"]]
        self.assertIn(("move", 5), kinds)
        self.assertIn(("turn", 5), kinds)
        moves = [s for s in d["steps"] if s["k"] == "move"]
        self.assertEqual(moves[0]["c"], "#000000")
        self.assertNotIn("c", moves[1])                 # pen up
        self.assertEqual(moves[-1]["s"], 0)              # tracer(0): instant
        self.assertEqual(d["turtles"][0]["heading"], 90.0)
        self.assertEqual(d["turtles"][0]["shape"], "classic")

    def test_render_unit_escaping(self):
        self.assertEqual(kidsvg.esc("<a href='x'>&\"</a>"),
                         "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;")
        self.assertEqual(kidsvg._color('red" x="1'), None)
        self.assertEqual(kidsvg._color("#00ff00"), "#00ff00")

    def test_bytes_per_step_is_small(self):
        kidturtle.reset_state()
        t = kidturtle.Turtle()
        kidturtle.tracer(0)
        for i in range(2000):
            t.forward(i % 50 + 1)
            t.left(61)
        svg = kidsvg.render(kidturtle.current_screen().drawing())
        kidturtle.reset_state()
        self.assertLess(len(svg) / 2000.0, 16)


if __name__ == "__main__":
    unittest.main()
