"""Run one child's program and report the result to the host (docs/runner-protocol.md).

The program runs as __main__ in this process. Everything the runner needs
after the program starts (os.write, json, the frame pipe, the real stdin) is
captured before the child's code runs, so whatever the program replaces,
closes or deletes, exactly one result frame still goes out at the end.
"""

import sys

if sys.version_info < (3, 8):
    sys.stderr.write("kidrunner needs Python 3.8 or newer\n")
    sys.exit(2)

import builtins
import io
import json
import os
import signal
import struct
import threading
import traceback
import types

_HERE = os.path.dirname(os.path.abspath(__file__))
# Python runs us with -I, so our own folder is not on sys.path.
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import kidcheck  # noqa: E402
import kiderrors  # noqa: E402
import kidplot  # noqa: E402
import kidsvg  # noqa: E402
import kidturtle  # noqa: E402

# Captured now: the child may replace or delete any of these later.
_run_checks = kidcheck.run_checks
_write = os.write
_close = os.close
_dumps = json.dumps
_pack = struct.pack
_b64 = kidsvg.to_base64
_exit = os._exit
_SystemExit = SystemExit
_KeyboardInterrupt = KeyboardInterrupt
_BaseException = BaseException
_excepthook = sys.__excepthook__

RESULT_BUDGET = 15 * 1024 * 1024   # the host drops frames over 16 MiB
DRAWING_BUDGET = 4 * 1024 * 1024


class Frames(object):
    """Length-prefixed JSON frames on a private copy of the frame pipe."""

    def __init__(self, fd):
        self.fd = None
        if fd is None:
            return
        try:
            import fcntl
            self.fd = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64)
            if fd > 2:
                _close(fd)
        except (OSError, ImportError):
            self.fd = fd

    def send(self, obj):
        if self.fd is None:
            return False
        try:
            data = _dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")
        except (TypeError, ValueError):
            return False
        data = _pack(">I", len(data)) + data
        view = memoryview(data)
        try:
            while view:
                n = _write(self.fd, view)
                view = view[n:]
        except OSError:
            return False
        return True


def parse_args(argv):
    opts = {"lang": "en", "frames": None, "control": None, "mpl_cache": None,
            "max_steps": 1000000, "build_mpl_cache": None, "scratch": None,
            "program": None, "checks": []}
    i = 0
    flags = {"--lang": "lang", "--frames": "frames", "--control": "control",
             "--mpl-cache": "mpl_cache", "--max-steps": "max_steps",
             "--build-mpl-cache": "build_mpl_cache", "--scratch": "scratch"}
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest = argv[i + 1:]
            if rest:
                opts["program"] = rest[0]
                opts["args"] = rest[1:]
            break
        if a == "--check" and i + 1 < len(argv):
            opts["checks"].append(argv[i + 1])  # exercise-pack checks (docs/packs.md)
            i += 2
            continue
        key = flags.get(a)
        if key is None or i + 1 >= len(argv):
            raise ValueError("unknown or incomplete option: %s" % a)
        opts[key] = argv[i + 1]
        i += 2
    for key in ("frames", "control", "max_steps"):
        if opts[key] is not None:
            opts[key] = int(opts[key])
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


