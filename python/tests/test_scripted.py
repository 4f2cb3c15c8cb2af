"""Scripted runs (--live --scripted): a timeline plays on the program's own
clock, which moves only while the program waits, so the same program and
timeline give the same game however slowly the machine runs it.

A test slows the program down with real work (a busy loop between its
steps) and checks the game is the same, event for event; no verdict reads
the clock.
"""

import json
import os
import shutil
import tempfile
import unittest

import harness

# Real work that takes a while on any machine, and no time on the scripted clock.
SLOW = "def slow():\n    n = 0\n    for i in range(%d):\n        n += i\n\n"


class ScriptedTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def play(self, source, timeline, lang="en"):
        """Run source with the timeline (at_ms, event) as the host sends it, to its end."""
        path = harness.write_program(self.tmp, "main.py", source)
        r = harness.Run(path, lang=lang, extra=["--live", "--scripted"])
        lines = []
        for at, ev in timeline:
            ev = dict(ev, at_ms=at)
            lines.append(json.dumps(ev))
        lines.append(json.dumps({"type": "script_end"}))
        os.write(r.control, ("\n".join(lines) + "\n").encode("utf-8"))
        r.finish()
        return r

    def same_on_a_slow_machine(self, source, timeline, slow_at, loops=2000000):
        """The game's output with the program slowed at the lines marked #SLOW, and without."""
        fast = self.play((SLOW % 1) + source.replace("#SLOW", "slow()"), timeline)
        slow = self.play((SLOW % loops) + source.replace("#SLOW", "slow()"), timeline)
        self.assertEqual(fast.stdout, slow.stdout, "the slowed program played another game")
        self.assertIn(slow_at, slow.stdout)
        return fast

    def test_timers_and_the_close_keep_the_timelines_clock(self):
        # The course's traffic light: a timer every 300 ms, closed at 2.8 s.
        r = self.same_on_a_slow_machine(
            "import turtle\n"
            "screen = turtle.Screen()\n"
            "light = turtle.Turtle('circle')\n"
            "colors = ['green', 'yellow', 'red']\n"
            "n = 0\n"
            "def change():\n"
            "    global n\n"
            "    #SLOW\n"
            "    light.color(colors[n % 3])\n"
            "    print(colors[n % 3])\n"
            "    n = n + 1\n"
            "    screen.ontimer(change, 300)\n"
            "change()\n"
            "turtle.done()\n"
            "print('closed after', n)\n",
            [(2800, {"type": "close"})], "closed after")
        # 0, 300, ..., 2700 ms: ten changes before the close (each screen update moves the clock 1 ms).
        self.assertEqual(r.stdout.count("\n"), 10)
        self.assertTrue(r.stdout.endswith("closed after 9\n"), r.stdout)

    def test_clicks_wait_for_a_slow_start(self):
        # Clicks at 300 and 500 ms reach a handler set after seconds of work.
        r = self.same_on_a_slow_machine(
            "import turtle\n"
            "#SLOW\n#SLOW\n#SLOW\n"
            "screen = turtle.Screen()\n"
            "def clicked(x, y):\n"
            "    print('click', x, y)\n"
            "screen.onscreenclick(clicked)\n"
            "turtle.done()\n"
            "print('closed')\n",
            [(300, {"type": "mouse", "action": "down", "x": 10, "y": 20, "button": 1}),
             (300, {"type": "mouse", "action": "up", "x": 10, "y": 20, "button": 1}),
             (500, {"type": "mouse", "action": "down", "x": -5, "y": 1, "button": 1}),
             (500, {"type": "mouse", "action": "up", "x": -5, "y": 1, "button": 1}),
             (800, {"type": "close"})], "closed")
        self.assertEqual(r.stdout, "click 10.0 20.0\nclick -5.0 1.0\nclosed\n")

    def test_a_key_waits_for_listen_and_the_rest_moves_with_it(self):
        # The program waits 2 s before listen(): the key due at 1 s goes at
        # 2 s, and the close due 200 ms after it, 200 ms after that.
        r = self.same_on_a_slow_machine(
            "import time, turtle\n"
            "screen = turtle.Screen()\n"
            "start = 0\n"
            "def up():\n"
            "    #SLOW\n"
            "    print('up')\n"
            "    screen.ontimer(lambda: print('150 ms after the key'), 150)\n"
            "    screen.ontimer(lambda: print('250 ms after the key'), 250)\n"
            "screen.onkey(up, 'Up')\n"
            "time.sleep(2)\n"
            "screen.listen()\n"
            "turtle.done()\n"
            "print('closed')\n",
            [(1000, {"type": "key", "key": "Up", "down": True}),
             (1000, {"type": "key", "key": "Up", "down": False}),
             (1200, {"type": "close"})], "closed")
        self.assertEqual(r.stdout, "up\n150 ms after the key\nclosed\n")

    def test_a_slow_handler_is_re_entered_the_same_way(self):
        # Keys 250 ms apart into a handler that moves the turtle slowly (its
        # animation waits take the program's clock, as CPython's do).
        r = self.same_on_a_slow_machine(
            "import turtle\n"
            "screen = turtle.Screen()\n"
            "t = turtle.Turtle()\n"
            "t.speed(1)\n"
            "depth = 0\n"
            "def right():\n"
            "    global depth\n"
            "    depth += 1\n"
            "    print('in', depth)\n"
            "    #SLOW\n"
            "    t.forward(100)\n"
            "    depth -= 1\n"
            "screen.onkey(right, 'Right')\n"
            "screen.listen()\n"
            "turtle.done()\n"
            "print('x', round(t.xcor()))\n",
            [(at, {"type": "key", "key": "Right", "down": d})
             for at in (1000, 1250, 1500, 1750) for d in (True, False)] + [(2750, {"type": "close"})],
            "x ")
        self.assertIn("in 1\n", r.stdout)

    def test_an_answer_goes_to_its_dialog(self):
        r = self.same_on_a_slow_machine(
            "import turtle\n"
            "#SLOW\n"
            "name = turtle.textinput('Name', 'Your name?')\n"
            "print('hello', name)\n"
            "age = turtle.numinput('Age', 'How old?')\n"
            "print('age', age)\n",
            [(100, {"type": "answer", "text": "小明"}), (150, {"type": "answer", "text": "9"})],
            "age")
        self.assertEqual(r.stdout, "hello 小明\nage 9.0\n")

    def test_a_game_loop_of_its_own_is_closed_while_it_plays(self):
        # No mainloop(): the loop's screen updates move the clock to the close.
        r = self.play(
            "import turtle\n"
            "screen = turtle.Screen()\n"
            "screen.tracer(0)\n"
            "t = turtle.Turtle()\n"
            "screen.listen()\n"
            "n = 0\n"
            "while True:\n"
            "    t.forward(1)\n"
            "    t.back(1)\n"
            "    screen.update()\n"
            "    n += 1\n",
            [(500, {"type": "close"})])
        self.assertIsNone(r.result["error"], r.stderr[-2000:])
        self.assertEqual(r.stdout, "")

    def test_a_run_without_script_end_waits_for_its_timeline(self):
        # Events that come one by one still make one timeline: the clock
        # does not move before the host said the timeline is whole.
        path = harness.write_program(self.tmp, "main.py",
                                     "import turtle\nprint('before', flush=True)\n"
                                     "turtle.onkey(lambda: print('a'), 'a')\n"
                                     "turtle.listen()\nturtle.done()\nprint('closed')\n")
        r = harness.Run(path, extra=["--live", "--scripted"])
        self.assertTrue(r.wait_stdout(b"before\n"))
        for ev in ({"type": "key", "key": "a", "down": True, "at_ms": 10},
                   {"type": "key", "key": "a", "down": False, "at_ms": 10},
                   {"type": "close", "at_ms": 20}, {"type": "script_end"}):
            os.write(r.control, (json.dumps(ev) + "\n").encode("utf-8"))
        r.finish()
        self.assertEqual(r.stdout, "before\na\nclosed\n")


if __name__ == "__main__":
    unittest.main()
