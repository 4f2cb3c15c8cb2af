"""Step-by-step runs (kidtrace, docs/contracts.md §5): the steps the runner
records match what CPython's own sys.settrace sees of the same program, and
the recording is bounded and never changes what the program does."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import harness

sys.path.insert(0, harness.PYDIR)
import kidtrace  # noqa: E402

EVENTS = {"l": "line", "c": "call", "r": "return", "e": "exception"}

# CPython's own sys.settrace on the program, with nothing of the runner: the
# steps of the file's frames, the top level's own call and return left out,
# each value as repr() cut to 80 characters.
REFERENCE = r'''
import json, os, sys, types
prog, layer = sys.argv[1], sys.argv[2]
name = os.path.basename(prog)
sys.path.append(layer)
if "turtle" in open(prog, encoding="utf-8").read():
    import kidturtle
    kidturtle.configure(lang="en", max_steps=1000000, notices=[], messages=dict, live=None)
    sys.modules["turtle"] = kidturtle
    draw = lambda: len(kidturtle.current_screen()._rec.steps) if kidturtle.current_screen() else 0
else:
    draw = lambda: 0
HIDDEN = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)
steps = []
depth = -1
out = [0]
real_write = sys.stdout.write
class Out:
    def write(self, s):
        out[0] += len(s)
        return real_write(s)
    def flush(self):
        pass
sys.stdout = Out()
def cut(s):
    return s if len(s) <= 80 else s[:79] + "\u2026"
def text(v):
    # Python's default repr without its address, which means nothing to a child.
    if type(v).__repr__ is object.__repr__:
        return "<%s object>" % type(v).__name__
    return cut(repr(v))
def record(frame, event, arg, d):
    vs = [[k, text(v)] for k, v in frame.f_locals.items()
          if isinstance(k, str) and k.isidentifier() and not k.startswith("_")
          and not isinstance(v, HIDDEN)]
    st = {"event": event, "line": frame.f_lineno, "func": frame.f_code.co_name, "depth": d,
          "vars": vs, "out": out[0], "draw": draw()}
    if event == "return":
        st["value"] = text(arg)
    if event == "exception":
        st["error"] = arg[0].__name__
    steps.append(st)
def call(frame, event, arg):
    global depth
    if frame.f_code.co_filename != name:
        return None
    depth += 1
    if depth or frame.f_code.co_name != "<module>":
        record(frame, "call", arg, depth)
    return local
def local(frame, event, arg):
    global depth
    d = depth
    if event == "return":
        depth -= 1
        if d or frame.f_code.co_name != "<module>":
            record(frame, "return", arg, d)
        return None
    record(frame, event, arg, d)
    return local
code = compile(open(prog, "rb").read(), name, "exec")
g = {"__name__": "__main__", "__builtins__": __builtins__, "__file__": prog}
os.chdir(os.path.dirname(prog))
sys.settrace(call)
try:
    exec(code, g)
except BaseException:
    pass
sys.settrace(None)
sys.__stdout__.write("\n" + json.dumps(steps) + "\n")
'''


def trace_of(run):
    """The steps of a finished harness run, as §5 writes them, and whether it was cut."""
    steps, cut = [], None
    for f in run.all_frames:
        if f["type"] != "trace":
            continue
        for st in f["steps"]:
            if st[0] == "t":
                cut = st[1]
                continue
            s = {"i": len(steps), "event": EVENTS[st[0]], "line": st[1], "func": st[2],
                 "depth": st[3], "vars": st[4], "out": st[5], "draw": st[6]}
            if st[0] == "r":
                s["value"] = st[7]
            if st[0] == "e":
                s["error"] = st[7]
            steps.append(s)
    return steps, cut


class TraceTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def prog(self, source, name="main.py"):
        return harness.write_program(self.tmp, name, source)

    def traced(self, source, stdin=b"", extra=()):
        r = harness.run(self.prog(source), stdin=stdin, extra=["--trace"] + list(extra))
        steps, cut = trace_of(r)
        return r, steps, cut

    def reference(self, source, stdin=b""):
        path = self.prog(source, "ref.py")
        p = subprocess.run([harness.PYTHON, "-I", "-c", REFERENCE, path, harness.PYDIR],
                           input=stdin, capture_output=True, timeout=60)
        return json.loads(p.stdout.decode("utf-8").rsplit("\n", 2)[-2])

    def assertMatchesCPython(self, source, stdin=b"", min_steps=5):
        r, steps, cut = self.traced(source, stdin)
        self.assertIsNone(cut)
        want = self.reference(source, stdin)
        self.assertGreaterEqual(len(want), min_steps)
        got = [{k: v for k, v in s.items() if k != "i"} for s in steps]
        for s in got:
            s["vars"] = [list(kv) for kv in s["vars"].items()]
        self.assertEqual(len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(g, w, "step %d" % i)
        self.assertEqual([s["i"] for s in steps], list(range(len(steps))))
        return r, steps

    def test_loops_match_cpython(self):
        src = ("total = 0\n"
               "words = []\n"
               "for i in range(4):\n"
               "    if i == 2:\n"
               "        continue\n"
               "    total += i\n"
               "    words.append('w' * i)\n"
               "n = 3\n"
               "while n > 0:\n"
               "    n -= 1\n"
               "    if n == 1:\n"
               "        break\n"
               "d = {'a': [1, 2], 'b': 'x' * 100}\n"
               "squares = [k * k for k in range(3)]\n"
               "print(total, words, d, squares)\n")
        r, steps = self.assertMatchesCPython(src, min_steps=20)
        self.assertEqual(r.code, 0)
        last = steps[-1]["vars"]
        # A long value is cut to 80 characters, an ellipsis at the end.
        self.assertEqual(len(last["d"]), 80)
        self.assertTrue(last["d"].endswith("\u2026"))
        self.assertEqual(last["words"], "['', 'w', 'www']")

    def test_recursion_matches_cpython(self):
        src = ("def fact(n):\n"
               "    if n <= 1:\n"
               "        return 1\n"
               "    return n * fact(n - 1)\n"
               "\n"
               "def count(k):\n"
               "    for j in range(k):\n"
               "        yield j\n"
               "\n"
               "x = fact(4)\n"
               "ys = list(count(2))\n"
               "print(x, ys)\n")
        r, steps = self.assertMatchesCPython(src, min_steps=20)
        calls = [s for s in steps if s["event"] == "call" and s["func"] == "fact"]
        self.assertEqual([s["depth"] for s in calls], [1, 2, 3, 4])
        self.assertEqual([s["vars"]["n"] for s in calls], ["4", "3", "2", "1"])
        rets = [s["value"] for s in steps if s["event"] == "return" and s["func"] == "fact"]
        self.assertEqual(rets, ["1", "2", "6", "24"])

    def test_input_matches_cpython_and_answers_are_kept(self):
        src = ("name = input('Name? ')\n"
               "age = int(input('Age? '))\n"
               "print('Hi', name, age + 1)\n")
        stdin = "小明\n9\n".encode("utf-8")
        r, steps = self.assertMatchesCPython(src, stdin=stdin, min_steps=3)
        self.assertEqual(r.stdout, "Name? Age? Hi 小明 10\n")
        self.assertEqual(steps[-1]["vars"], {"name": "'小明'", "age": "9"})
        # out: the prompts were written before the steps after them.
        self.assertEqual(steps[1]["out"], len("Name? "))
        self.assertEqual(steps[2]["out"], len("Name? Age? "))

    def test_exceptions_match_cpython(self):
        src = ("def inner(v):\n"
               "    return 10 // v\n"
               "\n"
               "def outer(v):\n"
               "    try:\n"
               "        return inner(v)\n"
               "    finally:\n"
               "        done = True\n"
               "\n"
               "try:\n"
               "    outer(0)\n"
               "except ZeroDivisionError:\n"
               "    caught = 'yes'\n"
               "items = [1]\n"
               "print(items[3])\n")
        r, steps = self.assertMatchesCPython(src, min_steps=10)
        self.assertEqual(r.code, 1)
        errors = [(s["func"], s["error"]) for s in steps if s["event"] == "exception"]
        self.assertEqual(errors[:3], [("inner", "ZeroDivisionError"), ("outer", "ZeroDivisionError"),
                                      ("<module>", "ZeroDivisionError")])
        # The error that ends the program is the last step, at its line.
        self.assertEqual(steps[-1]["event"], "exception")
        self.assertEqual(steps[-1]["error"], "IndexError")
        self.assertEqual(steps[-1]["line"], r.result["error"]["line"])

    def test_turtle_program_matches_cpython(self):
        src = ("import turtle\n"
               "from turtle import forward, left\n"
               "t = turtle.Turtle()\n"
               "def square(size):\n"
               "    for _ in range(4):\n"
               "        t.forward(size)\n"
               "        t.left(90)\n"
               "square(30)\n"
               "forward(10)\n"
               "left(45)\n")
        r, steps = self.assertMatchesCPython(src, min_steps=15)
        draws = [s["draw"] for s in steps]
        self.assertEqual(draws, sorted(draws))
        self.assertEqual(draws[0], 0)
        self.assertGreater(draws[-1], 4)
        # The step after the last turtle call has seen every recorded step but that call's.
        self.assertLessEqual(draws[-1], len(r.result["drawing"]["steps"]))

    def test_names_left_out_and_objects_shown_without_running_their_code(self):
        src = ("import math\n"
               "from collections import OrderedDict\n"
               "class Dog:\n"
               "    pass\n"
               "class Loud:\n"
               "    def __repr__(self):\n"
               "        print('repr ran')\n"
               "        return 'Loud!'\n"
               "class Broken:\n"
               "    def __repr__(self):\n"
               "        raise ValueError('no')\n"
               "class Slow:\n"
               "    def __repr__(self):\n"
               "        while True:\n"
               "            pass\n"
               "def f():\n"
               "    pass\n"
               "_hidden = 1\n"
               "dog = Dog()\n"
               "loud = Loud()\n"
               "broken = Broken()\n"
               "slow = Slow()\n"
               "big = list(range(10 ** 6))\n"
               "me = [1]\n"
               "me.append(me)\n"
               "print('end')\n")
        start = time.monotonic()
        r, steps, cut = self.traced(src)
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stdout, "end\n")       # Loud's print went nowhere
        last = steps[-1]["vars"]
        self.assertEqual(list(last), ["dog", "loud", "broken", "slow", "big", "me"])
        self.assertEqual(last["dog"], "<Dog object>")
        # A repr() of the program's never runs in the tracer (test_repr_*).
        self.assertEqual(last["loud"], "<Loud object>")
        self.assertEqual(last["broken"], "<Broken object>")
        self.assertEqual(last["slow"], "<Slow object>")
        self.assertEqual(len(last["big"]), 80)
        self.assertTrue(last["big"].startswith("[0, 1, 2, "))
        self.assertEqual(last["me"], "[1, [...]]")

    def test_bound_stops_the_recording_and_the_program_runs_on(self):
        src = "total = 0\nfor i in range(1000):\n    total += i\nprint(total)\n"
        r, steps, cut = self.traced(src, extra=["--trace-steps", "50"])
        self.assertEqual(len(steps), 50)
        self.assertEqual(cut, 50)
        self.assertEqual(r.stdout, "499500\n")
        self.assertEqual(len(r.result["notices"]), 1)
        self.assertIn("50", r.result["notices"][0])
        r = harness.run(self.prog(src), lang="zh", extra=["--trace", "--trace-steps", "50"])
        self.assertIn("50", r.result["notices"][0])
        self.assertNotEqual(r.result["notices"][0][:10].encode("ascii", "ignore").decode(), r.result["notices"][0][:10])

    def test_default_bound_is_100000_steps(self):
        src = "total = 0\nfor i in range(60000):\n    total += i\nprint(total)\n"
        r, steps, cut = self.traced(src)
        self.assertEqual(cut, 100000)
        self.assertEqual(len(steps), 100000)
        self.assertEqual(r.stdout, "%d\n" % sum(range(60000)))
        self.assertEqual(steps[-1]["i"], 99999)

    def test_runaway_recursion_fails_as_untraced(self):
        # The tracer needs room on the stack: near the limit it stops, and
        # the program's RecursionError comes where it would untraced.
        src = "def f(n):\n    return f(n + 1)\n\nf(0)\n"
        plain = harness.run(self.prog(src))
        r, steps, cut = self.traced(src)
        self.assertEqual(r.result["error"], plain.result["error"])
        self.assertEqual(r.result["error"]["line"], 2)
        self.assertEqual(r.stderr, plain.stderr)
        self.assertEqual(cut, len(steps))
        self.assertGreater(max(s["depth"] for s in steps), 900)
        # A program that sets its own limit gets it, traced too.
        src = ("import sys\nsys.setrecursionlimit(3000)\n"
               "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n\nprint(f(2500))\n")
        r, steps, cut = self.traced(src)
        self.assertEqual(r.stdout, "2500\n")
        self.assertIsNone(cut)
        self.assertEqual(max(s["depth"] for s in steps), 2501)

    def test_stop_keeps_the_steps_so_far(self):
        run = harness.Run(self.prog("import time\nx = 0\nwhile True:\n    x += 1\n    time.sleep(0.01)\n"),
                          extra=["--trace"])
        self.assertTrue(run.wait_frame("trace"))
        run.send_control(b"stop\n")
        r = run.finish()
        steps, cut = trace_of(r)
        self.assertIsNone(cut)
        self.assertEqual(r.code, 130)
        self.assertGreater(len(steps), 3)
        self.assertEqual([s["i"] for s in steps], list(range(len(steps))))

    def finished(self, run, timeout=300):
        """run.finish(), or a failure naming the program that never ended
        (the time is the harness's patience, not the verdict)."""
        try:
            return run.finish(timeout)
        except subprocess.TimeoutExpired:
            run.proc.kill()
            run.proc.wait()
            self.fail("the traced run did not end")

    def test_deep_recursion_is_traced_whole(self):
        # 30,000 frames deep: untraced a few hundredths of a second; a tracer
        # that counted each new frame's stack down to the bottom did
        # 450 million frame visits and never got there.
        src = ("import sys\nsys.setrecursionlimit(40000)\n"
               "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n\nprint(f(30000))\n")
        r = self.finished(harness.Run(self.prog(src), extra=["--trace"]))
        steps, cut = trace_of(r)
        self.assertEqual(r.code, 0)
        self.assertEqual(r.stdout, "30000\n")
        self.assertIsNone(cut)
        calls = [s["depth"] for s in steps if s["event"] == "call"]
        self.assertEqual(calls, list(range(1, 30002)))
        rets = [s["depth"] for s in steps if s["event"] == "return"]
        self.assertEqual(rets, list(range(30001, 0, -1)))

    def test_repr_of_the_program_never_runs_in_the_tracer(self):
        # A __repr__ that takes every exception sent to end it and goes on
        # (the old guard's 20 ms alarm was one), one that turns the alarm
        # off, and the program's code reached other ways: a builtin it
        # replaced, a metaclass's hash, a class body's own mapping, a
        # str subclass as a name. Untraced, none of it ever runs: traced,
        # none of it may either.
        src = ("import builtins, signal, sys\n"
               "from collections import deque, namedtuple, OrderedDict\n"
               "ran = []\n"
               "class Stubborn:\n"
               "    def __repr__(self):\n"
               "        ran.append('repr')\n"
               "        while True:\n"
               "            try:\n"
               "                while True:\n"
               "                    pass\n"
               "            except BaseException:\n"
               "                continue\n"
               "class NoAlarm:\n"
               "    def __repr__(self):\n"
               "        ran.append('alarm')\n"
               "        signal.setitimer(signal.ITIMER_REAL, 0)\n"
               "        signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
               "        while True:\n"
               "            pass\n"
               "class Meta(type):\n"
               "    def __hash__(cls):\n"
               "        ran.append('hash')\n"
               "        while True:\n"
               "            pass\n"
               "class Hashed(metaclass=Meta):\n"
               "    pass\n"
               "class Loop(dict):\n"
               "    def items(self):\n"
               "        ran.append('items')\n"
               "        while True:\n"
               "            pass\n"
               "    def __iter__(self):\n"
               "        ran.append('iter')\n"
               "        while True:\n"
               "            pass\n"
               "class Ns(type):\n"
               "    @classmethod\n"
               "    def __prepare__(mcs, name, bases):\n"
               "        return Loop()\n"
               "    def __new__(mcs, name, bases, ns):\n"
               "        return type.__new__(mcs, name, bases, dict(ns))\n"
               "armed = []\n"
               "class Name(str):\n"
               "    def __hash__(self):\n"
               "        if armed:\n"
               "            ran.append('name')\n"
               "            while True:\n"
               "                pass\n"
               "        return str.__hash__(self)\n"
               "Point = namedtuple('Point', 'x y')\n"
               "stubborn = Stubborn()\n"
               "noalarm = NoAlarm()\n"
               "inside = [1, stubborn, {'k': noalarm}]\n"
               "queue = deque([stubborn, 2], maxlen=5)\n"
               "loop = Loop(a=1)\n"
               "ordered = OrderedDict(b=2)\n"
               "point = Point(3, 4)\n"
               "hashed = Hashed()\n"
               "err = ValueError('no', stubborn)\n"
               "class Body(metaclass=Ns):\n"
               "    inner = 1\n"
               "    more = 2\n"
               "globals()[Name('odd')] = 1\n"
               "armed.append(1)\n"
               "real_repr, real_len = builtins.repr, builtins.len\n"
               "def forever(*a):\n"
               "    ran.append('builtin')\n"
               "    while True:\n"
               "        pass\n"
               "builtins.repr = builtins.len = builtins.isinstance = builtins.issubclass = forever\n"
               "x = 1.5\n"
               "builtins.repr, builtins.len = real_repr, real_len\n"
               "print(ran)\n")
        r = self.finished(harness.Run(self.prog(src), extra=["--trace"]))
        steps, cut = trace_of(r)
        self.assertEqual(r.stdout, "[]\n", r.stderr)
        self.assertEqual(r.code, 0)
        self.assertIsNone(cut)
        last = steps[-1]["vars"]
        self.assertEqual(last["stubborn"], "<Stubborn object>")
        self.assertEqual(last["noalarm"], "<NoAlarm object>")
        self.assertEqual(last["inside"], "[1, <Stubborn object>, {'k': <NoAlarm object>}]")
        self.assertEqual(last["queue"], "deque([<Stubborn object>, 2], maxlen=5)")
        self.assertEqual(last["loop"], "Loop({'a': 1})")
        self.assertEqual(last["ordered"], "OrderedDict({'b': 2})")
        self.assertEqual(last["point"], "Point(3, 4)")
        self.assertEqual(last["hashed"], "<Hashed object>")
        self.assertEqual(last["err"], "ValueError('no', <Stubborn object>)")
        self.assertEqual(last["x"], "1.5")
        self.assertNotIn("odd", last)
        # A class body's own dict subclass is read by dict's methods.
        body = [s["vars"] for s in steps if s["func"] == "Body"]
        self.assertEqual(body[-1], {"inner": "1", "more": "2"})

    def test_untraced_run_sends_no_trace(self):
        r = harness.run(self.prog("x = 1\nprint(x)\n"))
        self.assertEqual([f for f in r.all_frames if f["type"] == "trace"], [])

    def test_runner_modules_stay_out_of_the_program(self):
        r, steps, cut = self.traced("import sys\nprint('kidtrace' in sys.modules)\n")
        self.assertEqual(r.stdout, "False\n")


class DepthTest(unittest.TestCase):
    """The tracer's work per call does not grow with the stack: each new
    frame's depth is its parent's plus one (counted by the frames read)."""

    class Frame(object):
        """A frame as the tracer reads it; reading f_back is counted."""
        reads = 0

        def __init__(self, back, code, line):
            self._back = back
            self.f_code = code
            self.f_lineno = line
            self.f_locals = {}
            self.f_trace = None
            self.f_trace_lines = True

        @property
        def f_back(self):
            DepthTest.Frame.reads += 1
            if DepthTest.Frame.reads > DepthTest.budget:
                raise DepthTest.TooMuch()
            return self._back

    class TooMuch(Exception):
        pass

    class Channel(object):
        def __init__(self):
            self.sent = 0
            self.data = []

        def send_bytes(self, b):
            self.sent += len(b)
            self.data.append(b.decode("utf-8"))

        def send_text(self, t):
            self.send_bytes(t.encode("utf-8"))

    class Out(object):
        chars = 0

    def test_depth_is_kept_not_counted(self):
        n = 30000
        DepthTest.budget = 4 * n
        DepthTest.Frame.reads = 0
        filename = "main.py"
        top = compile("pass", filename, "exec")
        code = compile("def f():\n    pass\n", filename, "exec").co_consts[0]
        channel = DepthTest.Channel()
        tracer = kidtrace.Tracer(filename, channel, DepthTest.Out(), lambda: None, lambda: False,
                                 lambda k: None, settrace=lambda f: None)
        limit = sys.getrecursionlimit()
        try:
            tracer.start()
            # As a program does that recurses deep: its own limit, once tracing runs.
            sys.setrecursionlimit(n + 1000)
            frame = DepthTest.Frame(None, top, 1)
            chain = [frame]
            local = tracer.call(frame, "call", None)
            for i in range(n):
                frame = DepthTest.Frame(frame, code, 1)
                chain.append(frame)
                self.assertIs(tracer.call(frame, "call", None), local)
            for frame in reversed(chain):
                local(frame, "return", None)
            tracer.finish()
        except DepthTest.TooMuch:
            self.fail("the stack was read more than %d times for %d calls" % (DepthTest.budget, n))
        finally:
            sys.setrecursionlimit(limit)
        self.assertLessEqual(DepthTest.Frame.reads, 2 * n + 2)
        self.assertLessEqual(tracer.frames_walked(), 1)
        steps = [st for d in channel.data for st in json.loads(d)["steps"]]
        self.assertEqual([st[3] for st in steps if st[0] == "c"], list(range(1, n + 1)))
        self.assertEqual([st[3] for st in steps if st[0] == "r"], list(range(n, 0, -1)))

    def test_frames_below_are_counted_once(self):
        # Frames of other code between the file's (a library calling back)
        # are counted down once, not again for each call above them.
        filename = "main.py"
        DepthTest.budget = 10 ** 9
        DepthTest.Frame.reads = 0
        other = compile("def g():\n    pass\n", "lib.py", "exec").co_consts[0]
        code = compile("def f():\n    pass\n", filename, "exec").co_consts[0]
        tracer = kidtrace.Tracer(filename, DepthTest.Channel(), DepthTest.Out(), lambda: None,
                                 lambda: False, lambda k: None, settrace=lambda f: None)
        tracer.start()
        frame = None
        for i in range(500):
            frame = DepthTest.Frame(frame, other, 1)
        lib = frame
        for i in range(1000):
            f = DepthTest.Frame(lib, code, 1)
            local = tracer.call(f, "call", None)
            local(f, "return", None)
        tracer.finish()
        self.assertEqual(tracer.frames_walked(), 500)
        self.assertIs(lib.f_trace.__name__, "other")
        self.assertFalse(lib.f_trace_lines)


if __name__ == "__main__":
    unittest.main()