class Runner(object):
    def __init__(self, opts):
        self.opts = opts
        self.lang = opts["lang"]
        self.program = os.path.abspath(opts["program"])
        self.folder = os.path.dirname(self.program)
        self.frames = Frames(opts["frames"])
        self.messages = kiderrors.load_messages()
        self.notices = []
        self.stopped = False
        self.finished = False
        self.stdout, self.stderr = make_stdio()
        if opts.get("checks"):
            self.stdout = kidcheck.Tee(self.stdout)
        self.main = None
        self.stdin = sys.stdin
        self.source = None
        self.mpl_available = _find("matplotlib")
        self.main_ident = threading.get_ident()
        self.explainer = kiderrors.Explainer(self.lang, self.program, self.messages,
                                             matplotlib_available=self.mpl_available)

    def msg(self, msg_key, **kw):
        return self.explainer.msg(msg_key, **kw)

    # -- setup
    def prepare(self):
        sys.stdout = sys.__stdout__ = self.stdout
        sys.stderr = sys.__stderr__ = self.stderr
        builtins.input = self.input
        signal.signal(signal.SIGINT, signal.default_int_handler)
        kidturtle.configure(lang=self.lang, max_steps=self.opts["max_steps"],
                            notices=self.notices, messages=self.messages)
        sys.modules["turtle"] = kidturtle
        self.scratch_dir = None
        if self.mpl_available:
            try:
                self.scratch_dir = self.scratch()
                kidplot.prepare(self.scratch_dir, self.opts["mpl_cache"])
            except OSError:
                pass
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
            t = threading.Thread(target=self.control_loop, args=(fd,), daemon=True)
            t.start()
        self.warn_shadows()

    def scratch(self):
        base = self.opts["scratch"]
        if not base:
            tmp = os.environ.get("TMPDIR") or "/tmp"
            base = tmp if os.access(tmp, os.W_OK) else os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "kidrunner-%d" % os.getpid())
        os.makedirs(folder, exist_ok=True)
        return folder

    def warn_shadows(self):
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        own = os.path.basename(self.program)
        for name in sorted(names):
            if not name.endswith(".py") or name == own:
                continue
            base = name[:-3]
            if base in self.explainer.stdlib or base in ("turtle", "matplotlib"):
                self.notices.append(self.msg("notice.shadow", file=name))

    # -- stop
    def control_loop(self, fd):
        buf = b""
        while True:
            try:
                data = os.read(fd, 256)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if line.strip() == b"stop" and not self.finished:
                    self.stopped = True
                    # Aimed at the main thread so its blocking call (sleep,
                    # read) returns EINTR and the handler raises there.
                    try:
                        signal.pthread_kill(self.main_ident, signal.SIGINT)
                    except (AttributeError, OSError):
                        os.kill(os.getpid(), signal.SIGINT)

    # -- input()
    def input(self, prompt=""):
        out = sys.stdout if sys.stdout is not None else self.stdout
        text = str(prompt)
        try:
            out.write(text)
            out.flush()
        except Exception:
            pass
        self.frames.send({"type": "input", "prompt": text})
        try:
            stream = sys.stdin if sys.stdin is not None else self.stdin
            if stream is None:
                line = ""
            else:
                line = stream.readline()
        finally:
            self.frames.send({"type": "input_done"})
        if not line:
            raise EOFError("EOF when reading a line")
        if line.endswith("\n"):
            line = line[:-1]
        return line

    # -- running
    def load(self):
        with open(self.program, "rb") as f:
            data = f.read()
        try:
            self.source = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            self.source = None
        return data

    def run(self):
        code = 0
        error = None
        exc_to_print = None
        try:
            data = self.load()
            main = types.ModuleType("__main__")
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
            exec(compiled, main.__dict__)
        except _SystemExit as e:
            code = self.exit_code(e)
        except _KeyboardInterrupt as e:
            code = 130
            error, exc_to_print = self.describe(e), e
            if self.stopped:
                error["hint"] = self.msg("limit.stopped")
        except _BaseException as e:
            code = 1
            error, exc_to_print = self.describe(e), e
        self.after_program()
        if exc_to_print is not None:
            self.print_exception(exc_to_print)
        return code, error

    def after_program(self):
        try:
            for t in threading.enumerate():
                if t is not threading.main_thread() and not t.daemon:
                    t.join()
        except _BaseException:
            pass
        # From here on a late stop must not interrupt the runner itself.
        self.finished = True
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
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
        try:
            return self.explainer.explain(exc, self.child_frames(exc), self.source)
        except _BaseException:
            return {"type": type(exc).__name__, "message": "", "line": None,
                    "hint": self.msg("generic.noline", type=type(exc).__name__)}

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
        budget = RESULT_BUDGET - len(_dumps(error or {}, ensure_ascii=False)) - 4096
        screen = kidturtle.current_screen()
        if screen is not None and screen._rec.used:
            try:
                model = screen.drawing()
                svg, box = kidsvg.render_with_box(model)
                svg = _b64(svg)
                if len(svg) < budget:
                    images.append({"mime": "image/svg+xml", "data": svg})
                    budget -= len(svg)
                drawing = drawing_json(model, min(budget // 2, DRAWING_BUDGET), box)
                if drawing.get("steps_cut"):
                    self.notices.append(self.msg("notice.drawing_cut"))
            except _BaseException as e:
                self.internal(e)
        try:
            pngs, dropped = kidplot.finish()
            for png in pngs:
                data = _b64_bytes(png)
                if len(data) < budget:
                    images.append({"mime": "image/png", "data": data})
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


def _b64_bytes(data):
    import base64
    return base64.b64encode(data).decode("ascii")


def _r2(v):
    return round(v, 2) if isinstance(v, float) else v


def drawing_json(model, budget, box=None):
    """The drawing model for the result frame, its steps cut to fit budget bytes.

    box: the SVG's [x0, y0, x1, y1] in pixels, which frames everything drawn.
    """
    fields = kidturtle.STEP_FIELDS
    steps = []
    size = 0
    cut = False
    chunk_start = 0
    all_steps = model["steps"]
    for st in all_steps:
        k = st[0]
        d = {"k": k}
        d.update(zip(fields[k], st[1:]))
        if k == "move":
            d["x1"], d["y1"], d["x2"], d["y2"] = _r2(st[3]), _r2(st[4]), _r2(st[5]), _r2(st[6])
            if st[7] is None:
                del d["c"], d["w"]
        elif k == "dot":
            d["x"], d["y"] = _r2(st[3]), _r2(st[4])
        if "t" in d and d["t"] is None:
            del d["t"]
        steps.append(d)
        # Measured a chunk at a time: encoding each step alone costs more than the steps.
        if len(steps) - chunk_start >= 512:
            size += len(_dumps(steps[chunk_start:], ensure_ascii=False, separators=(",", ":")))
            if size > budget:
                del steps[chunk_start:]
                cut = True
                break
            chunk_start = len(steps)
    else:
        size += len(_dumps(steps[chunk_start:], ensure_ascii=False, separators=(",", ":")))
        if size > budget:
            del steps[chunk_start:]
            cut = True
    xs, ys = model["scale"]
    w, h = model["width"], model["height"]
    if box is None:
        box = [-w / 2.0, -h / 2.0, w / 2.0, h / 2.0]
    x0, x1 = box[0] / xs, box[2] / xs
    y0, y1 = -box[3] / ys, -box[1] / ys
    view = [round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)]
    return {"width": w, "height": h, "view": view, "bg": model["bg"],
            "scale": [xs, ys], "steps": steps, "turtles": model["turtles"],
            "truncated": model["truncated"], "steps_cut": cut}


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
        kidplot.build_cache(folder)
    except Exception as e:
        sys.stderr.write("kidrunner: cannot build the matplotlib font cache: %s\n" % e)
        return 1
    return 0


def main(argv):
    try:
        opts = parse_args(argv)
    except ValueError as e:
        sys.stderr.write("kidrunner: %s\n" % e)
        return 2
    if opts["build_mpl_cache"]:
        return build_mpl_cache(opts["build_mpl_cache"])
    if not opts["program"]:
        sys.stderr.write("kidrunner: no program given\n")
        return 2
    runner = Runner(opts)
    runner.prepare()
    code, error = runner.run()
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
            result["checks"] = _run_checks(opts["checks"], vars(runner.main), runner.stdout.text(),
                                           result.get("drawing"))
        except _BaseException as e:
            runner.internal(e)
    if runner.scratch_dir:
        import shutil
        shutil.rmtree(runner.scratch_dir, ignore_errors=True)
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


if __name__ == "__main__":
    _exit(main(sys.argv[1:]))
