"""Each friendly-error category, in both languages, with the child's line."""

import os
import shutil
import tempfile
import unittest

import harness

CASES = [
    # (name, source, stdin, error type, line, words in the en hint, words in the zh hint)
    ("colon", "x = 1\nfor i in range(3)\n    print(i)\n", b"", "SyntaxError", 2, [":"], ["冒号"]),
    ("string", "x = 1\nprint(\"hello)\n", b"", "SyntaxError", 2, ["quotes"], ["引号"]),
    ("bracket", "x = 1\nprint((1 + 2)\ny = 3\n", b"", "SyntaxError", 2, ["bracket ( on line 2", "( [ { needs its ) ] }"], ["第 2 行的括号 (", "每个 ( [ {"]),
    ("assign", "x = 1\nif x = 1:\n    print(x)\n", b"", "SyntaxError", 2, ["=="], ["=="]),
    # Each mark quoted, so "(" reads as the mark and not as an aside.
    ("fullwidth_comma", "print(1，2)\n", b"", "SyntaxError", 1, ['"，"', '","'], ["“，”", "“,”"]),
    ("fullwidth_paren", "x = 2\nprint（x）\n", b"", "SyntaxError", 2, ['"（"', '"("'], ["“（”", "“(”"]),
    ("fullwidth_colon", "for i in range(2)：\n    pass\n", b"", "SyntaxError", 1, ["：", ":"], ["："]),
    ("fullwidth_quote", "print(“hi”)\n", b"", "SyntaxError", 1, ["“", '"'], ["“"]),
    ("indent_expected", "for i in range(2):\nprint(i)\n", b"", "IndentationError", 2, ["indent"], ["缩进"]),
    ("indent_unexpected", "x = 1\n    y = 2\n", b"", "IndentationError", 2, ["extra spaces"], ["空格"]),
    ("tab", "if True:\n        x = 1\n\ty = 2\n", b"", "TabError", 3, ["tabs"], ["Tab"]),
    ("name_typo", "name = 'Lily'\nprint(nmae)\n", b"", "NameError", 2, ["name"], ["name"]),
    ("name_quotes", "print(hello)\n", b"", "NameError", 1, ['"hello"'], ['"hello"']),
    ("str_int", "age = input()\nprint(age + 1)\n", b"9\n", "TypeError", 2, ["int("], ["int("]),
    ("not_callable", "print = 3\nprint(1)\n", b"", "TypeError", 2, ["not a function"], ["不是函数"]),
    ("int_parse", "n = int(input('n? '))\n", b"abc\n", "ValueError", 1, ["'abc'", "int()"], ["'abc'"]),
    ("zero", "x = 0\nprint(5 / x)\n", b"", "ZeroDivisionError", 2, ["divide by 0"], ["除以 0"]),
    ("index", "a = [1, 2]\nprint(a[2])\n", b"", "IndexError", 2, ["start at 0"], ["从 0 开始"]),
    ("key", "d = {'a': 1}\nprint(d['b'])\n", b"", "KeyError", 2, ["'b'"], ["'b'"]),
    ("attribute", "s = 'hi'\nprint(s.uper())\n", b"", "AttributeError", 2, ["upper"], ["upper"]),
    ("recursion", "def f(n):\n    return f(n + 1)\nf(1)\n", b"", "RecursionError", 2, ["itself"], ["自己"]),
    ("module", "import turtel\n", b"", "ModuleNotFoundError", 1, ["turtle", "random"], ["turtle"]),
    ("eof", "x = 1\ny = input('?')\n", b"", "EOFError", 2, ["input()"], ["input()"]),
    ("colour", "import turtle\n\nturtle.color('rde')\n", b"", "TurtleGraphicsError", 3, ['"red"'], ['"red"']),
    ("print_parens", "print 'hi'\n", b"", "SyntaxError", 1, ["print("], ["print("]),
]


class ErrorsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_categories_in_both_languages(self):
        for name, src, stdin, etype, line, en_words, zh_words in CASES:
            path = harness.write_program(self.tmp, name + ".py", src)
            for lang, words in (("en", en_words), ("zh", zh_words)):
                with self.subTest(case=name, lang=lang):
                    r = harness.run(path, lang=lang, stdin=stdin)
                    err = r.result["error"]
                    self.assertIsNotNone(err, r.stderr)
                    self.assertEqual(err["type"], etype)
                    self.assertEqual(err["line"], line)
                    for w in words:
                        self.assertIn(w, err["hint"])
                    self.assertEqual(r.code, 1)
                    if lang == "zh":
                        self.assertTrue(any("\u4e00" <= ch <= "\u9fff" for ch in err["hint"]), err["hint"])

    def test_every_message_fills_in(self):
        # Every {name} of every message is replaced, also next to literal
        # braces the message shows the child.
        import json
        import re
        import sys
        sys.path.insert(0, harness.PYDIR)
        import kiderrors
        with open(os.path.join(harness.PYDIR, "messages.json"), encoding="utf-8") as f:
            messages = json.load(f)
        for key, entry in messages.items():
            for lang in ("zh", "en"):
                names = set(re.findall(r"\{(\w+)\}", entry[lang]))
                text = kiderrors.fill(entry[lang], {n: "<%s>" % n for n in names})
                with self.subTest(key=key, lang=lang):
                    self.assertEqual(re.findall(r"\{\w+\}", text), [])

    def test_generic_hint_names_line(self):
        path = harness.write_program(self.tmp, "gen.py", "x = 1\nassert x == 2\n")
        r = harness.run(path, lang="en")
        self.assertEqual(r.result["error"]["type"], "AssertionError")
        self.assertIn("line 2", r.result["error"]["hint"])

    def test_not_utf8_file(self):
        path = os.path.join(self.tmp, "gbk.py")
        with open(path, "wb") as f:
            f.write("print('你好')\n".encode("gbk"))
        r = harness.run(path, lang="en")
        self.assertEqual(r.result["error"]["type"], "SyntaxError")
        self.assertIn("UTF-8", r.result["error"]["hint"])


if __name__ == "__main__":
    unittest.main()
