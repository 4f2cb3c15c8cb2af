"""The runner's work: run one child's program and report the result to the host
(docs/runner-protocol.md). kidrunner.py is the entry point; its parts are
kidrunner_base (what is captured before the child's code), kidrunner_frames
(JSON and frames), kidrunner_control (Stop, events, input()) and
kidrunner_warm (warm starts).

The program runs as __main__ in this process. Start-up loads only what every
run needs: the turtle recorder, matplotlib support, the SVG renderer, the
error explainer and the checks are imported the first time a run needs them,
so a program that prints and ends starts almost as fast as bare Python.

Whatever the program replaces, closes or deletes, exactly one result frame
still goes out: what the runner needs while the program runs (os.write, the
frame pipe, the JSON string encoder) is captured before the child's code
starts, and when the program ends the runner puts back the builtins, module
table and import machinery it found before importing anything more.
"""

import sys

if sys.version_info < (3, 8):
    sys.stderr.write("kidrunner needs Python 3.8 or newer\n")
    sys.exit(2)

# Only modules the interpreter has already loaded, or builtin ones, and the
# runner's own parts: a plain run must not pay for json, re, threading or
# signal's enums.
import _signal
import _thread
import builtins
import io
import os
import time
from importlib.machinery import ModuleSpec

from kidrunner_base import (_HERE, _PATH, _BaseException, _close, _excepthook, _exit,  # noqa: F401 (_exit: kidrunner.py)
                            _KeyboardInterrupt, _late_import, _MISSING, _modules, _open, _setprofile,
                            _setrecursionlimit, _settrace, _sleep, _SystemExit, scratch_folder)
from kidrunner_control import _Control
from kidrunner_frames import (DRAWING_BUDGET, RESULT_BUDGET, Frames, RawJSON, _b64_bytes,
                              drawing_json, step_texts, to_json)

_TURTLE_FILE = os.path.join(_HERE, "kidturtle.py")
# The runner's own modules: the program sees a module table without them,
# as a plain Python would show it.
_OWN = ("kidrunner_core", "kidrunner_base", "kidrunner_frames", "kidrunner_control",
        "kidrunner_warm", "kidtrace")


def parse_args(argv):
    opts = {"lang": "en", "frames": None, "control": None, "mpl_cache": None,
            "max_steps": 1000000, "build_mpl_cache": None, "scratch": None,
            "program": None, "checks": [], "live": False, "scripted": False, "warm": False,
            "preload_mpl": False, "replay_steps": 0, "trace": False, "trace_steps": None}
    i = 0
    flags = {"--lang": "lang", "--frames": "frames", "--control": "control",
             "--mpl-cache": "mpl_cache", "--max-steps": "max_steps",
             "--build-mpl-cache": "build_mpl_cache", "--scratch": "scratch",
             "--replay-steps": "replay_steps", "--trace-steps": "trace_steps"}
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest = argv[i + 1:]
            if rest:
                opts["program"] = rest[0]
                opts["args"] = rest[1:]
            break
        if a == "--live":
            opts["live"] = True  # docs/runner-protocol.md, "Live runs"
            i += 1
            continue
        if a == "--scripted":
            opts["scripted"] = True  # a timeline comes: docs/runner-protocol.md, "Scripted runs"
            i += 1
            continue
        if a == "--trace":
            opts["trace"] = True  # docs/contracts.md §5
            i += 1
            continue
        if a in ("--warm", "--preload-mpl"):
            opts[a[2:].replace("-", "_")] = True  # docs/runner-protocol.md, "Warm runs"
            i += 1
            continue
        if a == "--check" and i + 1 < len(argv):
            opts["checks"].append(argv[i + 1])  # exercise-pack checks (docs/packs.md)
            i += 2
            continue
        key = flags.get(a)
        if key is None or i + 1 >= len(argv):
            raise ValueError("unknown or incomplete option: %s" % a)
        opts[key] = argv[i + 1]
        i += 2
    for key in ("frames", "control", "max_steps", "replay_steps", "trace_steps"):
        if opts[key] is not None:
            opts[key] = int(opts[key])
    opts["replay_steps"] = max(0, opts["replay_steps"])
    if opts["lang"] not in ("zh", "en"):
        opts["lang"] = "en"
    return opts


def make_stdio():
    """Unbuffered, write-through stdout/stderr, as python -u would give."""
    out = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                           errors="surrogateescape", newline="\n", write_through=True)
    err = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                           errors="backslashreplace", newline="\n", write_through=True)
    return out, err


