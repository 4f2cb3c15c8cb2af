"""Hints for a beginner's first game mistakes: a key name Tk does not know
(raised as CPython raises it), keys bound but never listened for, a game that
ends without mainloop(), and a tkinter window.

CPython 3.11's turtle binds onkey(fun, key) as the Tk event
"<KeyRelease-KEY>", and Tk refuses an unknown key name at once with
_tkinter.TclError (tests/gen_keysyms.py asks a real Tk which names it takes);
the table below is what that Tk answered.
"""

import json
import os
import shutil
import sys
import tempfile
import unittest

import harness

sys.path.insert(0, harness.PYDIR)
import kidturtle_keys  # noqa: E402

# key -> None when CPython's onkey takes it, else the TclError's message.
CPYTHON_ONKEY = {
    "Down": None, "space": None, "a": None, "A": None, "Return": None, "Escape": None,
    "F1": None, "Shift_L": None, "BackSpace": None, "KP_Enter": None, "Up ": None, " a": None,
    "": None, " ": None, ">": None, "-a": None, "Return-": None, "U20AC": None, "U20": None,
    "U10FFFF": None, "0x61": None, "EuroSign": None, "XF86AudioPlay": None, "Prior": None,
    "Page_Up": None, "1": None, "plus": None, "less": None, "U": None,
    "down": 'bad event type or keysym "down"',
    "up": 'bad event type or keysym "up"',
    "Space": 'bad event type or keysym "Space"',
    "SPACE": 'bad event type or keysym "SPACE"',
    "return": 'bad event type or keysym "return"',
    "enter": 'bad event type or keysym "enter"',
    "Enter": 'bad event type or keysym "Enter"',
    "f1": 'bad event type or keysym "f1"',
    "F36": 'bad event type or keysym "F36"',
    "+": 'bad event type or keysym "+"',
    "<": 'bad event type or keysym "<"',
    "<a>": 'bad event type or keysym "<a"',
    "ab": 'bad event type or keysym "ab"',
    "10": 'bad event type or keysym "10"',
    "ä": 'bad event type or keysym "ä"',
    "你": 'bad event type or keysym "你"',
    "Control-a": 'bad event type or keysym "Control"',
    "KeyPress": 'bad event type or keysym "KeyPress"',
    "U7F": 'bad event type or keysym "U7F"',
    "U110000": 'bad event type or keysym "U110000"',
    "0x0": 'bad event type or keysym "0x0"',
    "NoSymbol": 'bad event type or keysym "NoSymbol"',
    "a-b": "extra characters after detail in binding",
    "Up Down": "extra characters after detail in binding",
}


class KeyNameTest(unittest.TestCase):
    def test_key_names_as_cpython_takes_them(self):
        for key, want in CPYTHON_ONKEY.items():
            with self.subTest(key=key):
                try:
                    kidturtle_keys.binding_key(key)
                    got = None
                except Exception as e:
                    self.assertEqual(type(e).__name__, "TclError")
                    got = str(e)
                self.assertEqual(got, want)

    def test_binding_key_is_the_name_tk_binds(self):
        self.assertEqual(kidturtle_keys.binding_key("Up "), "Up")
        self.assertEqual(kidturtle_keys.binding_key("-a"), "a")

    def test_suggestions(self):
        for name, want in {"down": "Down", "DOWN": "Down", "SPACE": "space", "Space": "space",
                           "return": "Return", "enter": "Return", "esc": "Escape",
                           "f1": "F1", "backspace": "BackSpace", "+": "plus", "<": "less",
                           "xyzzy": None, "Control": None}.items():
            with self.subTest(name=name):
                self.assertEqual(kidturtle_keys.suggest(name), want)


class HintTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_program(self, source, lang="en", live=False):
        path = harness.write_program(self.tmp, "game.py", source)
        return harness.run(path, lang=lang, extra=["--live"] if live else ())

    def start(self, source, lang="en"):
        path = harness.write_program(self.tmp, "game.py", source)
        return harness.Run(path, lang=lang, extra=["--live"])

    def test_wrong_case_key_raises_as_cpython_with_the_right_key(self):
        source = ("import turtle\n"
                  "def down():\n"
                  "    print('down')\n"
                  "turtle.listen()\n"
                  "turtle.onkey(down, 'down')\n"
                  "turtle.done()\n")
        for live in (False, True):
            for lang, words in (("en", "capital letters"), ("zh", "大小写")):
                with self.subTest(live=live, lang=lang):
                    r = self.run_program(source, lang=lang, live=live)
                    err = r.result["error"]
                    self.assertEqual(r.code, 1)
                    self.assertEqual((err["type"], err["message"], err["line"]),
                                     ("TclError", 'bad event type or keysym "down"', 5))
                    self.assertIn('"Down"', err["hint"])
                    self.assertIn(words, err["hint"])
                    self.assertTrue(r.stderr.endswith('TclError: bad event type or keysym "down"\n'), r.stderr)

    def test_key_press_and_unbinding(self):
        # onkeypress checks its key too; onkeypress(f) binds every key, and
        # onkey(None, key) unbinds, which Tk takes for any name.
        r = self.run_program("import turtle\n"
                             "turtle.onkeypress(print)\n"
                             "turtle.onkey(None, 'down')\n"
                             "turtle.onkeypress(print, 'Escape')\n"
                             "turtle.onkeypress(print, 'escape')\n", live=True)
        err = r.result["error"]
        self.assertEqual((err["type"], err["line"]), ("TclError", 5))
        self.assertIn('"Escape"', err["hint"])

    def test_unknown_key_without_a_near_name_lists_the_common_ones(self):
        r = self.run_program("import turtle\nturtle.onkey(print, 'jump')\n", lang="zh")
        err = r.result["error"]
        self.assertEqual(err["message"], 'bad event type or keysym "jump"')
        self.assertIn('"jump"', err["hint"])
        self.assertIn('"Up"', err["hint"])
        self.assertIn("大小写", err["hint"])

    def test_two_keys_in_one_name(self):
        r = self.run_program("import turtle\nturtle.onkey(print, 'Up Down')\n")
        err = r.result["error"]
        self.assertEqual(err["message"], "extra characters after detail in binding")
        self.assertIn("one key name", err["hint"])

    def test_keys_bound_but_never_listened_for(self):
        notice = {"en": "never called listen()", "zh": "没有调用 listen()"}
        for lang in ("en", "zh"):
            with self.subTest(lang=lang):
                r = self.start("import turtle\n"
                               "turtle.onkey(lambda: print('up'), 'Up')\n"
                               "turtle.done()\n"
                               "print('after')\n", lang=lang)
                self.assertIsNotNone(r.wait_frame("loop"))
                harness.control_consumed(r)
                os.write(r.control, b'{"type": "close"}\n')
                r.finish()
                self.assertEqual((r.code, r.stdout), (0, "after\n"))
                # Said while the game waits (stderr), and kept for the end.
                self.assertIn(notice[lang], r.stderr)
                self.assertEqual(len([n for n in r.result["notices"] if notice[lang] in n]), 1)

    def test_listening_game_has_no_listen_notice(self):
        r = self.start("import turtle\n"
                       "turtle.onkey(lambda: print('up'), 'Up')\n"
                       "turtle.listen()\n"
                       "turtle.done()\n")
        self.assertIsNotNone(r.wait_frame("loop"))
        os.write(r.control, b'{"type": "close"}\n')
        r.finish()
        self.assertEqual(r.stderr, "")
        self.assertEqual(r.result["notices"], [])

    def test_game_that_ends_without_mainloop(self):
        notice = {"en": "turtle.mainloop()", "zh": "turtle.mainloop()"}
        programs = [
            "import turtle\nturtle.listen()\nturtle.onkey(turtle.forward, 'Up')\n",
            "import turtle\nturtle.ontimer(lambda: print('tick'), 5000)\n",
            "import turtle\nturtle.onscreenclick(turtle.goto)\nprint('bye')\n",
        ]
        for lang in ("en", "zh"):
            for source in programs:
                with self.subTest(lang=lang, source=source):
                    r = self.run_program(source, lang=lang, live=True)
                    self.assertEqual(r.code, 0)
                    self.assertIsNone(r.result["error"])
                    self.assertEqual(len([n for n in r.result["notices"] if notice[lang] in n]), 1,
                                     r.result["notices"])
                    if lang == "zh":
                        self.assertTrue(any("窗口" in n for n in r.result["notices"]))

    def test_no_mainloop_notice_where_none_is_needed(self):
        programs = [
            # a drawing with no handlers
            "import turtle\nturtle.forward(50)\n",
            # a game that waits in done() and is closed
            "import turtle\nturtle.listen()\nturtle.onkey(print, 'Up')\nturtle.bye()\n",
            # timers that all ran before the end
            "import turtle, time\nturtle.ontimer(lambda: print('tick'), 10)\ntime.sleep(0.05)\n",
            # an error says what is wrong instead
            "import turtle\nturtle.onscreenclick(turtle.goto)\n1 / 0\n",
        ]
        for source in programs:
            with self.subTest(source=source):
                r = self.run_program(source, live=True)
                self.assertFalse([n for n in r.result["notices"] if "mainloop" in n], r.result["notices"])

    def test_no_mainloop_notice_outside_the_window(self):
        # Without --live handlers are not kept: the events notice says what to do.
        r = self.run_program("import turtle\nturtle.onkey(print, 'Up')\n")
        self.assertEqual(len(r.result["notices"]), 1)
        self.assertNotIn("mainloop", r.result["notices"][0])

    def test_tkinter_window_says_use_turtle(self):
        source = ("import os\n"
                  "os.environ.pop('DISPLAY', None)\n"
                  "import tkinter\n"
                  "root = tkinter.Tk()\n")
        for lang, words in (("en", "use turtle"), ("zh", "就用 turtle")):
            with self.subTest(lang=lang):
                r = self.run_program(source, lang=lang)
                err = r.result["error"]
                self.assertIn(err["type"], ("TclError", "ModuleNotFoundError"))
                self.assertIn(err["line"], (3, 4))
                self.assertIn(words, err["hint"])
                self.assertIn("tkinter", err["hint"])

    def test_turtle_texts_match_the_catalogue(self):
        # The turtle's built-in texts stand in when the catalogue is not
        # loaded: they must say the same.
        import kidturtle_config
        with open(os.path.join(harness.PYDIR, "messages.json"), encoding="utf-8") as f:
            messages = json.load(f)
        for short, key in kidturtle_config._KEYS.items():
            with self.subTest(key=key):
                self.assertEqual(kidturtle_config._TEXTS[short], messages[key])


if __name__ == "__main__":
    unittest.main()
