"""matplotlib figures become PNGs: valid, in order, once each, with CJK labels."""

import base64
import os
import shutil
import struct
import tempfile
import unittest

import harness

try:
    import importlib.util
    HAVE_MPL = importlib.util.find_spec("matplotlib") is not None
except ImportError:
    HAVE_MPL = False

CORPUS = os.path.join(harness.HERE, "corpus")


def png_size(data):
    raw = base64.b64decode(data)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", raw[:8]
    assert raw[12:16] == b"IHDR"
    return struct.unpack(">II", raw[16:24])


@unittest.skipUnless(HAVE_MPL, "matplotlib is not installed")
class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_prog(self, src):
        return harness.run(harness.write_program(self.tmp, "plot.py", src))

    def test_corpus_plot_two_figures(self):
        r = harness.run(os.path.join(CORPUS, "plot.py"))
        self.assertEqual(r.code, 0, r.stderr)
        self.assertIn("two figures", r.stdout)
        pngs = [i for i in r.result["images"] if i["mime"] == "image/png"]
        self.assertEqual(len(pngs), 2)
        for p in pngs:
            self.assertEqual(png_size(p["data"]), (640, 480))

    def test_shown_then_modified_is_not_duplicated(self):
        r = self.run_prog("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\n"
                          "plt.plot([3, 1])\nplt.figure(figsize=(2, 2))\nplt.plot([1])\n")
        pngs = [i for i in r.result["images"] if i["mime"] == "image/png"]
        self.assertEqual([png_size(p["data"]) for p in pngs], [(640, 480), (640, 480), (200, 200)])

    def test_open_figures_at_exit_in_creation_order(self):
        r = self.run_prog("import matplotlib.pyplot as plt\nplt.figure(figsize=(3, 2))\nplt.figure(figsize=(2, 3))\n")
        sizes = [png_size(i["data"]) for i in r.result["images"]]
        self.assertEqual(sizes, [(300, 200), (200, 300)])

    def test_chinese_labels_have_a_font(self):
        r = self.run_prog("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.title('气温变化')\n"
                          "plt.xlabel('星期')\nplt.show()\n")
        self.assertEqual(r.code, 0, r.stderr)
        self.assertNotIn("missing from", r.stderr)
        self.assertEqual(len(r.result["images"]), 1)

    def test_turtle_svg_comes_first(self):
        r = self.run_prog("import matplotlib.pyplot as plt\nimport turtle\nplt.plot([1])\nturtle.forward(5)\n")
        self.assertEqual([i["mime"] for i in r.result["images"]], ["image/svg+xml", "image/png"])

    def test_mpl_cache_is_built_and_used(self):
        cache = os.path.join(self.tmp, "mplcache")
        p = harness.subprocess.run([harness.PYTHON, "-I", "-X", "utf8", "-B", harness.RUNNER,
                                    "--build-mpl-cache", cache], capture_output=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(any(n.startswith("fontlist") for n in os.listdir(cache)))
        r = harness.run(harness.write_program(self.tmp, "p.py", "import matplotlib.pyplot as plt\nplt.plot([1])\n"),
                        extra=["--mpl-cache", cache])
        self.assertEqual(len(r.result["images"]), 1)
        self.assertNotIn("Matplotlib is building the font cache", r.stderr)


class NoMatplotlibTest(unittest.TestCase):
    def test_friendly_hint_without_matplotlib(self):
        import sys
        sys.path.insert(0, harness.PYDIR)
        import kiderrors
        ex = kiderrors.Explainer("en", "/tmp/x.py", matplotlib_available=False)
        err = ex.explain(ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib"))
        self.assertIn("matplotlib is not installed", err["hint"])
        ex = kiderrors.Explainer("zh", "/tmp/x.py", matplotlib_available=False)
        self.assertIn("matplotlib", ex.explain(ModuleNotFoundError("x", name="matplotlib"))["hint"])


if __name__ == "__main__":
    unittest.main()
