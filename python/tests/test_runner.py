"""The runner's side of the protocol: frames, input(), stop, exit codes, robustness."""

import os
import shutil
import tempfile
import unittest

import harness

CORPUS = os.path.join(harness.HERE, "corpus")


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def prog(self, source, name="main.py"):
        return harness.write_program(self.tmp, name, source)

    def test_exactly_one_result_frame_last(self):
        r = harness.run(self.prog("print('hi')\n"))
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stdout, "hi\n")
        self.assertEqual(r.result_count, 1)
        self.assertEqual(r.all_frames[-1]["type"], "result")
        self.assertEqual(r.result["error"], None)
        self.assertEqual(r.result["images"], [])
        self.assertIsNone(r.result["drawing"])

    def test_sys_exit_keeps_code(self):
        r = harness.run(self.prog("import sys\nprint('a')\nsys.exit(3)\n"))
        self.assertEqual(r.code, 3)
        self.assertIsNone(r.result["error"])
        r = harness.run(self.prog("raise SystemExit('bye')\n"))
        self.assertEqual(r.code, 1)
        self.assertIn("bye", r.stderr)

    def test_exception_exit_one_and_traceback_has_only_child_frames(self):
        r = harness.run(self.prog("def f():\n    return 1/0\n\nf()\n"))
        self.assertEqual(r.code, 1)
        self.assertIn('main.py", line 4', r.stderr)
        self.assertIn('main.py", line 2, in f', r.stderr)
        self.assertNotIn("kidrunner", r.stderr)
        self.assertIn("ZeroDivisionError", r.stderr)
        self.assertEqual(r.result["error"]["line"], 2)

    def test_turtle_error_traceback_hides_recorder(self):
        r = harness.run(self.prog("import turtle\nturtle.color('blurple')\n"))
        self.assertNotIn("kidturtle", r.stderr)
        self.assertIn("turtle.TurtleGraphicsError: bad color string: blurple", r.stderr)

    def test_bom_and_chinese_file_name(self):
        path = os.path.join(self.tmp, "你好.py")
        with open(path, "wb") as f:
            f.write("\ufeffprint('海龟')\nx = 1 +\n".encode("utf-8"))
        r = harness.run(path)
        self.assertIn("你好.py", r.stderr)
        self.assertEqual(r.result["error"]["line"], 2)

    def test_home_on_path_and_argv(self):
        harness.write_program(self.tmp, "helper.py", "VALUE = 42\n")
        r = harness.run(self.prog("import sys, helper\nprint(helper.VALUE, sys.argv[0].endswith('main.py'), __name__)\n"))
        self.assertEqual(r.stdout, "42 True __main__\n")

    def test_output_order_interleaves(self):
        r = harness.run(self.prog("import sys\nfor i in range(3):\n    print(i)\n    sys.stderr.write('e%d\\n' % i)\n"))
        self.assertEqual(r.stdout, "0\n1\n2\n")
        self.assertEqual(r.stderr, "e0\ne1\ne2\n")

    def test_input_frame_before_blocking(self):
        run = harness.Run(self.prog("name = input('Name? ')\nprint('Hi ' + name)\n"),
                          keep_stdin_open=True)
        frame = run.wait_frame("input")
        self.assertEqual(frame, {"type": "input", "prompt": "Name? "})
        # The prompt was written and flushed before the frame went out.
        self.assertTrue(run.wait_stdout(b"Name? "))
        self.assertEqual(b"".join(run.out), b"Name? ")
        run.proc.stdin.write("小明\n".encode("utf-8"))
        run.proc.stdin.close()
        r = run.finish()
        self.assertEqual(r.stdout, "Name? Hi 小明\n")
        types = [f["type"] for f in r.all_frames]
        self.assertEqual(types, ["input", "input_done", "result"])

    def test_guess_corpus(self):
        with open(os.path.join(CORPUS, "guess.stdin"), "rb") as f:
            stdin = f.read()
        r = harness.run(os.path.join(CORPUS, "guess.py"), lang="zh", stdin=stdin)
        self.assertEqual(r.code, 0)
        with open(os.path.join(CORPUS, "guess.expect"), encoding="utf-8") as f:
            expected = [line for line in f.read().splitlines() if line]
        pos = 0
        for line in expected:
            found = r.stdout.find(line, pos)
            self.assertGreaterEqual(found, 0, line)
            pos = found + len(line)

    def test_no_stdin_gives_eof_hint(self):
        r = harness.run(self.prog("x = input('? ')\n"), lang="zh")
        self.assertEqual(r.code, 1)
        err = r.result["error"]
        self.assertEqual(err["type"], "EOFError")
        self.assertEqual(err["line"], 1)
        self.assertIn("input()", err["hint"])

    def test_stop_interrupts_sleep(self):
        # One line, so the stop lands on it whether print() has returned yet or not.
        run = harness.Run(self.prog("import time\nprint('start', flush=True); time.sleep(60)\nprint('never')\n"))
        self.assertTrue(run.wait_stdout(b"start"))
        run.send_control(b"stop\n")
        r = run.finish(timeout=20)
        self.assertEqual(r.code, 130)
        self.assertEqual(r.result_count, 1)
        self.assertEqual(r.result["error"]["type"], "KeyboardInterrupt")
        self.assertEqual(r.result["error"]["line"], 2)
        self.assertNotIn("never", r.stdout)
        # Stop is the child's choice, not a mistake: no traceback.
        self.assertNotIn("Traceback", r.stderr)
        self.assertNotIn("KeyboardInterrupt", r.stderr)

    def test_own_keyboard_interrupt_still_prints_traceback(self):
        r = harness.run(self.prog("raise KeyboardInterrupt\n"))
        self.assertEqual(r.code, 130)
        self.assertIn("KeyboardInterrupt", r.stderr)

    def test_stop_interrupts_input(self):
        run = harness.Run(self.prog("x = input('? ')\n"), keep_stdin_open=True)
        self.assertIsNotNone(run.wait_frame("input"))
        run.send_control(b"stop\n")
        r = run.finish(timeout=20)
        run.proc.stdin.close()
        self.assertEqual(r.result["error"]["type"], "KeyboardInterrupt")
        self.assertEqual([f["type"] for f in r.all_frames], ["input", "input_done", "result"])
        self.assertNotIn("Traceback", r.stderr)

    def test_hostile_program_cannot_break_result(self):
        src = (
            "import os, sys, json, builtins, struct\n"
            "for fd in (3, 4):\n"
            "    try:\n"
            "        os.write(fd, b'\\x00\\x00\\x00\\x05garbage')\n"
            "        os.close(fd)\n"
            "    except OSError:\n"
            "        pass\n"
            "sys.stdout = None\n"
            "builtins.print = None\n"
            "json.dumps = None\n"
            "os.write = None\n"
            "struct.pack = None\n"
            "del sys.modules['json']\n"
            "raise ValueError('boom')\n"
        )
        r = harness.run(self.prog(src))
        self.assertEqual(r.code, 1)
        self.assertEqual(r.result["error"]["type"], "ValueError")

    def test_poisoned_imports_still_explained(self):
        # The explainer loads only after the program: the runner must undo
        # what the program did to the import system first.
        src = (
            "import sys, builtins\n"
            "def no_import(*a, **k):\n"
            "    raise ImportError('no imports for you')\n"
            "for name in list(sys.modules):\n"
            "    if name not in ('sys', 'builtins'):\n"
            "        del sys.modules[name]\n"
            "builtins.__import__ = no_import\n"
            "sys.meta_path.clear()\n"
            "sys.path_hooks.clear()\n"
            "sys.path_importer_cache.clear()\n"
            "builtins.len = builtins.str = builtins.isinstance = None\n"
            "prnt('x')\n"
        )
        r = harness.run(self.prog(src))
        self.assertEqual(r.code, 1)
        self.assertEqual(r.result_count, 1)
        err = r.result["error"]
        self.assertEqual(err["type"], "NameError")
        self.assertEqual(err["line"], 12)
        self.assertIn("print", err["hint"])
        self.assertIn("NameError", r.stderr)

    def test_rebound_module_table_keeps_the_drawing(self):
        src = (
            "import turtle, sys\n"
            "turtle.forward(50)\n"
            "sys.modules = {}\n"
            "sys.meta_path = None\n"
            "sys.setrecursionlimit(60)\n"
            "sys.settrace(lambda *a: 1 / 0)\n"
            "raise ValueError('boom')\n"
        )
        r = harness.run(self.prog(src))
        self.assertEqual(r.code, 1)
        self.assertEqual(r.result["error"]["type"], "ValueError")
        self.assertEqual(r.result["error"]["line"], 7)
        self.assertEqual(r.result["images"][0]["mime"], "image/svg+xml")
        moves = [s for s in r.result["drawing"]["steps"] if s["k"] == "move"]
        self.assertEqual((moves[0]["x2"], moves[0]["y2"]), (50.0, 0.0))

    def test_own_difflib_does_not_break_the_explainer(self):
        # The explainer needs the real difflib, loaded after the child's own.
        harness.write_program(self.tmp, "difflib.py", "X = 1\n")
        harness.write_program(self.tmp, "helper.py", "X = 2\n")
        r = harness.run(self.prog("import difflib, helper\nprint(difflib.X + helper.X)\nprnt(1)\n"))
        self.assertEqual(r.stdout, "3\n")
        self.assertEqual(r.result["error"]["type"], "NameError")
        self.assertIn("print", r.result["error"]["hint"])

    def test_messages_and_modules_load_late(self):
        # A plain run imports none of the runner's optional modules.
        src = "import sys\nprint(sorted(m for m in sys.modules if m.startswith('kid') or m in ('json', 're', 'turtle')))\n"
        r = harness.run(self.prog(src))
        self.assertEqual(r.stdout, "[]\n")

    def test_own_random_py_is_explained(self):
        harness.write_program(self.tmp, "random.py", "x = 1\n")
        r = harness.run(self.prog("import random\nprint(random.randint(1, 6))\n"), lang="en")
        self.assertEqual(r.result["error"]["type"], "AttributeError")
        self.assertIn("random.py", r.result["error"]["hint"])
        self.assertTrue(any("random.py" in n for n in r.result["notices"]))

    def test_own_turtle_py_does_not_replace_recorder(self):
        harness.write_program(self.tmp, "turtle.py", "raise RuntimeError('child turtle')\n")
        r = harness.run(self.prog("import turtle\nturtle.forward(10)\nprint(turtle.pos())\n"))
        self.assertEqual(r.stdout, "(10.00,0.00)\n")
        self.assertEqual(r.result["images"][0]["mime"], "image/svg+xml")
        self.assertTrue(any("turtle.py" in n for n in r.result["notices"]))

    def test_program_named_turtle_py(self):
        r = harness.run(self.prog("import turtle\nt = turtle.Turtle()\nt.forward(5)\nprint(t.pos())\n", "turtle.py"))
        self.assertEqual(r.stdout, "(5.00,0.00)\n")

    def test_step_bound(self):
        r = harness.run(self.prog("import turtle\nfor i in range(500):\n    turtle.forward(1)\nprint(turtle.pos())\n"),
                        extra=["--max-steps", "100"])
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stdout, "(500.00,0.00)\n")
        self.assertTrue(r.result["drawing"]["truncated"])
        self.assertEqual(len(r.result["drawing"]["steps"]), 100)
        self.assertTrue(any("100" in n for n in r.result["notices"]))

    def test_events_notice_once(self):
        r = harness.run(self.prog("import turtle\ns = turtle.Screen()\ns.onkey(print, 'a')\ns.listen()\n"
                                  "turtle.onscreenclick(print)\ns.ontimer(print, 10)\nturtle.done()\nprint('end')\n"),
                        lang="zh")
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stdout, "end\n")
        self.assertEqual(r.stderr.count("课堂窗口"), 1)
        self.assertEqual(len(r.result["notices"]), 1)

    def test_textinput_reads_input(self):
        r = harness.run(self.prog("import turtle\nn = turtle.numinput('t', 'n?', minval=1, maxval=5)\n"
                                  "s = turtle.textinput('t', 's?')\nprint(n, s)\n"), stdin=b"9\n3\nabc\n")
        self.assertIn("3.0 abc", r.stdout)


if __name__ == "__main__":
    unittest.main()
