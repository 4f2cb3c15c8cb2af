"""Teacher checks for exercise packs (docs/packs.md).

Two entry points, both run inside the sandbox:

run_check(check_path, child_globals, stdout_text, drawing, lang="en")
    Runs a teacher's hidden check after the child's program, in the same
    process. The check script sees a tiny API:

        child     dict of the program's global names (variables, functions)
        output    str, everything the program printed to stdout
        drawing   dict, the turtle drawing model, or None
        lang      str, the child's language: "zh" or "en"
        segments()  list of drawn lines as (x1, y1, x2, y2, colour)
        fail(msg)   fail the check with a message

    and fails by assert (or fail()). A message may be {"zh": ..., "en": ...}:
    the child's language is picked. Returns {"ok": bool, "message": str}.

source_rules_main(submission, rules_json)
    Parses the child's source (a data file, never executed) with ast and
    prints one JSON line {"results": [bool, ...]} or
    {"syntax_error": true, "line": N}. Rules: for_loop, while_loop,
    defines_function [name], calls name, not_calls name.
"""

import ast
import builtins
import contextlib
import io
import json
import sys

MAX_CHECK_BYTES = 256 * 1024
MAX_SOURCE_BYTES = 1024 * 1024
MAX_MESSAGE = 1000


def _segments(drawing):
    out = []
    for s in (drawing or {}).get("steps") or []:
        if isinstance(s, dict) and s.get("k") == "move" and s.get("c") is not None:
            out.append((s.get("x1"), s.get("y1"), s.get("x2"), s.get("y2"), s.get("c")))
    return out


class CheckFailed(AssertionError):
    """Raised by fail()."""


def _fail(message=""):
    raise CheckFailed(message)


def _in(message, lang):
    """message in lang when it is {"zh": ..., "en": ...}, else message itself."""
    if isinstance(message, dict) and ("zh" in message or "en" in message):
        text = message.get(lang)
        return text if text else message.get("en") or message.get("zh") or ""
    return message


def _clip(text):
    text = str(text)
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "…"


def run_check(check_path, child_globals, stdout_text, drawing, lang="en"):
    """Run one check script; never raises (except KeyboardInterrupt, the stop request)."""
    lang = lang if lang in ("zh", "en") else "en"
    try:
        with open(check_path, "rb") as f:
            source = f.read(MAX_CHECK_BYTES + 1)
        if len(source) > MAX_CHECK_BYTES:
            return {"ok": False, "message": "check script too large"}
        code = compile(source, check_path, "exec")
    except Exception as e:  # a broken check is the teacher's bug: report, don't crash
        return {"ok": False, "message": _clip("check could not load: %s: %s" % (type(e).__name__, e))}
    child = {k: v for k, v in dict(child_globals or {}).items() if not (k.startswith("__") and k.endswith("__"))}
    segs = _segments(drawing)
    namespace = {
        "__name__": "__kidcheck__",
        "__builtins__": builtins,
        "child": child,
        "output": stdout_text or "",
        "drawing": drawing,
        "lang": lang,
        "segments": lambda: list(segs),
        "fail": _fail,
    }
    # Whatever the check makes the child's functions print must not join
    # the program's output, which other checks compare.
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            exec(code, namespace)
    except KeyboardInterrupt:
        raise
    except AssertionError as e:
        return {"ok": False, "message": _clip(_in(e.args[0], lang) if e.args else "")}
    except SystemExit as e:
        return {"ok": False, "message": _clip("check exited: %s" % (e.code,))}
    except BaseException as e:
        return {"ok": False, "message": _clip("%s: %s" % (type(e).__name__, e))}
    return {"ok": True, "message": ""}


def _dotted(node):
    """'turtle.forward' for turtle.forward, 'print' for print, None otherwise."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    if parts:
        return "." + ".".join(reversed(parts))  # called on an expression: t().forward
    return None


def _matches(dotted, name):
    """'forward' matches forward, t.forward and turtle.forward; 'turtle.forward' matches only its suffix."""
    if dotted is None:
        return False
    if dotted == name:
        return True
    return dotted.endswith("." + name)


def source_rules(source, rules):
    """Evaluate rules on source text; the result dict printed by source_rules_main."""
    try:
        tree = ast.parse(source, filename="submission.py")
    except SyntaxError as e:
        return {"syntax_error": True, "line": e.lineno or 0}
    except (ValueError, RecursionError, MemoryError):
        return {"syntax_error": True, "line": 0}
    nodes = list(ast.walk(tree))
    calls = [_dotted(n.func) for n in nodes if isinstance(n, ast.Call)]
    refs = [_dotted(n) for n in nodes if isinstance(n, (ast.Name, ast.Attribute))]
    results = []
    for rule in rules:
        kind, name = rule.get("rule"), rule.get("name") or ""
        if kind == "for_loop":
            ok = any(isinstance(n, (ast.For, ast.AsyncFor)) for n in nodes)
        elif kind == "while_loop":
            ok = any(isinstance(n, ast.While) for n in nodes)
        elif kind == "defines_function":
            ok = any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and (not name or n.name == name)
                     for n in nodes)
        elif kind == "calls":
            ok = any(_matches(c, name) for c in calls)
        elif kind == "not_calls":
            # A bare reference counts too: f = input; f() still uses input.
            ok = not any(_matches(c, name) for c in calls) and not any(_matches(r, name) for r in refs)
        else:
            ok = False
        results.append(ok)
    return {"results": results}


def source_rules_main(submission, rules_json):
    with open(submission, "rb") as f:
        data = f.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        verdict = {"syntax_error": True, "line": 0}
    else:
        text = data.decode("utf-8", errors="replace")
        try:
            verdict = source_rules(text, json.loads(rules_json))
        except RecursionError:
            verdict = {"syntax_error": True, "line": 0}
    sys.stdout.write("\n" + json.dumps(verdict) + "\n")
    sys.stdout.flush()


MAX_TEE_CHARS = 1024 * 1024


class Tee(object):
    """Wraps the program's stdout and keeps a bounded copy of what it writes,
    for the checks' `output`. Everything else goes to the real stream."""

    def __init__(self, stream, limit=MAX_TEE_CHARS):
        self._stream = stream
        self._parts = []
        self._left = limit

    def write(self, s):
        n = self._stream.write(s)
        if self._left > 0 and isinstance(s, str):
            self._parts.append(s[:self._left])
            self._left -= len(s)
        return n

    def text(self):
        return "".join(self._parts)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def run_checks(paths, child_globals, stdout_text, drawing, lang="en"):
    """run_check for each path, in order: the result frame's "checks" list."""
    return [run_check(p, child_globals, stdout_text, drawing, lang) for p in paths]