class _Finder(object):
    """First on sys.meta_path: `turtle` is always the recorder (a child's own
    turtle.py cannot hide it), and matplotlib gets its scratch config folder
    just before it loads."""

    def __init__(self, runner):
        self.runner = runner

    def find_spec(self, name, path=None, target=None):
        if name == "turtle":
            return ModuleSpec("turtle", self, origin=_TURTLE_FILE)
        if name == "matplotlib" and not self.runner.finished:
            self.runner.prepare_matplotlib()
        return None

    def create_module(self, spec):
        # One recorder per run, even if the program drops it from sys.modules
        # and imports it again: the result reads this one.
        return self.runner.load_turtle()

    def exec_module(self, module):
        pass


class Runner(_Control):
    def __init__(self, opts):
        self.opts = opts
        self.lang = opts["lang"]
        self.program = os.path.abspath(opts["program"])
        self.folder = os.path.dirname(self.program)
        self.frames = Frames(opts["frames"])
        self._messages = None
        self.notices = []
        self.stopped = False
        self.finished = False
        self.stdout, self.stderr = make_stdio()
        self.kidcheck = None
        if opts.get("checks"):
            import kidcheck
            self.kidcheck = kidcheck
            self.stdout = kidcheck.Tee(self.stdout)
        self.tracer = None        # kidtrace.Tracer in a step-by-step run
        self.kidtrace = None
        if opts.get("trace"):
            # Loaded now: it leaves the module table with the runner's own.
            self.kidtrace = _late_import("kidtrace")
            self.stdout = self.kidtrace.Counted(self.stdout)
        self.main = None
        self.stdin = sys.stdin
        self.source = None
        self.main_ident = _thread.get_ident()
        self.turtle = None        # the recorder, once the program imports turtle
        self.kidplot = None       # matplotlib support, once the program imports matplotlib
        self.scratch_dir = None
        self.saved = None
        self.live = None          # kidlive.Live in a live run
        self.control_rest = b""   # control bytes a warm start read past the program
        self.model = None         # the drawing model and the SVG's box, once rendered
        self.box = None

    # -- messages (messages.json), loaded on first use
    def messages(self):
        if self._messages is None:
            self._messages = {}
            try:
                json = _late_import("json")
                with _open(os.path.join(_HERE, "messages.json"), encoding="utf-8") as f:
                    self._messages = json.load(f)
            except Exception:
                pass
        return self._messages

    def msg(self, msg_key, **kw):
        messages = self.messages()
        entry = messages.get(msg_key) or messages.get("generic.noline") or {}
        text = entry.get(self.lang) or entry.get("en") or ""
        # Each {name} replaced as backend/text does (kiderrors.fill): the
        # messages may show literal braces.
        for k, v in kw.items():
            text = text.replace("{" + k + "}", str(v))
        return text

    # -- setup
    def prepare(self):
        sys.stdout = sys.__stdout__ = self.stdout
        sys.stderr = sys.__stderr__ = self.stderr
        builtins.input = self.input
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        sys.meta_path.insert(0, _Finder(self))
        if self.opts["live"]:
            self.prepare_live()
        if self.opts["control"] is not None:
            fd = self.opts["control"]
            try:
                import fcntl
                private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64)
                if fd > 2:
                    _close(fd)
                fd = private
            except (OSError, ImportError):
                pass
            _thread.start_new_thread(self.control_loop, (fd, self.control_rest))
        self.warn_shadows()

    def prepare_live(self):
        """A live run: the event queue, and time.sleep waits on it."""
        kidlive = _late_import("kidlive")
        self.live = kidlive.Live(self.frames.send, self.frames.send_text, self.step_texts,
                                 self.interrupt, self.main_ident, scripted=self.opts["scripted"])
        self.parse_line = kidlive.parse_line   # held here: the program may empty sys.modules
        time.sleep = self.live.sleep
        if self.opts["control"] is None:
            self.live.hang_up()

    def step_texts(self, steps, budget):
        """Each step's JSON text, as the result frame writes them, within budget bytes."""
        # Steps exist only once the recorder is loaded, so self.turtle is set.
        return step_texts(steps, budget, self.turtle.STEP_FIELDS)

    def load_turtle(self):
        if self.turtle is None:
            mod = _late_import("kidturtle")
            mod.configure(lang=self.lang, max_steps=self.opts["max_steps"],
                          notices=self.notices, messages=self.messages, live=self.live)
            self.turtle = mod
        return self.turtle

    def prepare_matplotlib(self):
        if self.kidplot is not None:
            return
        try:
            self.kidplot = _late_import("kidplot")
            self.scratch_dir = self.scratch()
            self.kidplot.prepare(self.scratch_dir, self.opts["mpl_cache"])
        except (OSError, ImportError):
            pass

    def scratch(self):
        return scratch_folder(self.opts)

    def warn_shadows(self):
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        stdlib = getattr(sys, "stdlib_module_names", None)
        if stdlib is None:
            stdlib = _late_import("kiderrors").KID_MODULES
        own = os.path.basename(self.program)
        for name in sorted(names):
            if not name.endswith(".py") or name == own:
                continue
            base = name[:-3]
            if base.startswith("_"):
                continue
            if base in stdlib or base in ("turtle", "matplotlib"):
                self.notices.append(self.msg("notice.shadow", file=name))

    # -- running
    def load(self):
        with open(self.program, "rb") as f:
            data = f.read()
        try:
            # By hand: the utf-8-sig codec is one more module to load.
            self.source = (data[3:] if data.startswith(b"\xef\xbb\xbf") else data).decode("utf-8")
        except UnicodeDecodeError:
            self.source = None
        return data

    def run(self):
        code = 0
        exc = None
        exit_exc = None
        try:
            data = self.load()
            main = type(sys)("__main__")
            main.__file__ = self.program
            main.__builtins__ = builtins
            main.__loader__ = None
            main.__spec__ = None
            sys.modules["__main__"] = main
            self.main = main
            sys.argv = [self.program] + self.opts.get("args", [])
            sys.path.insert(0, self.folder)
            sys.path.remove(_HERE)
            sys.path.append(_HERE)
            os.chdir(self.folder)
            # The file's own name, not its sandbox path: tracebacks then read
            # like the child's folder ("File "star.py", line 3"). The working
            # directory is the program's folder, so it still resolves.
            compiled = compile(data, os.path.basename(self.program), "exec", dont_inherit=True)
            for name in _OWN:
                _modules.pop(name, None)
            self.snapshot()
            tracer = self.make_tracer(compiled.co_filename)
            if tracer is not None:
                tracer.start()
            exec(compiled, main.__dict__)
        except _SystemExit as e:
            exit_exc = e
        except _KeyboardInterrupt as e:
            code = 130
            exc = e
        except _BaseException as e:
            code = 1
            exc = e
        # Inline, not in a helper: a trace function the program set would
        # run on the helper's call. One that raises is unset by the interpreter.
        try:
            _settrace(None)
        except _BaseException:
            _settrace(None)
        try:
            _setprofile(None)
        except _BaseException:
            _setprofile(None)
        if self.tracer is not None:
            self.tracer.finish()
        if code == 1 and self.closed_quietly(exc):
            code, exc = 0, None
        self.after_program()
        self.recover()
        if exc is None and exit_exc is None and self.turtle is not None:
            try:
                self.turtle.program_ended()
            except _BaseException as e:
                self.internal(e)
        error = None
        if exit_exc is not None:
            code = self.exit_code(exit_exc)
        if exc is not None:
            error = self.describe(exc)
            if self.stopped and isinstance(exc, _KeyboardInterrupt):
                # The child pressed Stop: the window says so in their
                # language; a red traceback above it would read as a mistake.
                error["hint"] = self.msg("limit.stopped")
            else:
                self.print_exception(exc)
        return code, error

    def make_tracer(self, filename):
        """The step-by-step run's tracer of the child's file, if one was asked for."""
        kidtrace = self.kidtrace
        if kidtrace is None:
            return None
        steps = self.opts.get("trace_steps")
        self.tracer = kidtrace.Tracer(
            filename, self.frames, self.stdout, self.draw_steps, lambda: self.stopped,
            self.trace_cut, max_steps=kidtrace.MAX_STEPS if steps is None else max(0, steps),
            settrace=_settrace)
        return self.tracer

    def draw_steps(self):
        """The drawing's step list, once the program has a turtle screen."""
        screen = self.turtle.current_screen() if self.turtle is not None else None
        return screen._rec.steps if screen is not None else None

    def trace_cut(self, n):
        self.notices.append(self.msg("notice.trace_cut", n=n))

    def closed_quietly(self, e):
        """Whether e is the Terminator of a turtle call after the live window closed."""
        live, turtle = self.live, self.turtle
        return (live is not None and live.closed and turtle is not None
                and isinstance(e, turtle.Terminator))

    def snapshot(self):
        """What recover() puts back: taken just before the child's code runs."""
        self.saved = [(d, dict(d)) for d in (builtins.__dict__, sys.__dict__, os.__dict__,
                                             os.path.__dict__, io.__dict__)]
        self.saved_modules = dict(_modules)
        self.saved_meta = list(sys.meta_path)
        self.saved_hooks = list(sys.path_hooks)
        self.saved_importers = dict(sys.path_importer_cache)
        self.saved_limit = sys.getrecursionlimit()

    def recover(self):
        """Undo what the program did to the interpreter the runner still uses.

        After this the runner's late imports (the explainer, the SVG renderer)
        work even if the program emptied sys.modules, replaced __import__ or
        builtins, or cleared sys.meta_path. The program's own modules stay
        alive through its globals; only the module table forgets them.
        """
        if self.saved is None:
            return
        for live, saved in self.saved:
            try:
                for k, v in saved.items():
                    if live.get(k, _MISSING) is not v:
                        live[k] = v
            except _BaseException:
                pass
        try:
            _setrecursionlimit(self.saved_limit)
        except _BaseException:
            pass
        try:
            sys.path = list(_PATH)
            sys.meta_path = list(self.saved_meta)
            sys.path_hooks = list(self.saved_hooks)
            sys.path_importer_cache = dict(self.saved_importers)
        except _BaseException:
            pass
        for k, v in self.saved_modules.items():
            try:
                if _modules.get(k, _MISSING) is not v:
                    _modules[k] = v
            except _BaseException:
                pass
        own = self.folder + os.sep
        for k, v in list(_modules.items()):
            if k in self.saved_modules:
                continue
            try:
                f = v.__dict__.get("__file__") if isinstance(v, type(sys)) else None
                if not isinstance(v, type(sys)) or (isinstance(f, str) and f.startswith(own)):
                    del _modules[k]
            except _BaseException:
                try:
                    del _modules[k]
                except _BaseException:
                    pass

    def after_program(self):
        if self.live is not None:
            time.sleep = _sleep
        try:
            threading = _modules.get("threading")
            if threading is not None:
                for t in threading.enumerate():
                    if t is not threading.main_thread() and not t.daemon:
                        t.join()
        except _BaseException:
            pass
        # From here on a late stop must not interrupt the runner itself.
        self.finished = True
        try:
            _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
        except (OSError, ValueError):
            pass

    def exit_code(self, e):
        c = e.code
        if c is None:
            return 0
        if isinstance(c, int) and not isinstance(c, bool):
            return c & 0xFF
        try:
            self.stderr.write(str(c) + "\n")
        except Exception:
            pass
        return 1

    def child_frames(self, exc):
        frames = []
        tb = exc.__traceback__
        while tb is not None:
            fn = tb.tb_frame.f_code.co_filename
            if not _is_ours(fn):
                frames.append((fn, tb.tb_lineno, tb.tb_frame))
            tb = tb.tb_next
        return frames

    def describe(self, exc):
        name = type(exc).__name__
        try:
            kiderrors = _late_import("kiderrors")
            explainer = kiderrors.Explainer(self.lang, self.program, self.messages(),
                                            matplotlib_available=_find("matplotlib"))
            return explainer.explain(exc, self.child_frames(exc), self.source)
        except _BaseException:
            pass
        line = None
        try:
            frames = self.child_frames(exc)
            if isinstance(exc, SyntaxError):
                line = exc.lineno
            elif frames:
                line = frames[-1][1]
        except _BaseException:
            pass
        try:
            message = str(exc)[:2000]
        except _BaseException:
            message = ""
        return {"type": name, "message": message, "line": line,
                "hint": self.msg("generic.noline", type=name)}

    def print_exception(self, exc):
        try:
            strip_runner_frames(exc)
            sys.stderr = self.stderr
            _excepthook(type(exc), exc, exc.__traceback__)
        except _BaseException:
            try:
                self.stderr.write("%s: %s\n" % (type(exc).__name__, exc))
            except Exception:
                pass

    # -- the result
    def result(self, error):
        images = []
        drawing = None
        budget = RESULT_BUDGET - len(to_json(error)) - 4096
        screen = self.turtle.current_screen() if self.turtle is not None else None
        if screen is not None and screen._rec.used:
            try:
                kidsvg = _late_import("kidsvg")
                model = screen.drawing()
                svg, box = kidsvg.render_with_box(model)
                self.model, self.box = model, box
                svg = _b64_bytes(svg.encode("utf-8"))
                if len(svg) < budget:
                    images.append({"mime": "image/svg+xml", "data": RawJSON('"%s"' % svg)})
                    budget -= len(svg)
                replay = self.opts.get("replay_steps") or 0
                if replay > 0:
                    # The steps go only when asked for (a reader that did
                    # not see them live), and whole or not at all.
                    drawing = drawing_json(model, min(replay, budget // 2), box,
                                           self.turtle.STEP_FIELDS)
                    if drawing is None:
                        self.notices.append(self.msg("notice.drawing_cut"))
            except _BaseException as e:
                self.internal(e)
        if self.kidplot is not None:
            try:
                pngs, dropped = self.kidplot.finish()
                for png in pngs:
                    data = _b64_bytes(png)
                    if len(data) < budget:
                        images.append({"mime": "image/png", "data": RawJSON('"%s"' % data)})
                        budget -= len(data)
                    else:
                        dropped += 1
                if dropped:
                    self.notices.append(self.msg("notice.figures", n=len(pngs) - dropped))
            except _BaseException as e:
                self.internal(e)
        return {"type": "result", "error": error, "images": images,
                "drawing": drawing, "notices": self.notices}

    def internal(self, e):
        try:
            self.stderr.write("kidrunner: %s: %s\n" % (type(e).__name__, e))
        except Exception:
            pass


def _is_ours(filename):
    return bool(filename) and os.path.dirname(os.path.abspath(filename)) == _HERE


def _find(name):
    try:
        import importlib.util
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def strip_runner_frames(exc, seen=None):
    """Unlink the runner's own frames from exc's traceback (and its chained exceptions).

    The interpreter's own printer then shows only the child's lines, with
    its carets and "Did you mean" suggestions.
    """
    seen = seen if seen is not None else set()
    if exc is None or id(exc) in seen:
        return
    seen.add(id(exc))
    nodes = []
    tb = exc.__traceback__
    while tb is not None:
        if not _is_ours(tb.tb_frame.f_code.co_filename):
            nodes.append(tb)
        tb = tb.tb_next
    for a, b in zip(nodes, nodes[1:] + [None]):
        a.tb_next = b
    exc.__traceback__ = nodes[0] if nodes else None
    strip_runner_frames(exc.__cause__, seen)
    strip_runner_frames(exc.__context__, seen)


def build_mpl_cache(folder):
    try:
        import kidplot
        kidplot.build_cache(folder)
    except Exception as e:
        sys.stderr.write("kidrunner: cannot build the matplotlib font cache: %s\n" % e)
        return 1
    return 0


def _for_checks(runner):
    """The drawing as the checks read it, from the recording in this process
    (whatever the result frame carries): steps as objects, not JSON text."""
    if runner.model is None:
        return None
    drawing = drawing_json(runner.model, DRAWING_BUDGET, runner.box,
                           runner.turtle.STEP_FIELDS, cut=True)
    drawing["steps"] = _late_import("json").loads(drawing["steps"])
    return drawing


def main(argv):
    try:
        opts = parse_args(argv)
    except ValueError as e:
        sys.stderr.write("kidrunner: %s\n" % e)
        return 2
    if opts["build_mpl_cache"]:
        return build_mpl_cache(opts["build_mpl_cache"])
    warm, rest = None, b""
    if opts["warm"]:
        if opts["control"] is None:
            sys.stderr.write("kidrunner: --warm needs --control\n")
            return 2
        got = _late_import("kidrunner_warm").warm_start(opts)
        if got is None:
            return 0
        warm, rest = got
    if not opts["program"]:
        sys.stderr.write("kidrunner: no program given\n")
        return 2
    runner = Runner(opts)
    runner.control_rest = rest
    if warm is not None and warm.kidplot is not None:
        runner.kidplot, runner.scratch_dir = warm.kidplot, warm.scratch_dir
    runner.prepare()
    try:
        code, error = runner.run()
    except _BaseException as e:
        # A runner bug or a program that reached into the runner: still one result.
        runner.internal(e)
        code, error = 1, None
    try:
        result = runner.result(error)
    except _BaseException as e:
        runner.internal(e)
        result = {"type": "result", "error": error, "images": [], "drawing": None,
                  "notices": runner.notices}
    # Checks run after the result is built, so they see (and cannot change)
    # the program's own drawing; only a program that ended normally is checked.
    if opts["checks"] and code == 0 and error is None and runner.main is not None:
        try:
            sys.path.insert(0, runner.folder)
            result["checks"] = runner.kidcheck.run_checks(
                opts["checks"], vars(runner.main), runner.stdout.text(),
                _for_checks(runner), runner.lang)
        except _BaseException as e:
            runner.internal(e)
    if runner.live is not None:
        runner.live.finish()
    if runner.scratch_dir:
        try:
            _late_import("shutil").rmtree(runner.scratch_dir, ignore_errors=True)
        except _BaseException as e:
            runner.internal(e)
    if not runner.frames.send(result):
        result["drawing"] = None
        result["images"] = []
        runner.frames.send(result)
    for stream in (runner.stdout, runner.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    return code
