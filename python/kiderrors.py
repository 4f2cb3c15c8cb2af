"""Turn an exception from a child's program into {type, message, line, hint}.

Hints come from messages.json (zh-CN and English) and name the child's own
line, the character to change, or the name they probably meant.
"""

import difflib
import json
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))

FULLWIDTH = {
    "，": ",", "（": "(", "）": ")", "：": ":", "；": ";", "“": '"', "”": '"',
    "‘": "'", "’": "'", "。": ".", "！": "!", "？": "?", "【": "[", "】": "]",
    "｛": "{", "｝": "}", "＝": "=", "＋": "+", "－": "-", "＊": "*", "／": "/",
    "《": "<", "》": ">", "、": ",", "｜": "|", "＃": "#", "　": " (space)",
}

_BLOCK_KEYWORDS = ("if", "elif", "else", "for", "while", "def", "class", "try",
                   "except", "finally", "with")

# Modules a child is likely to use; the full stdlib list comes from sys when it has one.
KID_MODULES = ["turtle", "random", "math", "time", "datetime", "string",
               "statistics", "collections", "itertools", "json", "fractions",
               "decimal", "calendar", "textwrap", "re", "os", "sys", "csv"]


def load_messages():
    with open(os.path.join(_HERE, "messages.json"), encoding="utf-8") as f:
        return json.load(f)



def fill(text, values):
    """text with each {name} replaced, the way backend/text does it.

    Not str.format: the messages show the child literal braces
    ("every ( [ { needs its ) ] }"), which format would reject.
    """
    for k, v in values.items():
        text = text.replace("{" + k + "}", str(v))
    return text

