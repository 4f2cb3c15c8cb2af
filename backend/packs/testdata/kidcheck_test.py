import json, os, sys, tempfile, unittest
sys.path.insert(0, os.environ.get("KIDCHECK_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python")))
import kidcheck

class T(unittest.TestCase):
    def check(self, src, g=None, out="", drawing=None, **kw):
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(src)
        try:
            return kidcheck.run_check(f.name, g or {}, out, drawing, **kw)
        finally:
            os.unlink(f.name)
    def test_lang(self):
        # A check is told the child's language, and may word its message in both.
        self.assertTrue(self.check("assert lang == 'zh'", lang="zh")["ok"])
        self.assertTrue(self.check("assert lang == 'en'")["ok"])
        self.assertTrue(self.check("assert lang == 'en'", lang="fr")["ok"])
        both = "fail({'zh': '还没有正方形', 'en': 'no square yet'})"
        self.assertEqual(self.check(both, lang="zh")["message"], "还没有正方形")
        self.assertEqual(self.check(both, lang="en")["message"], "no square yet")
        self.assertEqual(self.check("assert False, {'zh': '只有中文'}", lang="en")["message"], "只有中文")
    def test_pass_fail(self):
        self.assertEqual(self.check("assert child['x'] == 1", {"x": 1}), {"ok": True, "message": ""})
        self.assertEqual(self.check("assert child['x'] == 2, 'x should be 2'", {"x": 1}), {"ok": False, "message": "x should be 2"})
        self.assertFalse(self.check("fail('nope')")["ok"])
        r = self.check("child['f']()", {"f": lambda: 1/0})
        self.assertEqual(r["ok"], False); self.assertIn("ZeroDivisionError", r["message"])
        self.assertFalse(self.check("this is not python")["ok"])
    def test_api(self):
        d = {"steps": [{"k": "move", "x1": 0, "y1": 0, "x2": 10, "y2": 0, "c": "#000000"}, {"k": "move", "x1": 10, "y1": 0, "x2": 0, "y2": 0}]}
        self.assertTrue(self.check("assert len(segments()) == 1 and 'hi' in output and drawing['steps']", out="hi\n", drawing=d)["ok"])
    def test_prints_do_not_leak(self):
        import io, contextlib
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            self.check("child['f']()", {"f": lambda: print("noise")})
        self.assertEqual(buf.getvalue(), "")
    def test_source_rules(self):
        src = "import turtle as t\ndef square(n):\n    for _ in range(4):\n        t.forward(n)\nx = input()\n"
        rules = [{"rule": "for_loop"}, {"rule": "while_loop"}, {"rule": "defines_function", "name": "square"},
                 {"rule": "defines_function", "name": "circle"}, {"rule": "calls", "name": "forward"},
                 {"rule": "calls", "name": "t.forward"}, {"rule": "not_calls", "name": "input"},
                 {"rule": "not_calls", "name": "print"}, {"rule": "calls", "name": "print"}]
        self.assertEqual(kidcheck.source_rules(src, rules)["results"], [True, False, True, False, True, True, False, True, False])
        self.assertEqual(kidcheck.source_rules("f = input\nf()\n", [{"rule": "not_calls", "name": "input"}])["results"], [False])
        self.assertEqual(kidcheck.source_rules("for x in\n", [{"rule": "for_loop"}]), {"syntax_error": True, "line": 1})
        self.assertTrue(kidcheck.source_rules("(" * 10000, [{"rule": "for_loop"}])["syntax_error"])
    def test_tee_and_run_checks(self):
        import io
        real = io.StringIO()
        tee = kidcheck.Tee(real, limit=5)
        print("hello world", file=tee)
        self.assertEqual(real.getvalue(), "hello world\n")
        self.assertEqual(tee.text(), "hello")
        self.assertEqual(tee.getvalue(), "hello world\n")
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write("assert output == 'hi'")
        try:
            self.assertEqual(kidcheck.run_checks([f.name, f.name], {}, "hi", None), [{"ok": True, "message": ""}] * 2)
            self.assertFalse(kidcheck.run_checks([f.name], {}, "no", None)[0]["ok"])
        finally:
            os.unlink(f.name)
if __name__ == "__main__":
    unittest.main()
