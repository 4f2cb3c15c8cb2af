"""Programs print the same positions, headings, colours and ids as with CPython's turtle.

The expected outputs were produced by gen_fidelity.py with the real module.
"""

import json
import os
import shutil
import tempfile
import unittest

import harness

FIDELITY = harness.FIDELITY
# gen_fidelity.py runs programs after creating the screen with tracer(0).
PRELUDE = "import turtle\nturtle.Screen().tracer(0)\n"
# Live, the programs animate as written; delay(0) keeps the test quick.
LIVE_PRELUDE = "import turtle\nturtle.Screen().delay(0)\n"


class FidelityTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_programs_match_real_turtle(self):
        programs = harness.fidelity_programs()
        self.assertGreater(len(programs), 10)
        self.assertIn("corpus_flower", [name for name, _ in programs])
        for name, prog in programs:
            if harness.game_timeline(prog):
                continue
            with self.subTest(program=name):
                with open(prog, encoding="utf-8") as f:
                    src = f.read()
                path = harness.write_program(self.tmp, name + ".py", PRELUDE + src)
                r = harness.run(path)
                with open(os.path.join(FIDELITY, name + ".expected"), encoding="utf-8") as f:
                    expected = f.read()
                self.assertEqual(r.stderr, "")
                self.assertEqual(r.stdout.splitlines(), expected.splitlines())
                self.assertIsNotNone(r.result)

    def test_programs_match_real_turtle_when_live(self):
        """Run live (animated, every update an event point), the same programs print the same."""
        for name, prog in harness.fidelity_programs():
            # screen_misc prints tracer() and delay(), which the two preludes set differently.
            if harness.game_timeline(prog) or name == "screen_misc":
                continue
            with self.subTest(program=name):
                with open(prog, encoding="utf-8") as f:
                    src = f.read()
                path = harness.write_program(self.tmp, name + ".py", LIVE_PRELUDE + src)
                r = harness.run(path, extra=["--live"])
                with open(os.path.join(FIDELITY, name + ".expected"), encoding="utf-8") as f:
                    expected = f.read()
                self.assertEqual(r.stderr, "")
                self.assertEqual(r.stdout.splitlines(), expected.splitlines())
                # And their picture is the plain run's (live steps add the
                # turtle's jumps and colour changes, which the picture never shows).
                plain = harness.run(path)
                self.assertEqual(r.result["images"], plain.result["images"])

    def test_games_match_real_turtle(self):
        """The games, played live with their timelines, print what CPython's turtle printed."""
        games = [(name, prog) for name, prog in harness.fidelity_programs()
                 if harness.game_timeline(prog)]
        self.assertGreaterEqual(len(games), 4)
        for name, prog in games:
            with self.subTest(program=name):
                events = harness.read_timeline(harness.game_timeline(prog))
                with open(os.path.join(FIDELITY, name + ".sync"), encoding="utf-8") as f:
                    sync = json.load(f)
                self.assertEqual(len(sync), len(events))
                path = shutil.copy(prog, os.path.join(self.tmp, name + ".py"))
                run = harness.Run(path, extra=["--live"])
                harness.play(run, events, sync)
                r = run.finish()
                with open(os.path.join(FIDELITY, name + ".expected"), encoding="utf-8") as f:
                    expected = f.read()
                self.assertEqual(r.stderr, "")
                self.assertEqual(r.code, 0)
                self.assertIsNone(r.result["error"])
                self.assertEqual(r.stdout.splitlines(), expected.splitlines())
                self.assertTrue(any(f["type"] == "draw" for f in r.all_frames))


if __name__ == "__main__":
    unittest.main()
