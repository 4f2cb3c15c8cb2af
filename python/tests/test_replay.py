"""Replay steps in the result: only when asked for (--replay-steps, the warm go
line's "replay_steps"), whole or not at all; the SVG always stands."""

import json
import os
import shutil
import sys
import tempfile
import unittest

import harness

sys.path.insert(0, harness.PYDIR)
import kidrunner_frames as core  # noqa: E402
import kidturtle as turtle  # noqa: E402

SQUARE = "import turtle\nfor _ in range(4):\n    turtle.forward(50)\n    turtle.left(90)\n"
# About 90 bytes of JSON a step: 2,000 steps are far over 16 KiB.
MANY = "import turtle\nturtle.tracer(0)\nfor i in range(2000):\n    turtle.forward(i % 7 + 1)\n    turtle.left(61)\n"


class ReplayStepsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def run_with(self, source, replay, extra=()):
        path = harness.write_program(self.tmp, "main.py", source)
        r = harness.run(path, extra=["--replay-steps", str(replay)] + list(extra))
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.result["images"][0]["mime"], "image/svg+xml")
        return r

    def test_zero_sends_no_drawing(self):
        r = self.run_with(SQUARE, 0)
        self.assertIsNone(r.result["drawing"])
        self.assertEqual(r.result["notices"], [])

    def test_steps_that_fit_come_whole(self):
        r = self.run_with(SQUARE, 16 << 10)
        d = r.result["drawing"]
        moves = [s for s in d["steps"] if s["k"] == "move"]
        self.assertEqual(len(moves), 4)
        self.assertEqual((moves[0]["x2"], moves[0]["y2"]), (50.0, 0.0))
        self.assertLessEqual(len(json.dumps(d["steps"], separators=(",", ":"))), 16 << 10)
        self.assertEqual(r.result["notices"], [])

    def test_exactly_the_bound_fits(self):
        turtle.reset_state()
        t = turtle.Turtle()
        for _ in range(4):
            t.forward(50)
            t.left(90)
        model = turtle.current_screen().drawing()
        text, cut = core.steps_json(model["steps"], 1 << 20, turtle.STEP_FIELDS)
        self.assertFalse(cut)
        size = len(text.encode())
        d = core.drawing_json(model, size, None, turtle.STEP_FIELDS)
        self.assertEqual(json.loads(d["steps"]), json.loads(text))
        self.assertIsNone(core.drawing_json(model, size - 1, None, turtle.STEP_FIELDS))

    def test_too_big_sends_the_picture_alone_with_a_notice(self):
        r = self.run_with(MANY, 16 << 10)
        self.assertIsNone(r.result["drawing"])
        self.assertEqual(len(r.result["notices"]), 1)
        self.assertIn("replay", r.result["notices"][0])

    def test_too_big_by_count_alone(self):
        # 2,000 steps cannot fit in 2,000 bytes whatever they hold.
        r = self.run_with(MANY, 2000)
        self.assertIsNone(r.result["drawing"])
        self.assertEqual(len(r.result["notices"]), 1)

    def test_checks_read_the_drawing_without_replay(self):
        check = harness.write_program(self.tmp, "check.py",
                                      "assert len(segments()) == 4, len(segments())\n"
                                      "assert any(s['k'] == 'move' for s in drawing['steps'])\n")
        r = self.run_with(SQUARE, 0, extra=["--check", check])
        self.assertIsNone(r.result["drawing"])
        self.assertEqual(r.result["checks"], [{"ok": True, "message": ""}])

    def test_warm_go_line_wins_over_the_argument(self):
        for arg, field, want in ((0, 16 << 10, True), (16 << 10, 0, False), (16 << 10, None, True)):
            run = harness.Run(os.path.join(self.tmp, "unused.py"),
                              extra=("--warm", "--replay-steps", str(arg)))
            code = SQUARE.encode()
            head = {"program": os.path.join(self.tmp, "w%d.py" % arg), "code_bytes": len(code), "lang": "en"}
            if field is not None:
                head["replay_steps"] = field
            run.send_control(b"go " + json.dumps(head).encode() + b"\n" + code)
            run.finish()
            self.assertEqual(run.code, 0, run.stderr)
            self.assertEqual(run.result["drawing"] is not None, want, (arg, field))
            os.remove(head["program"])


if __name__ == "__main__":
    unittest.main()
