"""The drawing shows the program's own window: setup() and screensize() give
it a size, and the background covers that area only (the drawing's "area"),
as CPython's window shows it; without them it covers everything, as before.
"""

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

SVG = "{http://www.w3.org/2000/svg}"


class WindowAreaTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_program(self, source, live=False):
        path = harness.write_program(self.tmp, "main.py", source)
        r = harness.run(path, extra=["--live"] if live else ())
        self.assertIsNone(r.result["error"], r.stderr)
        return r

    def rects(self, r):
        svg = ET.fromstring(base64.b64decode(r.result["images"][0]["data"]))
        box = [float(v) for v in svg.get("viewBox").split()]
        rects = [[float(e.get(a)) for a in ("x", "y", "width", "height")] + [e.get("fill")]
                 for e in svg.iter(SVG + "rect")]
        return box, rects

    def test_setup_gives_the_window_its_own_background(self):
        r = self.run_program("import turtle\n"
                             "s = turtle.Screen()\n"
                             "s.setup(420, 420)\n"
                             "s.bgcolor('honeydew')\n"
                             "turtle.forward(300)\n")
        d = r.result["drawing"]
        self.assertEqual(d["area"], [-210, -210, 420, 420])
        box, rects = self.rects(r)
        # Outside the window first, over all the picture (it reaches x=300),
        # then the background over the window alone.
        self.assertEqual(rects[0], box + [kidsvg.OUTSIDE])
        self.assertEqual(rects[1], [-210, -210, 420, 420, "#f0fff0"])
        self.assertGreater(box[0] + box[2], 300)

    def test_without_a_window_size_the_background_fills_the_picture(self):
        r = self.run_program("import turtle\nturtle.bgcolor('black')\nturtle.forward(300)\n")
        self.assertIsNone(r.result["drawing"]["area"])
        box, rects = self.rects(r)
        self.assertEqual(rects, [box + ["#000000"]])

    def test_a_canvas_larger_than_the_window_is_background_too(self):
        # CPython scrolls to the rest of a screensize() canvas, in the background colour.
        r = self.run_program("import turtle\n"
                             "s = turtle.Screen()\n"
                             "s.setup(420, 420)\n"
                             "s.screensize(600, 500)\n"
                             "turtle.forward(10)\n")
        self.assertEqual(r.result["drawing"]["area"], [-300, -250, 600, 500])
        self.assertEqual(r.result["drawing"]["width"], 420)

    def test_screensize_alone_sizes_the_default_window(self):
        r = self.run_program("import turtle\nturtle.screensize(300, 300)\nturtle.forward(10)\n")
        # CPython's window: half the 1280 x 1024 display wide, three quarters high.
        self.assertEqual(r.result["drawing"]["area"], [-320, -384, 640, 768])

    def test_world_coordinates(self):
        r = self.run_program("import turtle\n"
                             "s = turtle.Screen()\n"
                             "s.setup(600, 500)\n"
                             "s.setworldcoordinates(0, 0, 100, 50)\n"
                             "turtle.forward(10)\n")
        # The window is 20 px larger than the canvas setworldcoordinates
        # made, centred on it: 10 px of background around the world.
        self.assertEqual(r.result["drawing"]["area"], [-1.72, -1.04, 103.45, 52.08])

    def test_live_screen_frames_carry_the_area(self):
        r = self.run_program("import turtle\n"
                             "s = turtle.Screen()\n"
                             "s.setup(420, 420)\n"
                             "s.bgcolor('honeydew')\n", live=True)
        screens = [f for f in r.all_frames if f["type"] == "screen"]
        self.assertIsNone(screens[0]["area"])
        self.assertEqual(screens[-1]["area"], [-210, -210, 420, 420])
        self.assertEqual(screens[-1]["bg"], "#f0fff0")

    def test_renderer_drops_a_bad_area(self):
        for area in (None, [1, 2, 3], [0, 0, -1, 5], ["x", 0, 1, 1], [0, 0, float("inf"), 1]):
            with self.subTest(area=area):
                svg = kidsvg.render({"width": 400, "height": 400, "bg": "#ffffff", "area": area,
                                     "steps": [], "turtles": []})
                rects = list(ET.fromstring(svg).iter(SVG + "rect"))
                self.assertEqual(len(rects), 1)


if __name__ == "__main__":
    unittest.main()
