"""Live runs (--live) through real pipes: events, timers, dialogs, closing, stopping, pacing.

Every test waits for what the program printed before it sends the next
event, and pacing is checked on the `d` values the runner reports, never
on the clock, so no verdict depends on the machine's speed.
"""

import json
import os
import shutil
import sys
import tempfile
import threading
import unittest

import harness

sys.path.insert(0, harness.PYDIR)
import kidlive  # noqa: E402


class LiveTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def start(self, source, lang="en", keep_stdin_open=False, extra=()):
        path = harness.write_program(self.tmp, "main.py", source)
        return harness.Run(path, lang=lang, extra=["--live"] + list(extra),
                           keep_stdin_open=keep_stdin_open)

    def send(self, run, *events):
        for ev in events:
            line = ev if isinstance(ev, bytes) else (json.dumps(ev) + "\n").encode("utf-8")
            os.write(run.control, line)

    def wait_out(self, run, text):
        self.assertTrue(run.wait_stdout(text.encode("utf-8")), "never printed %r" % text)

    def frames(self, run, ftype):
        return [f for f in run.all_frames if f["type"] == ftype]

    def test_mainloop_returns_when_nothing_can_happen(self):
        r = self.start(
            "import turtle\n"
            "turtle.ontimer(lambda: print('timer'), 50)\n"
            "turtle.done()\n"
            "turtle.forward(10)\n"
            "print('after', turtle.pos())\n")
        r.finish()
        # No handler and no timer left: done() returns, the window stays open.
        self.assertEqual(r.stdout, "timer\nafter (10.00,0.00)\n")
        self.assertEqual(self.frames(r, "bye"), [])

    def test_mainloop_returns_when_no_event_can_come(self):
        r = self.start(
            "import turtle\n"
            "turtle.onkey(print, 'a')\n"
            "print('ready')\n"
            "turtle.done()\n"
            "print('after')\n")
        self.wait_out(r, "ready\n")
        os.close(r.control)
        r.control = os.open(os.devnull, os.O_WRONLY)    # finish() closes it
        r.finish()
        # The host closed the control pipe: no key can ever come.
        self.assertEqual(r.stdout, "ready\nafter\n")
        self.assertEqual(r.code, 0)

    def steps(self, run):
        """Every step of the draw frames, checked to be numbered without gaps."""
        out = []
        for f in self.frames(run, "draw"):
            self.assertEqual(f["from"], len(out))
            out.extend(f["steps"])
        return out

    KEY_UP = [{"type": "key", "key": "Up", "down": True}, {"type": "key", "key": "Up", "down": False}]

    # -- keys
    def test_keys_reach_handlers_only_after_listen(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "t = turtle.Turtle()\n"
            "t.speed(0)\n"
            "def up():\n"
            "    t.forward(10)\n"
            "    print('up', t.pos())\n"
            "def press():\n"
            "    print('press')\n"
            "def anykey():\n"
            "    print('any')\n"
            "s.onkey(up, 'Up')\n"
            "s.onkeypress(press, 'Up')\n"
            "s.onkeypress(anykey)\n"
            "print('waiting')\n"
            "input()\n"
            "s.listen()\n"
            "print('listening')\n"
            "turtle.done()\n"
            "print('after', t.pos())\n", keep_stdin_open=True)
        self.wait_out(r, "waiting\n")
        self.send(r, *self.KEY_UP)
        self.assertTrue(harness.control_consumed(r))
        r.proc.stdin.write(b"\n")
        r.proc.stdin.close()
        self.wait_out(r, "listening\n")
        self.send(r, *self.KEY_UP)
        self.wait_out(r, "up (10.00,0.00)\n")
        self.send(r, {"type": "key", "key": "a", "down": True}, {"type": "key", "key": "a", "down": False})
        self.wait_out(r, "any\n")
        self.send(r, {"type": "close"})
        r.finish()
        # The keys sent before listen() reached no handler; a specific
        # onkeypress wins over the any-key one, as Tk picks bindings.
        self.assertEqual(r.stdout, "waiting\nlistening\npress\nup (10.00,0.00)\nany\nafter (10.00,0.00)\n")
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stderr, "")
        self.assertEqual(len(self.frames(r, "listen")), 1)
        self.assertIsNone(r.result["error"])

    def test_handler_removed_with_none(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "def up():\n"
            "    print('up')\n"
            "    s.onkey(None, 'Up')\n"
            "s.onkey(up, 'Up')\n"
            "s.onkey(lambda: print('a'), 'a')\n"
            "s.listen()\n"
            "print('ready')\n"
            "turtle.done()\n")
        self.wait_out(r, "ready\n")
        self.send(r, *self.KEY_UP)
        self.wait_out(r, "up\n")
        self.send(r, *self.KEY_UP)
        self.send(r, {"type": "key", "key": "a", "down": False})
        self.wait_out(r, "a\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout, "ready\nup\na\n")

    # -- mouse
    def test_screen_click_gets_world_coordinates(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "s.onscreenclick(lambda x, y: print('one', x, y))\n"
            "s.onscreenclick(lambda x, y: print('two', x, y), 1, add=True)\n"
            "s.onclick(lambda x, y: print('right', x, y), 3)\n"
            "print('ready')\n"
            "turtle.done()\n")
        self.wait_out(r, "ready\n")
        # A point between pixels lands on the whole pixel Tk would report.
        self.send(r, {"type": "mouse", "action": "down", "x": 12.6, "y": -40.2, "button": 1},
                  {"type": "mouse", "action": "up", "x": 12.6, "y": -40.2, "button": 1},
                  {"type": "mouse", "action": "down", "x": 3, "y": 4, "button": 3})
        self.wait_out(r, "right 3.0 4.0\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout, "ready\none 13.0 -40.0\ntwo 13.0 -40.0\nright 3.0 4.0\n")

    def test_turtle_click_hits_its_shape_topmost_first_then_screen(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "a = turtle.Turtle(shape='square')\n"
            "b = turtle.Turtle(shape='square')\n"
            "b.penup(); b.speed(0); b.goto(10, 0)\n"
            "a.onclick(lambda x, y: print('a', x, y))\n"
            "b.onclick(lambda x, y: print('b', x, y))\n"
            "b.ondrag(lambda x, y: print('drag b', x, y))\n"
            "b.onrelease(lambda x, y: print('release b', x, y))\n"
            "s.onclick(lambda x, y: print('screen', x, y))\n"
            "print('ready')\n"
            "turtle.done()\n")
        self.wait_out(r, "ready\n")
        m = lambda a, x, y: {"type": "mouse", "action": a, "x": x, "y": y, "button": 1}
        # (5, 0) is on both squares: b was drawn last, so it is on top.
        self.send(r, m("down", 5, 0), m("move", 30, 1), m("up", 31, 2))
        self.wait_out(r, "release b 31.0 2.0\n")
        # (-8, 0) is only on a; (100, 100) on no turtle; a has no release handler.
        self.send(r, m("down", -8, 0), m("up", -8, 0), m("down", 100, 100), m("up", 100, 100))
        self.wait_out(r, "screen 100.0 100.0\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout.splitlines(), [
            "ready", "b 5.0 -0.0", "screen 5.0 -0.0", "drag b 30.0 1.0", "release b 31.0 2.0",
            "a -8.0 -0.0", "screen -8.0 -0.0", "screen 100.0 100.0"])
        # (y 0 reaches handlers as -0.0: CPython divides the negated canvas pixel.)

    def test_pointer_frame_says_once_that_a_pointer_handler_is_set(self):
        # A scripted click waits for this frame (docs/contracts.md §3): each way
        # to set a click, release or drag handler sends it, once a run; removing
        # one (None) sets nothing. listen() frames mark where it comes.
        binds = ["turtle.onscreenclick(f)", "turtle.Screen().onclick(f, 3)", "turtle.onclick(f)",
                 "turtle.Turtle().onrelease(f)", "turtle.ondrag(f)"]
        for bind in binds:
            with self.subTest(bind=bind):
                r = self.start(
                    "import turtle\n"
                    "f = lambda x, y: None\n"
                    "turtle.onscreenclick(None)\n"
                    "turtle.Turtle().ondrag(None)\n"
                    "turtle.listen()\n"
                    + bind + "\n"
                    "turtle.onkey(print, 'a')\n"
                    "turtle.listen()\n"
                    + bind + "\n"
                    "turtle.onscreenclick(f, 2)\n"
                    "turtle.done()\n")
                self.assertIsNotNone(r.wait_frame("loop"))
                self.send(r, {"type": "close"})
                r.finish()
                kinds = [f["type"] for f in r.all_frames if f["type"] in ("listen", "pointer", "loop")]
                self.assertEqual(kinds, ["listen", "pointer", "listen", "loop"])
        r = self.start("import turtle\nturtle.exitonclick()\n")
        self.assertIsNotNone(r.wait_frame("loop"))
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual([f["type"] for f in r.all_frames if f["type"] in ("pointer", "loop")], ["pointer", "loop"])

    def test_clicks_before_their_handler_reach_no_one_after_the_pointer_frame_they_do(self):
        # Why a scripted click waits for the pointer frame: a click taken at an
        # event point before its handler is set is gone, as in Tk; one sent
        # once the frame is out reaches the handler, however long the program
        # took to get there.
        r = self.start(
            "import turtle\n"
            "print('ready', flush=True)\n"
            "input()\n"
            "turtle.update()\n"
            "turtle.onscreenclick(lambda x, y: print('click', x, y))\n"
            "turtle.forward(30)\n"
            "turtle.done()\n"
            "print('after')\n", keep_stdin_open=True)
        self.wait_out(r, "ready\n")
        click = lambda x: [{"type": "mouse", "action": a, "x": x, "y": 0, "button": 1} for a in ("down", "up")]
        self.send(r, *click(1))
        self.assertTrue(harness.control_consumed(r))
        r.proc.stdin.write(b"\n")
        r.proc.stdin.close()
        self.assertIsNotNone(r.wait_frame("pointer"))
        self.send(r, *click(2))
        self.send(r, *click(3))
        self.wait_out(r, "click 3.0 -0.0\n")
        self.assertIsNotNone(r.wait_frame("loop"))
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout, "ready\nclick 2.0 -0.0\nclick 3.0 -0.0\nafter\n")
        self.assertEqual(r.code, 0)

    def test_hidden_turtle_is_not_hit(self):
        r = self.start(
            "import turtle\n"
            "t = turtle.Turtle(shape='circle')\n"
            "t.onclick(lambda x, y: print('hit'))\n"
            "t.hideturtle()\n"
            "turtle.onscreenclick(lambda x, y: print('screen'))\n"
            "print('ready')\n"
            "turtle.done()\n")
        self.wait_out(r, "ready\n")
        self.send(r, {"type": "mouse", "action": "down", "x": 0, "y": 0, "button": 1})
        self.wait_out(r, "screen\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout, "ready\nscreen\n")

    # -- timers
    def test_timers_fire_in_due_order_and_rearm(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "n = [0]\n"
            "def tick():\n"
            "    n[0] += 1\n"
            "    print('tick', n[0])\n"
            "    if n[0] < 3:\n"
            "        s.ontimer(tick, 20)\n"
            "    else:\n"
            "        s.bye()\n"
            "s.ontimer(lambda: print('late'), 60000)\n"
            "s.ontimer(tick, 30)\n"
            "s.ontimer(lambda: print('first'))\n"
            "turtle.done()\n"
            "print('end')\n"
            "turtle.forward(10)\n"
            "print('never')\n")
        r.finish()
        self.assertEqual(r.stdout, "first\ntick 1\ntick 2\ntick 3\nend\n")
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stderr, "")
        self.assertIsNone(r.result["error"])
        self.assertEqual(len(self.frames(r, "bye")), 1)

    def test_timers_are_bounded(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "for i in range(1001):\n"
            "    s.ontimer(print, 100000)\n")
        r.finish()
        self.assertEqual(r.code, 1)
        err = r.result["error"]
        self.assertEqual(err["type"], "TurtleGraphicsError")
        self.assertEqual(err["line"], 4)
        self.assertIn("1000", err["message"])
        self.assertIn("ontimer", err["message"])

    # -- closing and stopping
    def test_close_ends_mainloop_then_turtle_call_ends_quietly(self):
        r = self.start(
            "import turtle\n"
            "t = turtle.Turtle()\n"
            "turtle.onscreenclick(print)\n"
            "print('ready')\n"
            "turtle.mainloop()\n"
            "print('closed', t.pos())\n"
            "t.forward(10)\n"
            "print('never')\n")
        self.wait_out(r, "ready\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout, "ready\nclosed (0.00,0.00)\n")
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stderr, "")
        self.assertIsNone(r.result["error"])

    def test_terminator_caught_by_program_and_module_call_after_close(self):
        r = self.start(
            "import turtle\n"
            "turtle.onscreenclick(print)\n"
            "print('ready')\n"
            "turtle.done()\n"
            "try:\n"
            "    turtle.forward(10)\n"
            "except turtle.Terminator:\n"
            "    print('terminator')\n"
            "raise ValueError('after')\n")
        self.wait_out(r, "ready\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.stdout, "ready\nterminator\n")
        self.assertEqual(r.code, 1)
        self.assertEqual(r.result["error"]["type"], "ValueError")

    def test_exitonclick_closes_on_click(self):
        r = self.start(
            "import turtle\n"
            "turtle.forward(20)\n"
            "print('ready')\n"
            "turtle.exitonclick()\n"
            "print('after')\n"
            "turtle.left(90)\n"
            "print('never')\n")
        self.wait_out(r, "ready\n")
        self.send(r, {"type": "mouse", "action": "down", "x": 150, "y": 150, "button": 1})
        r.finish()
        self.assertEqual(r.stdout, "ready\nafter\n")
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stderr, "")
        self.assertEqual(len(self.frames(r, "bye")), 1)
        self.assertEqual(r.result["drawing"]["turtles"][0]["x"], 20)

    def test_timer_error_points_at_timer_line(self):
        r = self.start(
            "import turtle\n"
            "def tick():\n"
            "    turtle.forward(10)\n"
            "    turtle.color('blurple')\n"
            "turtle.ontimer(tick, 10)\n"
            "turtle.done()\n")
        r.finish()
        self.assertEqual(r.code, 1)
        self.assertEqual(r.result["error"]["type"], "TurtleGraphicsError")
        self.assertEqual(r.result["error"]["line"], 4)
        self.assertIn('main.py", line 6, in <module>', r.stderr)
        self.assertIn('main.py", line 4, in tick', r.stderr)

    def test_stop_in_mainloop_ends_it(self):
        r = self.start(
            "import turtle\n"
            "turtle.onkey(print, 'a')\n"
            "turtle.ontimer(lambda: print('ready'))\n"
            "turtle.done()\n"
            "print('after')\n")
        self.wait_out(r, "ready\n")
        self.send(r, b"stop\n")
        r.finish()
        self.assertEqual(r.stdout, "ready\nafter\n")
        self.assertEqual(r.code, 0)

    def test_stop_in_sleep_interrupts(self):
        # The sleep shares its line with the print the test waits for, so a
        # Stop that lands before the sleep has begun names the same line.
        r = self.start(
            "import time\n"
            "\n"
            "print('ready'); time.sleep(600)\n"
            "print('never')\n")
        self.wait_out(r, "ready\n")
        self.send(r, b"stop\n")
        r.finish()
        self.assertEqual(r.code, 130)
        self.assertEqual(r.stdout, "ready\n")
        self.assertEqual(r.result["error"]["type"], "KeyboardInterrupt")
        self.assertEqual(r.result["error"]["line"], 3)
        # The child pressed Stop: no traceback, the window says it stopped.
        self.assertEqual(r.stderr, "")

    def test_sleep_runs_handlers_and_checks_its_argument(self):
        r = self.start(
            "import time, turtle\n"
            "turtle.ontimer(lambda: print('timer'), 10)\n"
            "time.sleep(0.2)\n"
            "print('slept')\n"
            "for bad in ('1', -1):\n"
            "    try:\n"
            "        time.sleep(bad)\n"
            "    except (TypeError, ValueError) as e:\n"
            "        print(type(e).__name__)\n")
        r.finish()
        self.assertEqual(r.stdout, "timer\nslept\nTypeError\nValueError\n")

    # -- handler errors
    def test_handler_error_points_at_handler_line(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "def click(x, y):\n"
            "    print('click')\n"
            "    return 1 / 0\n"
            "s.onclick(click)\n"
            "print('ready')\n"
            "turtle.done()\n")
        self.wait_out(r, "ready\n")
        self.send(r, {"type": "mouse", "action": "down", "x": 0, "y": 0, "button": 1})
        r.finish()
        self.assertEqual(r.code, 1)
        self.assertEqual(r.result["error"]["type"], "ZeroDivisionError")
        self.assertEqual(r.result["error"]["line"], 5)
        self.assertIn('main.py", line 5, in click', r.stderr)
        self.assertNotIn("kidturtle", r.stderr)
        self.assertNotIn("kidlive", r.stderr)

    # -- dialogs
    def test_textinput_and_numinput_dialogs(self):
        r = self.start(
            "import turtle\n"
            "name = turtle.textinput('Hi', 'Name?')\n"
            "print('name', name)\n"
            "n = turtle.numinput('N', 'Number?', 5, minval=1, maxval=10)\n"
            "print('n', n)\n"
            "print('cancel', turtle.textinput('Hi', 'Again?'))\n")
        self.assertIsNotNone(r.wait_frame("dialog"))
        self.send(r, {"type": "answer", "text": "小明"})
        self.wait_out(r, "name 小明\n")
        # Each answer goes out once its dialog is shown, as the window sends them.
        for shown, answer in ((2, "abc"), (3, "42"), (4, "7")):
            self.wait_frames(r, "dialog", shown)
            self.send(r, {"type": "answer", "text": answer})
        self.wait_out(r, "n 7.0\n")
        self.wait_frames(r, "dialog", 5)
        self.send(r, {"type": "answer", "text": None})
        r.finish()
        self.assertEqual(r.stdout, "name 小明\nn 7.0\ncancel None\n")
        dialogs = self.frames(r, "dialog")
        self.assertEqual(dialogs[0], {"type": "dialog", "kind": "text", "title": "Hi", "prompt": "Name?"})
        self.assertEqual(dialogs[1], {"type": "dialog", "kind": "number", "title": "N", "prompt": "Number?",
                                      "default": 5, "min": 1, "max": 10, "error": False})
        self.assertEqual([d["error"] for d in dialogs[1:4]], [False, True, True])

    def frames_now(self, run, ftype):
        with run.frame_event:
            return [f for f in run.frames if f is not None and f["type"] == ftype]

    def wait_frames(self, run, ftype, n):
        with run.frame_event:
            ok = run.frame_event.wait_for(
                lambda: len([f for f in run.frames if f is not None and f["type"] == ftype]) >= n, 30)
        self.assertTrue(ok)

    # -- bounds
    def test_event_flood_is_bounded(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "n = [0]\n"
            "def key():\n"
            "    n[0] += 1\n"
            "s.onkeypress(key, 'space')\n"
            "s.listen()\n"
            "print('ready')\n"
            "input()\n"
            "turtle.done()\n"
            "print('keys', n[0])\n", keep_stdin_open=True)
        self.wait_out(r, "ready\n")
        line = (json.dumps({"type": "key", "key": "space", "down": True}) + "\n").encode()
        self.send(r, line * 3000, b"x" * 10000 + b"\n", b'{"type": "close"}\n')
        self.assertTrue(harness.control_consumed(r))
        r.proc.stdin.write(b"\n")
        r.proc.stdin.close()
        r.finish()
        # Held-down keys past the bound are dropped; the close is not.
        self.assertEqual(r.stdout, "ready\nkeys 256\n")
        self.assertEqual(r.code, 0)

    def test_queue_keeps_close_stop_and_answers_past_the_bound(self):
        live = kidlive.Live(lambda f: True, lambda t: True, None, lambda: None, 0)
        live.feed(("key", "a", True))
        self.assertEqual(len(live.events), 0)     # keys before listen() go nowhere
        live.keys_on = True
        for _ in range(1000):
            live.feed(("key", "a", True))
        live.feed(("close",))
        live.feed(("close",))
        self.assertEqual(len(live.events), kidlive.QUEUE_MAX + 1)
        self.assertEqual(live.dropped, 1000 - kidlive.QUEUE_MAX)
        live.feed(("answer", "x"))
        self.assertEqual(len(live.answers), 0)    # no dialog waits: nothing to answer
        live.asking = True
        live.feed(("answer", "x"))
        self.assertEqual(list(live.answers), ["x"])

    def test_control_lines_are_checked(self):
        bad = [b'{"type": "key", "key": "Up"}', b'{"type": "key", "key": "", "down": true}',
               b'{"type": "key", "key": "a-b", "down": true}', b'{"type": "key", "key": "' + b"a" * 33 + b'", "down": true}',
               b'{"type": "mouse", "action": "down", "x": 1, "y": 2, "button": 4}',
               b'{"type": "mouse", "action": "down", "x": true, "y": 2, "button": 1}',
               b'{"type": "mouse", "action": "down", "x": 1e999, "y": 2, "button": 1}',
               b'{"type": "mouse", "action": "click", "x": 1, "y": 2, "button": 1}',
               b'{"type": "answer", "text": 3}', b'{"type": "nope"}', b"[1]", b"stopp", b"\xff"]
        for line in bad:
            self.assertIsNone(kidlive.parse_line(line), line)
        self.assertEqual(kidlive.parse_line(b' stop \r'), ("stop",))
        self.assertEqual(kidlive.parse_line(b'{"type": "mouse", "action": "up", "x": 1, "y": -2.5, "button": 3}'),
                         ("mouse", "up", 1.0, -2.5, 3))
        self.assertEqual(kidlive.parse_line(b'{"type": "answer", "text": null}'), ("answer", None))

    def test_pace_lines_are_checked(self):
        for line in [b'{"type": "pace"}', b'{"type": "pace", "speed": "2"}', b'{"type": "pace", "speed": 0}',
                     b'{"type": "pace", "speed": -1}', b'{"type": "pace", "speed": 1000}',
                     b'{"type": "pace", "speed": true}', b'{"type": "pace", "speed": NaN}']:
            self.assertIsNone(kidlive.parse_line(line), line)
        self.assertEqual(kidlive.parse_line(b'{"type": "pace", "speed": 0.25}'), ("pace", 0.25))
        self.assertEqual(kidlive.parse_line(b'{"type": "pace", "speed": 10}'), ("pace", 10.0))
        self.assertEqual(kidlive.parse_line(b'{"type": "finish"}'), ("finish",))

    # -- pacing and live frames
    def test_pacing_follows_cpython(self):
        r = self.start(
            "import turtle\n"
            "t = turtle.Turtle()\n"
            "t.speed(1)\n"
            "t.forward(100)\n"      # 1 + 100 // 3.3 = 31 updates
            "t.left(90)\n"          # 1 + 90 // 3 = 31 steps, plus one update
            "t.speed(0)\n"
            "t.forward(50)\n"       # one update
            "t.dot(5)\n"
            "turtle.delay(0)\n"
            "t.speed(10)\n"
            "t.forward(100)\n"
            "turtle.delay(5)\n"
            "t.speed(6)\n"
            "t.backward(200)\n"     # 1 + 200 // (18 * 1.1 ** 6) = 7 updates
            "print('done')\n")
        r.finish()
        self.assertEqual(r.code, 0)
        steps = self.steps(r)
        # The live steps are the result's, each with its waiting time.
        self.assertEqual([{k: v for k, v in st.items() if k != "ms" and (k != "d" or st["k"] == "dot")}
                          for st in steps], r.result["drawing"]["steps"])
        self.assertTrue(all(st["d"] == st["ms"] for st in steps if st["k"] != "dot"))
        moves = [(s["k"], s.get("x2"), s["ms"]) for s in steps if s["k"] in ("move", "turn", "dot")]
        self.assertEqual(moves, [("move", 100.0, 310), ("turn", None, 320), ("move", 100.0, 10),
                                 ("dot", None, 10), ("move", 100.0, 0), ("move", 100.0, 35)])
        self.assertEqual(self.frames(r, "screen")[0]["view"], [-200.0, -200.0, 400.0, 400.0])

    def test_speed_dial_paces_the_turtle_and_finish_holds(self):
        r = self.start(
            "import turtle\n"
            "t = turtle.Turtle()\n"
            "t.speed(1)\n"
            "n = 0\n"
            "def draw():\n"
            "    global n\n"
            "    t.forward(100)\n"     # 31 updates: 310 ms at CPython's pace
            "    n += 1\n"
            "    print('drawn', n)\n"
            "turtle.listen()\n"
            "turtle.onkey(draw, 'space')\n"
            "print('ready')\n"
            "turtle.done()\n")
        self.wait_out(r, "ready\n")
        space = {"type": "key", "key": "space", "down": False}
        # A pace line goes before the key that draws: the control thread
        # takes them in order, so the handler draws at the new pace.
        self.send(r, {"type": "pace", "speed": 2}, space)
        self.wait_out(r, "drawn 1\n")
        self.send(r, {"type": "pace", "speed": 0.5}, space)
        self.wait_out(r, "drawn 2\n")
        # Finish holds for the rest of the run: a later pace line changes nothing.
        self.send(r, {"type": "finish"}, {"type": "pace", "speed": 0.5}, space)
        self.wait_out(r, "drawn 3\n")
        self.send(r, {"type": "close"})
        r.finish()
        self.assertEqual(r.code, 0)
        moves = [s for s in self.steps(r) if s["k"] == "move"]
        self.assertEqual([s["ms"] for s in moves], [155, 620, 0])
        # d is CPython's own time whatever the dial said: "watch again" plays it so.
        self.assertEqual([s["d"] for s in moves], [310, 310, 310])

    def test_pace_retimes_a_wait_at_once(self):
        # Each update waits a minute at CPython's pace: only a pace line
        # that reaches the wait in progress lets this end within the harness's timeout.
        r = self.start(
            "import turtle\n"
            "t = turtle.Turtle()\n"
            "t.speed(0)\n"
            "turtle.delay(60000)\n"
            "t.forward(10)\n"
            "def more():\n"
            "    t.forward(10)\n"
            "    t.forward(10)\n"
            "    print('end')\n"
            "    turtle.bye()\n"
            "turtle.listen()\n"
            "turtle.onkey(more, 'space')\n"
            "print('listening')\n"
            "turtle.done()\n")
        # The move's frame goes out once its wait has begun.
        with r.frame_event:
            self.assertTrue(r.frame_event.wait_for(lambda: any(
                f is not None and f["type"] == "draw" and any(st["k"] == "move" for st in f["steps"])
                for f in r.frames), 30))
        self.send(r, {"type": "pace", "speed": 100})    # the minute becomes 0.6 s from the wait's start
        self.wait_out(r, "listening\n")
        # Finish before the key: the handler's moves do not wait at all.
        self.send(r, {"type": "finish"}, {"type": "key", "key": "space", "down": False})
        r.finish()
        self.assertEqual(r.code, 0)
        self.assertIn("end\n", r.stdout)
        self.assertEqual([s["ms"] for s in self.steps(r) if s["k"] == "move"], [60000, 0, 0])

    def test_finish_drops_pacing_for_the_rest_of_a_slow_drawing(self):
        # About 6 minutes at CPython's pace.
        r = self.start(
            "import turtle\n"
            "t = turtle.Turtle()\n"
            "t.speed(1)\n"
            "print('go')\n"
            "for i in range(300):\n"
            "    t.forward(300)\n"
            "    t.left(91)\n"
            "print('end')\n")
        self.wait_out(r, "go\n")
        self.send(r, {"type": "finish"})
        r.finish()
        self.assertEqual(r.code, 0)
        ms = [s["ms"] for s in self.steps(r) if s["k"] in ("move", "turn")]
        self.assertEqual(len(ms), 600)
        # The steps drawn before the finish arrived kept their time; every one after it has none.
        first_free = ms.index(0)
        self.assertTrue(all(m > 0 for m in ms[:first_free]))
        self.assertTrue(all(m == 0 for m in ms[first_free:]))
        self.assertTrue(all(s["d"] > 0 for s in self.steps(r) if s["k"] in ("move", "turn")))

    def test_pause_drops_keys_and_stop_still_ends_a_paused_game(self):
        r = self.start(
            "import turtle\n"
            "turtle.onkey(lambda: print('x!'), 'x')\n"
            "turtle.onkey(turtle.bye, 'q')\n"
            "turtle.listen()\n"
            "print('ready')\n"
            "turtle.done()\n"
            "print('after')\n")
        self.wait_out(r, "ready\n")
        # Control lines are taken in order: the key (onkey takes releases) comes while paused and is dropped.
        self.send(r, {"type": "pause"}, {"type": "key", "key": "x", "down": False},
                  {"type": "resume"}, {"type": "key", "key": "q", "down": False})
        r.finish()
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stdout, "ready\nafter\n")

        r = self.start(
            "import turtle, time\n"
            "turtle.ontimer(lambda: print('never'), 600000)\n"
            "print('ready')\n"
            "turtle.done()\n"
            "print('after')\n")
        # Stopped in mainloop(), the game ends there, paused or not.
        self.assertIsNotNone(r.wait_frame("loop"))
        self.send(r, {"type": "pause"}, b"stop\n")
        r.finish()
        self.assertEqual(r.stdout, "ready\nafter\n")

    def test_pause_holds_the_programs_clock(self):
        # The clock is the test's: only pause and resume move the program's time apart from it.
        now = [100.0]
        saved = kidlive._clock
        kidlive._clock = lambda: now[0]
        self.addCleanup(setattr, kidlive, "_clock", saved)
        live = kidlive.Live(send=lambda obj: True, send_text=lambda text: True,
                            step_texts=lambda steps, budget: ([], False), interrupt=lambda: None,
                            main_ident=threading.get_ident())
        fired = []
        live.add_timer(lambda: fired.append(now[0]), 500)     # due at 100.5 on the program's clock
        live.feed(("pause",))
        now[0] = 160.0                                         # a minute paused
        live.run_ready()
        self.assertEqual(fired, [])
        self.assertEqual(live.now(), 100.0)
        live.keys_on = True
        live.feed(("key", "Up", True))
        live.feed(("mouse", "down", 0.0, 0.0, 1))
        self.assertEqual(len(live.events), 0, "a paused game takes no keys or clicks")
        live.feed(("resume",))
        now[0] = 160.499
        live.run_ready()
        self.assertEqual(fired, [])
        now[0] = 160.5
        live.run_ready()
        self.assertEqual(fired, [160.5])
        # A wait that began before a pause ends its length of running time after it began.
        start = live.now()
        done = threading.Event()

        def wait():
            live.wait_until(start + 1.0)
            done.set()

        live.feed(("pause",))
        waiter = threading.Thread(target=wait, daemon=True)
        waiter.start()
        now[0] += 30.0
        live.feed(("pace", 2.0))                               # wakes the wait: it must hold on
        self.assertFalse(done.wait(0.3))
        live.feed(("resume",))
        self.assertFalse(done.wait(0.3))
        now[0] += 1.0
        live.feed(("pace", 1.0))
        self.assertTrue(done.wait(30))
        # No resume can come once the host hangs up: the pause ends with it.
        live.feed(("pause",))
        now[0] += 5
        live.hang_up()
        self.assertIsNone(live.paused_at)

    def test_tracer_holds_steps_until_update(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "s.tracer(0)\n"
            "t = turtle.Turtle()\n"
            "for i in range(10):\n"
            "    t.forward(10)\n"
            "print('drawn')\n"
            "input()\n"
            "s.update()\n"
            "s.tracer(3)\n"
            "for i in range(4):\n"
            "    t.forward(10)\n"
            "print('end')\n", keep_stdin_open=True)
        self.wait_out(r, "drawn\n")
        # Nothing was painted: only the screen went out so far.
        self.assertEqual(self.frames_now(r, "draw"), [])
        r.proc.stdin.write(b"\n")
        r.proc.stdin.close()
        r.finish()
        draws = self.frames(r, "draw")
        steps = self.steps(r)
        self.assertEqual(len(steps), len(r.result["drawing"]["steps"]))
        self.assertTrue(all(s["ms"] == 0 for s in steps))
        # update(), then tracer(3) paints after every third update, then the result.
        sizes = [len(f["steps"]) for f in draws]
        self.assertEqual(sum(sizes), len(steps))
        self.assertEqual(len(draws), 3)

    def test_draw_frames_stay_under_a_mebibyte(self):
        r = self.start(
            "import turtle\n"
            "turtle.tracer(0)\n"
            "t = turtle.Turtle()\n"
            "for i in range(3000):\n"
            "    t.write('海' * 400)\n"
            "turtle.update()\n")
        r.finish()
        self.assertEqual(r.code, 0)
        draws = self.frames(r, "draw")
        self.assertGreater(len(draws), 2)
        for f in draws:
            size = len(json.dumps(f, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
            self.assertLessEqual(size, kidlive.FRAME_MAX)
        self.assertEqual(len(self.steps(r)), len(r.result["drawing"]["steps"]))

    def test_screen_frames(self):
        r = self.start(
            "import turtle\n"
            "s = turtle.Screen()\n"
            "s.setup(600, 500)\n"
            "s.title('Game')\n"
            "s.bgcolor('black')\n"
            "s.setworldcoordinates(0, 0, 100, 50)\n")
        r.finish()
        screens = self.frames(r, "screen")
        self.assertEqual(screens[-1]["title"], "Game")
        self.assertEqual(screens[-1]["bg"], "#000000")
        self.assertEqual(screens[-1]["view"], [0, 0, 100, 50])
        self.assertEqual((screens[1]["width"], screens[1]["height"]), (600, 500))

    def test_not_live_has_no_live_frames(self):
        path = harness.write_program(self.tmp, "main.py",
                                     "import turtle\nturtle.forward(10)\nturtle.ontimer(print, 10)\nturtle.done()\n")
        r = harness.run(path)
        self.assertEqual([f["type"] for f in r.all_frames], ["result"])
        self.assertEqual(len(r.result["notices"]), 1)


if __name__ == "__main__":
    unittest.main()