class Explainer(object):
    """Builds friendly errors for one run (language, file, what is installed)."""

    def __init__(self, lang, program, messages=None, matplotlib_available=False,
                 stdlib_names=None):
        self.lang = lang if lang in ("zh", "en") else "en"
        self.program = os.path.abspath(program)
        self.folder = os.path.dirname(self.program)
        self.messages = messages if messages is not None else load_messages()
        self.matplotlib_available = matplotlib_available
        names = stdlib_names
        if names is None:
            names = getattr(sys, "stdlib_module_names", None) or KID_MODULES
        self.stdlib = sorted(n for n in names if not n.startswith("_"))

    def msg(self, msg_key, **kw):
        entry = self.messages.get(msg_key) or self.messages["generic.noline"]
        text = entry.get(self.lang) or entry["en"]
        return fill(text, kw)

    # -- entry point
    def explain(self, exc, tb_frames=(), source=None):
        """exc: the exception; tb_frames: [(filename, lineno, frame)] innermost last."""
        etype = type(exc).__name__
        try:
            message = str(exc)
        except Exception:
            message = ""
        line = self._line(exc, tb_frames)
        try:
            hint = self._hint(exc, etype, message, line, tb_frames, source)
        except Exception:
            hint = None
        if not hint:
            hint = self.msg("generic", type=etype, line=line) if line else self.msg("generic.noline", type=etype)
        if isinstance(exc, SyntaxError):
            message = exc.msg if isinstance(exc.msg, str) else message
        return {"type": etype, "message": message[:2000], "line": line, "hint": hint}

    def _line(self, exc, tb_frames):
        if isinstance(exc, SyntaxError):
            if exc.filename is None or os.path.abspath(exc.filename) == self.program:
                return exc.lineno
        best = None
        for filename, lineno, _ in tb_frames:
            if filename and os.path.abspath(filename) == self.program:
                best = lineno
        if best is None:
            for filename, lineno, _ in tb_frames:
                if filename and os.path.dirname(os.path.abspath(filename)) == self.folder:
                    best = lineno
        return best

    def _source_line(self, source, line):
        if not source or not line:
            return ""
        lines = source.splitlines()
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return ""

    def _hint(self, exc, etype, message, line, tb_frames, source):
        shadow = self._shadow_hint(exc, tb_frames)
        if shadow:
            return shadow
        if isinstance(exc, SyntaxError):
            return self._syntax(exc, source)
        if isinstance(exc, RecursionError):
            return self.msg("recursion")
        if isinstance(exc, NameError):
            return self._name(exc, message, tb_frames)
        if isinstance(exc, ModuleNotFoundError):
            return self._module(exc)
        if isinstance(exc, AttributeError):
            return self._attribute(exc, message)
        if isinstance(exc, TypeError):
            return self._type(message)
        if isinstance(exc, ZeroDivisionError):
            return self.msg("zero_division")
        if isinstance(exc, IndexError):
            return self.msg("index")
        if isinstance(exc, KeyError):
            key = exc.args[0] if exc.args else ""
            return self.msg("key", key=repr(key))
        if isinstance(exc, ValueError):
            return self._value(message)
        if isinstance(exc, EOFError):
            return self.msg("eof.input")
        if isinstance(exc, KeyboardInterrupt):
            return self.msg("keyboard.stopped")
        if etype == "TurtleGraphicsError":
            return self._turtle(message)
        if etype == "TclError":
            return self._tcl(message)
        return None

    # -- syntax
    def _syntax(self, exc, source):
        line = exc.lineno or 0
        text = exc.text if isinstance(exc.text, str) else self._source_line(source, line)
        msg = exc.msg or ""
        if not isinstance(exc, IndentationError):
            fw = self._fullwidth(text, msg)
            if fw:
                return self.msg("syntax.fullwidth", line=line, char=fw, ascii=FULLWIDTH[fw])
        if isinstance(exc, TabError) or "inconsistent use of tabs" in msg:
            return self.msg("indent.tab", line=line)
        if isinstance(exc, IndentationError):
            if "expected an indented block" in msg:
                return self.msg("indent.expected", line=line)
            if "unexpected indent" in msg:
                return self.msg("indent.unexpected", line=line)
            if "unindent does not match" in msg:
                return self.msg("indent.mismatch", line=line)
        if "unterminated string" in msg or "EOL while scanning" in msg or \
                "triple-quoted" in msg:
            return self.msg("syntax.unclosed_string", line=line)
        m = re.search(r"'(.)' was never closed", msg)
        if m:
            return self.msg("syntax.unclosed_bracket", line=line, char=m.group(1))
        m = re.search(r"unmatched '(.)'", msg) or re.search(r"closing parenthesis '(.)'", msg)
        if m:
            return self.msg("syntax.unmatched_bracket", line=line, char=m.group(1))
        if "Missing parentheses in call to 'print'" in msg:
            return self.msg("syntax.print_parens", line=line)
        if "Maybe you meant '==' or ':='" in msg or self._assign_in_condition(text):
            return self.msg("syntax.assign_in_if", line=line)
        if "expected ':'" in msg or self._missing_colon(text):
            return self.msg("syntax.colon", line=line)
        if "unexpected EOF while parsing" in msg and source:
            m = self._open_bracket(source)
            if m:
                return self.msg("syntax.unclosed_bracket", line=m[0], char=m[1])
        if "source code cannot contain null bytes" in msg or "utf-8" in msg.lower() and "decode" in msg.lower():
            return self.msg("syntax.not_utf8")
        return self.msg("syntax.generic", line=line)

    def _fullwidth(self, text, msg):
        m = re.search(r"invalid character '(.)'", msg)
        if m and m.group(1) in FULLWIDTH:
            return m.group(1)
        if not text:
            return None
        code = _strip_strings(text)
        for ch in code:
            if ch in FULLWIDTH:
                return ch
        return None

    def _assign_in_condition(self, text):
        if not text:
            return False
        code = _strip_strings(text).strip()
        if not re.match(r"(if|elif|while)\b", code):
            return False
        return re.search(r"(?<![=!<>:+\-*/%&|^])=(?!=)", code) is not None

    def _missing_colon(self, text):
        if not text:
            return False
        code = _strip_strings(text).split("#")[0].strip()
        word = re.match(r"[a-z]+", code)
        return bool(word) and word.group(0) in _BLOCK_KEYWORDS and not code.endswith(":")

    def _open_bracket(self, source):
        stack = []
        pairs = {")": "(", "]": "[", "}": "{"}
        for n, text in enumerate(source.splitlines(), 1):
            for ch in _strip_strings(text).split("#")[0]:
                if ch in "([{":
                    stack.append((n, ch))
                elif ch in pairs and stack and stack[-1][1] == pairs[ch]:
                    stack.pop()
        return stack[-1] if stack else None

    # -- names
    def _name(self, exc, message, tb_frames):
        name = getattr(exc, "name", None)
        if not name:
            m = re.search(r"name '([^']+)' is not defined", message)
            name = m.group(1) if m else None
        if not name:
            return self.msg("name.generic", name="?")
        candidates = set(dir(__builtins__) if not isinstance(__builtins__, dict) else __builtins__)
        import builtins
        candidates.update(dir(builtins))
        if tb_frames:
            frame = tb_frames[-1][2]
            if frame is not None:
                candidates.update(frame.f_locals)
                candidates.update(frame.f_globals)
        candidates = [c for c in candidates if not c.startswith("__")]
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.75)
        if close:
            return self.msg("name.didyoumean", name=name, suggestion=close[0])
        if name.isidentifier():
            return self.msg("name.quotes", name=name)
        return self.msg("name.generic", name=name)

    def _module(self, exc):
        name = getattr(exc, "name", None) or ""
        top = name.split(".")[0]
        if top in ("tkinter", "_tkinter", "Tkinter"):
            return self.msg("tkinter.window")
        if top in ("matplotlib", "numpy") and not self.matplotlib_available:
            return self.msg("module.no_matplotlib")
        available = ["turtle"] + (["matplotlib"] if self.matplotlib_available else [])
        available += [m for m in KID_MODULES if m != "turtle"]
        pool = set(self.stdlib) | set(available)
        close = difflib.get_close_matches(top, sorted(pool), n=1, cutoff=0.7)
        suggestion = self.msg("module.suggest", suggestion=close[0]) if close else ""
        return self.msg("module.not_found", name=top, suggestion=suggestion,
                        available=", ".join(available))

    def _attribute(self, exc, message):
        name = getattr(exc, "name", None)
        obj = getattr(exc, "obj", None)
        m = re.match(r"(module '[^']+'|'[^']+' object|type object '[^']+') has no attribute '([^']+)'", message)
        what = m.group(1) if m else "?"
        if not name and m:
            name = m.group(2)
        if not name:
            return None
        options = []
        if obj is not None:
            try:
                options = [a for a in dir(obj) if not a.startswith("_")]
            except Exception:
                options = []
        close = difflib.get_close_matches(name, options, n=1, cutoff=0.7)
        if close:
            return self.msg("attribute.didyoumean", obj=what, name=name, suggestion=close[0])
        return self.msg("attribute.generic", obj=what, name=name)

    def _shadow_hint(self, exc, tb_frames):
        """A child's own random.py (or similar) hiding Python's module of that name."""
        candidates = []
        if isinstance(exc, (AttributeError, ImportError)):
            obj = getattr(exc, "obj", None)
            modname = getattr(obj, "__name__", None) if obj is not None else None
            if isinstance(exc, ImportError):
                modname = getattr(exc, "name", None) or modname
                m = re.search(r"from '([^']+)'|module '([^']+)'", str(exc))
                if m:
                    modname = m.group(1) or m.group(2)
            if modname:
                candidates.append(modname.split(".")[0])
        for filename, _, _ in tb_frames:
            if filename and os.path.dirname(os.path.abspath(filename)) == self.folder:
                base = os.path.splitext(os.path.basename(filename))[0]
                candidates.append(base)
        for name in candidates:
            if name in self.stdlib or name in ("turtle", "matplotlib", "numpy"):
                path = os.path.join(self.folder, name + ".py")
                if os.path.exists(path) or os.path.isdir(os.path.join(self.folder, name)):
                    return self.msg("module.shadow", file=name + ".py", name=name)
        return None

    # -- values and types
    def _type(self, message):
        if ("can only concatenate str" in message or
                re.search(r"unsupported operand type\(s\) for [+\-]=?: '(int|float)' and 'str'", message) or
                re.search(r"unsupported operand type\(s\) for [+\-]=?: 'str' and '(int|float)'", message) or
                "must be str, not int" in message or
                ("'<' not supported between instances of" in message and "'str'" in message) or
                ("'>' not supported between instances of" in message and "'str'" in message)):
            return self.msg("type.str_int")
        m = re.match(r"'([^']+)' object is not callable", message)
        if m:
            return self.msg("type.not_callable", what=m.group(1))
        return self.msg("type.generic", message=message)

    def _value(self, message):
        m = re.match(r"invalid literal for int\(\) with base \d+: (.*)$", message)
        if m:
            if m.group(1) in ("''", '""') or not m.group(1).strip("'\" "):
                return self.msg("value.empty")
            return self.msg("value.int_parse", value=m.group(1))
        m = re.match(r"could not convert string to float: (.*)$", message)
        if m:
            if m.group(1) in ("''", '""') or not m.group(1).strip("'\" "):
                return self.msg("value.empty")
            return self.msg("value.float_parse", value=m.group(1))
        return self.msg("value.generic", message=message)

    def _turtle(self, message):
        m = re.match(r"bad color (string|arguments|sequence): (.*)$", message, re.S)
        if m:
            color = m.group(2)
            suggestion = ""
            try:
                from kidcolors import COLORS
                close = difflib.get_close_matches(color.lower(), list(COLORS), n=1, cutoff=0.6)
                if close:
                    suggestion = self.msg("turtle.color_suggest", suggestion=close[0])
            except Exception:
                pass
            return self.msg("turtle.color", color=color, suggestion=suggestion)
        return self.msg("turtle.generic", message=message)

    def _tcl(self, message):
        """A TclError: a key name Tk refuses in onkey(), else a tkinter window."""
        m = re.match(r'bad event type or keysym "(.*)"$', message, re.S)
        if m:
            key = m.group(1)
            try:
                from kidturtle_keys import suggest
                meant = suggest(key)
            except Exception:
                meant = None
            if meant:
                return self.msg("turtle.key", key=key, suggestion=meant)
            return self.msg("turtle.key_names", key=key)
        if "extra characters after detail in binding" in message:
            return self.msg("turtle.key_extra")
        return self.msg("tkinter.window")


def _strip_strings(text):
    """The code of one line with the contents of ASCII-quoted strings removed."""
    return re.sub(r"(\"[^\"]*\"?|'[^']*'?)", "''", text)
