"""Unit tests of the recorder's geometry, after CPython's Lib/test/test_turtle.py."""

import math
import sys
import unittest

import harness

sys.path.insert(0, harness.PYDIR)
import kidturtle as turtle  # noqa: E402


class Vec2DTest(unittest.TestCase):
    def test_constructor_and_repr(self):
        v = turtle.Vec2D(0.5, 2)
        self.assertEqual((v[0], v[1]), (0.5, 2))
        self.assertIsInstance(v, tuple)
        self.assertEqual(repr(v), "(0.50,2.00)")

    def test_arithmetic(self):
        a, b = turtle.Vec2D(0, 1), turtle.Vec2D(2, 3)
        self.assertEqual(a + b, (2, 4))
        self.assertEqual(a - b, (-2, -2))
        self.assertEqual(a * b, 3)
        self.assertEqual(b * 2, (4, 6))
        self.assertEqual(2 * b, (4, 6))
        self.assertEqual(-b, (-2, -3))
        self.assertAlmostEqual(abs(turtle.Vec2D(3, 4)), 5)
        self.assertIs(b.__rmul__("x"), NotImplemented)

    def test_rotate(self):
        cases = [((1, 0), 90, (0, 1)), ((1, 0), -90, (0, -1)), ((0, 1), 180, (0, -1)),
                 ((1, 1), 45, (0, math.sqrt(2)))]
        for vec, angle, expected in cases:
            got = turtle.Vec2D(*vec).rotate(angle)
            self.assertAlmostEqual(got[0], expected[0])
            self.assertAlmostEqual(got[1], expected[1])


class NavigatorTest(unittest.TestCase):
    def setUp(self):
        self.nav = turtle.TNavigator()

    def test_goto_and_distance(self):
        self.nav.goto(100, -100)
        self.assertAlmostEqual(self.nav.xcor(), 100)
        self.assertAlmostEqual(self.nav.ycor(), -100)
        self.assertAlmostEqual(self.nav.distance(0, 0), math.hypot(100, 100))
        self.nav.setx(5)
        self.nav.sety(6)
        self.assertEqual(self.nav.pos(), (5, 6))

    def test_heading_and_towards(self):
        self.nav.left(90)
        self.assertAlmostEqual(self.nav.heading(), 90)
        self.nav.right(180)
        self.assertAlmostEqual(self.nav.heading(), 270)
        self.assertAlmostEqual(self.nav.towards(0, 10), 90)
        self.nav.setheading(-45)
        self.assertAlmostEqual(self.nav.heading(), 315)

    def test_forward_backward(self):
        self.nav.forward(200)
        self.assertAlmostEqual(self.nav.xcor(), 200)
        self.nav.back(300)
        self.assertAlmostEqual(self.nav.xcor(), -100)

    def test_radians_and_degrees(self):
        self.nav.left(90)
        self.nav.radians()
        self.assertAlmostEqual(self.nav.heading(), math.pi / 2)
        self.nav.degrees(400)
        self.assertAlmostEqual(self.nav.heading(), 100)

    def test_circle_polygon_ends_where_it_started(self):
        self.nav.circle(50)
        self.assertAlmostEqual(self.nav.xcor(), 0)
        self.assertAlmostEqual(self.nav.ycor(), 0)
        self.nav.circle(50, 90, steps=1)
        self.assertAlmostEqual(self.nav.xcor(), 50)
        self.assertAlmostEqual(self.nav.ycor(), 50)


class PenTest(unittest.TestCase):
    def test_pendown_penup_and_pensize(self):
        p = turtle.TPen()
        self.assertTrue(p.isdown())
        p.penup()
        self.assertFalse(p.isdown())
        p.pensize(10)
        self.assertEqual(p.pensize(), 10)

    def test_showturtle_hideturtle_and_speed(self):
        p = turtle.TPen()
        p.hideturtle()
        self.assertFalse(p.isvisible())
        p.speed("fast")
        self.assertEqual(p.speed(), 10)
        p.speed(20)
        self.assertEqual(p.speed(), 0)


class RecorderTest(unittest.TestCase):
    def setUp(self):
        turtle.reset_state()

    def tearDown(self):
        turtle.reset_state()

    def test_segments_record_speed_and_colour(self):
        t = turtle.Turtle()
        t.speed(7)
        t.pencolor(0, 0.5, 1)
        t.forward(10)
        moves = [s for s in turtle.current_screen().drawing()["steps"] if s[0] == "move"]
        self.assertEqual(moves[-1][2], 7)
        self.assertEqual(moves[-1][7], "#0080ff")
        self.assertEqual(moves[-1][5:7], (10.0, 0.0))

    def test_bad_colours_raise_like_cpython(self):
        t = turtle.Turtle()
        for bad in ("nocolour", "#12", (1, 2), (2, 0, 0)):
            with self.assertRaises(turtle.TurtleGraphicsError):
                t.pencolor(bad)

    def test_fill_step_painted_at_begin(self):
        t = turtle.Turtle()
        t.forward(5)
        t.begin_fill()
        for _ in range(3):
            t.forward(20)
            t.left(120)
        t.end_fill()
        steps = turtle.current_screen().drawing()["steps"]
        fill = [s for s in steps if s[0] == "fill"][0]
        self.assertEqual(len(fill[4]), 4)
        self.assertLess(fill[5], steps.index(fill))


if __name__ == "__main__":
    unittest.main()
