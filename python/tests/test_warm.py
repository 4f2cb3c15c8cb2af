"""Warm runs: the runner loads ahead, then takes its program from the control pipe."""

import json
import os
import shutil
import tempfile
import unittest

from harness import Run


def go(run, program, code, lang="en", cpu=None, extra=b""):
    head = {"program": program, "code_bytes": len(code), "lang": lang}
    if cpu is not None:
        head["cpu"] = cpu
    run.send_control(b"go " + json.dumps(head).encode() + b"\n" + code + extra)


class WarmTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir, True)

    def start(self, extra=(), **kw):
        # The program path after "--" is only a placeholder: a warm start
        # takes its program from the go line.
        return Run(os.path.join(self.dir, "unused.py"), extra=("--warm",) + tuple(extra), **kw)

    def test_program_comes_on_the_control_pipe(self):
        run = self.start()
        code = "import turtle\nprint('你好 🐢', __file__.rsplit('/', 1)[-1])\nturtle.forward(50)\n".encode()
        go(run, os.path.join(self.dir, "star.py"), code, lang="zh")
        run.finish()
        self.assertEqual(run.code, 0, run.stderr)
        self.assertEqual(run.stdout, "你好 🐢 star.py\n")
        self.assertIsNotNone(run.result["drawing"])
        with open(os.path.join(self.dir, "star.py"), "rb") as f:
            self.assertEqual(f.read(), code)

    def test_errors_speak_the_go_lines_language(self):
        run = self.start()
        go(run, os.path.join(self.dir, "main.py"), b"print(x)\n", lang="zh")
        run.finish()
        self.assertEqual(run.result["error"]["type"], "NameError")
        self.assertRegex(run.result["error"]["hint"], "[\u4e00-\u9fff]")

    def test_hang_up_before_go_runs_nothing(self):
        run = self.start()
        os.close(run.control)
        run.control = os.open(os.devnull, os.O_WRONLY)
        run.finish()
        self.assertEqual(run.code, 0)
        self.assertEqual(run.stdout, "")
        self.assertIsNone(run.result)

    def test_a_garbled_go_line_runs_nothing(self):
        for bad in (b"run x\n", b"go {\"program\": \"/x.py\", \"code_bytes\": -1}\n",
                    b"go {\"program\": \"" + self.dir.encode() + b"/.hidden.py\", \"code_bytes\": 1}\nx"):
            run = self.start()
            run.send_control(bad)
            os.close(run.control)
            run.control = os.open(os.devnull, os.O_WRONLY)
            run.finish()
            self.assertEqual((run.code, run.stdout, run.result), (0, "", None), bad)

    def test_a_file_beside_the_program_shadows_a_module_loaded_ahead(self):
        # As in a cold run, the program's folder comes first on sys.path.
        with open(os.path.join(self.dir, "difflib.py"), "w") as f:
            f.write("MINE = True\n")
        run = self.start()
        go(run, os.path.join(self.dir, "main.py"), b"import difflib\nprint(difflib.MINE)\n")
        run.finish()
        self.assertEqual(run.stdout, "True\n", run.stderr)

    def test_stop_after_the_program_interrupts_it(self):
        run = self.start()
        go(run, os.path.join(self.dir, "main.py"),
           b"import time\nprint('R', flush=True)\ntime.sleep(60)\n", extra=b"stop\n")
        run.finish()
        self.assertEqual(run.code, 130)

    def test_cpu_limit_counts_from_the_program(self):
        run = self.start()
        go(run, os.path.join(self.dir, "main.py"),
           b"import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU))\n", cpu=3)
        run.finish()
        soft, hard = json.loads(run.stdout.replace("(", "[").replace(")", "]"))
        self.assertIn(soft, (4, 5))
        self.assertEqual(hard, soft + 1)

    def test_matplotlib_loaded_ahead_still_gives_figures(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("no matplotlib")
        run = self.start(extra=("--preload-mpl",))
        go(run, os.path.join(self.dir, "main.py"),
           b"import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.title('\xe4\xbd\xa0\xe5\xa5\xbd')\nplt.show()\n")
        run.finish()
        self.assertEqual(run.code, 0, run.stderr)
        self.assertEqual([im["mime"] for im in run.result["images"]], ["image/png"])


if __name__ == "__main__":
    unittest.main()
