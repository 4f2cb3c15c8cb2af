"""The runner's work: run one child's program and report the result to the host
(docs/runner-protocol.md). kidrunner.py is the entry point.

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

# Only modules the interpreter has already loaded, or builtin ones: a plain
# run must not pay for json, re, threading or signal's enums.
import _signal
import _thread
import binascii
import builtins
import io
import os
import time
from importlib.machinery import ModuleSpec

_HERE = os.path.dirname(os.path.abspath(__file__))
# Python runs us with -I, so our own folder is not on sys.path.
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
# The path the runner's own late imports use: never the program's folder,
# where a child's json.py or re.py would be found first.
_PATH = list(sys.path)
_TURTLE_FILE = os.path.join(_HERE, "kidturtle.py")

# Captured now: the child may replace or delete any of these later.
_write = os.write
_read = os.read
_close = os.close
_kill = os.kill
_getpid = os.getpid
_open = io.open
_exit = os._exit
_b2a = binascii.b2a_base64
_modules = sys.modules
_SystemExit = SystemExit
_KeyboardInterrupt = KeyboardInterrupt
_BaseException = BaseException
_excepthook = sys.__excepthook__
_settrace = sys.settrace
_setprofile = sys.setprofile
_setrecursionlimit = sys.setrecursionlimit
_sleep = time.sleep
_MISSING = object()

RESULT_BUDGET = 15 * 1024 * 1024   # the host drops frames over 16 MiB
DRAWING_BUDGET = 4 * 1024 * 1024   # the steps the checks read, at most
# No step's JSON is shorter than this, comma included ('{"k":"clear","s":0},'):
# a drawing of more steps than budget / _MIN_STEP cannot fit, and is known
# not to before anything is encoded.
_MIN_STEP = 20


# -- JSON out: small and exact, so the json package stays unloaded

class RawJSON(str):
    """Text that is already JSON, written into a frame as it is."""


_ESCAPES = {i: "\\u%04x" % i for i in range(32)}
_ESCAPES.update({0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t",
                 0x08: "\\b", 0x0c: "\\f"})


def _jstr(s):
    return '"' + str.translate(s, _ESCAPES) + '"'


def _jfloat(v):
    # NaN and infinities are not JSON: a frame holding them would be dropped whole.
    if v - v == 0:
        return float.__repr__(v)
    return "null"


def _enc(o, out):
    """Append the JSON for o to out, as json.dumps(ensure_ascii=False) writes it."""
    t = type(o)
    if t is str:
        out.append(_jstr(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(o))
    elif t is float:
        out.append(_jfloat(o))
    elif t is dict:
        out.append("{")
        first = True
        for k, v in o.items():
            if not isinstance(k, str):
                raise TypeError("keys must be str")
            if not first:
                out.append(",")
            first = False
            out.append(_jstr(k))
            out.append(":")
            _enc(v, out)
        out.append("}")
    elif t is list or t is tuple:
        out.append("[")
        first = True
        for v in o:
            if not first:
                out.append(",")
            first = False
            _enc(v, out)
        out.append("]")
    elif t is RawJSON:
        out.append(str.__str__(o))
    elif isinstance(o, str):
        out.append(_jstr(o))
    elif isinstance(o, int):
        out.append(int.__repr__(o))
    elif isinstance(o, float):
        out.append(_jfloat(o))
    elif isinstance(o, (list, tuple, dict)):
        _enc(dict(o) if isinstance(o, dict) else list(o), out)
    else:
        raise TypeError("not JSON: %s" % t.__name__)


def to_json(o):
    out = []
    _enc(o, out)
    return "".join(out)


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
        """Send obj as one frame; False if it could not be encoded or written."""
        if self.fd is None:
            return False
        try:
            text = to_json(obj)
        except Exception:
            return False
        return self.send_text(text)

    def send_text(self, text):
        """Send text, already one JSON object, as one frame."""
        if self.fd is None:
            return False
        data = text.encode("utf-8", "replace")
        head = len(data).to_bytes(4, "big")
        # Small frames (most live ones) go out in one write.
        parts = (head + data,) if len(data) < 65536 else (head, data)
        try:
            for part in parts:
                view = memoryview(part)
                while view:
                    n = _write(self.fd, view)
                    view = view[n:]
        except OSError:
            return False
        return True


def _wait_read(fd, limit=0.2):
    """Wait (briefly, bounded) until the host has read what is in the pipe fd.

    The host reads stdout and the frame pipe separately, so an input frame
    sent right after the prompt could otherwise be seen before the prompt.
    """
    try:
        fcntl, stat, termios = [_late_import(m) for m in ("fcntl", "stat", "termios")]
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return
        buf = bytearray(4)
        deadline = time.monotonic() + limit
        while True:
            fcntl.ioctl(fd, termios.FIONREAD, buf, True)
            if int.from_bytes(buf, sys.byteorder) == 0 or time.monotonic() > deadline:
                return
            _sleep(0.001)
    except Exception:
        pass


def _late_import(name):
    """Import name for the runner while or after the program runs.

    Found on the runner's own path, never in the program's folder; a module
    already loaded is reused (after recover() that is the runner's own).
    """
    mod = _modules.get(name)
    if mod is not None:
        return mod
    saved = sys.path
    sys.path = list(_PATH)
    try:
        __import__(name)
    finally:
        sys.path = saved
    return _modules[name]


def parse_args(argv):
    opts = {"lang": "en", "frames": None, "control": None, "mpl_cache": None,
            "max_steps": 1000000, "build_mpl_cache": None, "scratch": None,
            "program": None, "checks": [], "live": False, "warm": False,
            "preload_mpl": False, "replay_steps": 0}
    i = 0
    flags = {"--lang": "lang", "--frames": "frames", "--control": "control",
             "--mpl-cache": "mpl_cache", "--max-steps": "max_steps",
             "--build-mpl-cache": "build_mpl_cache", "--scratch": "scratch",
             "--replay-steps": "replay_steps"}
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
    for key in ("frames", "control", "max_steps", "replay_steps"):
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


class Runner(object):
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
                                 self.interrupt, self.main_ident)
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

    # -- stop and, in live runs, events
    def control_loop(self, fd, buf=b""):
        try:
            self.read_control(fd, buf)
        finally:
            if self.live is not None:
                self.live.hang_up()

    def read_control(self, fd, buf=b""):
        """Read the control pipe until it closes, handling it line by line.

        buf is what was already read from it (a warm run's bytes past its program).
        """
        skipping = False          # inside a line longer than the bound
        limit = 4096
        while True:
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    if len(buf) > limit:
                        buf = b""
                        skipping = True
                    break
                line, buf = buf[:nl], buf[nl + 1:]
                if skipping:
                    skipping = False
                elif len(line) <= limit:
                    self.control_line(line)
            try:
                data = _read(fd, 4096)
            except OSError:
                return
            if not data:
                return
            buf += data

    def control_line(self, line):
        """One line from the host: stop, or (live runs) an event."""
        if self.finished:
            return
        if self.live is None:
            if line.strip() == b"stop":
                self.interrupt()
            return
        try:
            ev = self.parse_line(line)
        except Exception:
            return
        if ev is not None:
            if ev[0] == "stop":
                self.stopped = True
            self.live.feed(ev)

    def interrupt(self):
        """Raise KeyboardInterrupt in the program (Stop)."""
        if self.finished:
            return
        self.stopped = True
        # Aimed at the main thread so its blocking call (sleep,
        # read) returns EINTR and the handler raises there.
        try:
            _signal.pthread_kill(self.main_ident, _signal.SIGINT)
        except (AttributeError, OSError):
            _kill(_getpid(), _signal.SIGINT)

    # -- input()
    def input(self, prompt=""):
        out = sys.stdout if sys.stdout is not None else self.stdout
        text = str(prompt)
        try:
            out.write(text)
            out.flush()
        except Exception:
            pass
        _wait_read(1)
        try:
            # Inside the try: a stop landing just after the frame went out
            # still ends with input_done.
            self.frames.send({"type": "input", "prompt": text})
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
            self.snapshot()
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
        if code == 1 and self.closed_quietly(exc):
            code, exc = 0, None
        self.after_program()
        self.recover()
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


def _b64_bytes(data):
    # Base64 is pure ASCII, so it goes into the frame without JSON escaping.
    return _b2a(data, newline=False).decode("ascii")


def _num2(v):
    """A coordinate as JSON, rounded to 2 decimals as the drawing model says."""
    if type(v) is float:
        return _jfloat(round(v, 2))
    if type(v) is int:
        return int.__repr__(v)
    return to_json(v)


def _move_json(t, s, x1, y1, x2, y2):
    head = '{"k":"move",' if t is None else '{"k":"move","t":%s,' % to_json(t)
    return head + '"s":%s,"x1":%s,"y1":%s,"x2":%s,"y2":%s' % (
        to_json(s), _num2(x1), _num2(y1), _num2(x2), _num2(y2))


_NAMES = {}


def _field_names(fields):
    """Each step kind's field names as JSON keys with their colon, worked out once per table."""
    names = _NAMES.get(id(fields))
    if names is None or names[0] is not fields:
        names = _NAMES[id(fields)] = (fields, {k: [_jstr(f) + ":" for f in fs] for k, fs in fields.items()})
    return names[1]


def steps_json(steps, budget, fields):
    """The steps as one JSON array of at most budget bytes: (text, cut)."""
    out, cut = step_texts(steps, budget, fields)
    return "[" + ",".join(out) + "]", cut


def step_texts(steps, budget, fields):
    """Each step's JSON object text, while the array of them stays within budget bytes: (texts, cut).

    Built in one pass with the common kinds formatted directly; a step that
    would cross the budget ends the list there.
    """
    out = []
    size = 1             # "[" and "]", and each step's text with its comma, less one comma
    cut = False
    names = _field_names(fields)
    scalar = {}          # colours and widths repeat: encode each once
    # "%.2f" reads back as exactly round(v, 2), and costs one C call for the lot.
    move_fmt = '{"k":"move","t":%d,"s":%d,"x1":%.2f,"y1":%.2f,"x2":%.2f,"y2":%.2f%s'
    last_c = last_w = last_tail = None     # the last move's colour and width, and their text
    for st in steps:
        k = st[0]
        if k == "move":
            _, t, s, x1, y1, x2, y2, c, w = st
            # Runs of moves share one colour and width (the same objects).
            if c is last_c and w is last_w and last_tail is not None:
                tail = last_tail
            else:
                key = (c, w, type(w))
                try:
                    tail = scalar.get(key)
                except TypeError:       # a width the program made unhashable
                    key = tail = None
                if tail is None:
                    tail = "}" if c is None else ',"c":%s,"w":%s}' % (to_json(c), to_json(w))
                    if key is not None:
                        scalar[key] = tail
                if key is not None and (type(w) is int or type(w) is float):
                    last_c, last_w, last_tail = c, w, tail
                else:
                    last_tail = None
            if (type(x1) is float and type(y1) is float and type(x2) is float and type(y2) is float
                    and type(t) is int and type(s) is int):
                total = x1 + y1 + x2 + y2
                if total - total == 0:      # all finite, so valid JSON numbers
                    text = move_fmt % (t, s, x1, y1, x2, y2, tail)
                else:
                    text = _move_json(t, s, x1, y1, x2, y2) + tail
            else:
                text = _move_json(t, s, x1, y1, x2, y2) + tail
        else:
            vals = list(st[1:])
            if k == "dot":
                vals[2], vals[3] = RawJSON(_num2(vals[2])), RawJSON(_num2(vals[3]))
            parts = ['{"k":', _jstr(k)]
            for name, v in zip(names.get(k, ()), vals):
                if name == '"t":' and v is None:
                    continue
                parts.append(",")
                parts.append(name)
                _enc(v, parts)
            parts.append("}")
            text = "".join(parts)
        size += len(text) + 1
        if size > budget:
            cut = True
            break
        out.append(text)
    return out, cut


def drawing_json(model, budget, box=None, fields=None, cut=False):
    """The drawing model for the result frame, its steps' JSON within budget bytes.

    None when the steps do not fit, unless cut: then they are cut to fit
    (the checks read the first part). Whether they fit is known before
    encoding when even the shortest steps could not.
    box: the SVG's [x0, y0, x1, y1] in pixels, which frames everything drawn.
    fields: the recorder's STEP_FIELDS. The steps come back as RawJSON.
    """
    if fields is None:
        fields = _late_import("kidturtle").STEP_FIELDS
    steps = model["steps"]
    if not cut and 1 + len(steps) * _MIN_STEP > budget:
        return None
    text, was_cut = steps_json(steps, budget, fields)
    if was_cut and not cut:
        return None
    xs, ys = model["scale"]
    w, h = model["width"], model["height"]
    if box is None:
        box = [-w / 2.0, -h / 2.0, w / 2.0, h / 2.0]
    x0, x1 = box[0] / xs, box[2] / xs
    y0, y1 = -box[3] / ys, -box[1] / ys
    view = [round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)]
    return {"width": w, "height": h, "view": view, "bg": model["bg"],
            "scale": [xs, ys], "steps": RawJSON(text), "turtles": model["turtles"],
            "truncated": model["truncated"]}


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


def scratch_folder(opts):
    """The runner's own scratch folder (matplotlib's config lives there)."""
    base = opts["scratch"]
    if not base:
        tmp = os.environ.get("TMPDIR") or "/tmp"
        base = tmp if os.access(tmp, os.W_OK) else os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "kidrunner-%d" % os.getpid())
    os.makedirs(folder, exist_ok=True)
    return folder


# -- warm runs (docs/runner-protocol.md, "Warm runs")

MAX_WARM_CODE = 16 * 1024 * 1024
_GO_LINE = 64 * 1024


class _Warm(object):
    """What a warm start loaded ahead of its program."""
    kidplot = None
    scratch_dir = None


def _preload(opts, warm):
    """Load what runs need before the program is known; nothing here is the child's."""
    for name in ("kidturtle", "kiderrors", "kidsvg", "json"):
        _late_import(name)
    if opts["live"]:
        _late_import("kidlive")
    if opts["preload_mpl"]:
        try:
            kidplot = _late_import("kidplot")
            warm.scratch_dir = scratch_folder(opts)
            kidplot.prepare(warm.scratch_dir, opts["mpl_cache"])
            _late_import("matplotlib.pyplot")
            warm.kidplot = kidplot
        except Exception:
            pass  # the program's own import then does it, as in a cold run


def _read_go(fd):
    """Read the host's go line and the program's bytes from the control pipe.

    Returns (header, code, rest) or None when the host hung up or sent
    something else: then nothing of a child's runs here.
    """
    json = _modules["json"]
    buf = b""
    while b"\n" not in buf:
        if len(buf) > _GO_LINE:
            return None
        data = _read(fd, 65536)
        if not data:
            return None
        buf += data
    line, buf = buf.split(b"\n", 1)
    if not line.startswith(b"go "):
        return None
    head = json.loads(line[3:].decode("utf-8"))
    n = head.get("code_bytes")
    if type(n) is not int or not 0 <= n <= MAX_WARM_CODE:
        return None
    while len(buf) < n:
        data = _read(fd, max(65536, n - len(buf)))
        if not data:
            return None
        buf += data
    return head, buf[:n], buf[n:]


def warm_start(opts):
    """A warm run: load ahead, then wait for the program on the control pipe.

    The header names the program's sandbox path, the language, its
    arguments and the CPU seconds the program gets from now on. Returns
    (_Warm, control bytes read past the program), or None to end quietly.
    """
    baseline = set(_modules)
    warm = _Warm()
    _preload(opts, warm)
    if opts["frames"] is not None:
        # The host keeps this sandbox as ready from now on.
        ready = b'{"type":"ready"}'
        try:
            _write(opts["frames"], len(ready).to_bytes(4, "big") + ready)
        except OSError:
            pass
    try:
        got = _read_go(opts["control"])
    except (OSError, ValueError, UnicodeDecodeError):
        got = None
    if got is None:
        return None
    head, code, rest = got
    program = head.get("program")
    if (not isinstance(program, str) or not program.endswith(".py")
            or os.path.basename(program).startswith(".") or "\x00" in program):
        return None
    folder = os.path.dirname(program)
    fd = os.open(program, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(code)
        while view:
            view = view[_write(fd, view):]
    finally:
        _close(fd)
    opts["program"] = program
    opts["lang"] = head.get("lang") if head.get("lang") in ("zh", "en") else opts["lang"]
    args = head.get("args") or []
    opts["args"] = [a for a in args if isinstance(a, str)]
    replay = head.get("replay_steps")
    if type(replay) is int and replay >= 0:
        opts["replay_steps"] = replay
    _limit_cpu(head.get("cpu"))
    # A file of the program's folder that has the name of a module loaded
    # ahead is found first by the program's import, as in a cold run.
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    for name in names:
        base = name[:-3] if name.endswith(".py") else name
        if base in _modules and base not in baseline:
            del _modules[base]
    return warm, rest


def _limit_cpu(seconds):
    """From now on the process gets seconds of CPU (RLIMIT_CPU, lowered only)."""
    if not isinstance(seconds, (int, float)) or seconds <= 0:
        return
    try:
        resource = _late_import("resource")
        ru = resource.getrusage(resource.RUSAGE_SELF)
        soft = int(ru.ru_utime + ru.ru_stime + seconds) + 1
        cur_soft, cur_hard = resource.getrlimit(resource.RLIMIT_CPU)
        if cur_hard == resource.RLIM_INFINITY or soft + 1 <= cur_hard:
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    except (ImportError, OSError, ValueError):
        pass


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
        got = warm_start(opts)
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
                _for_checks(runner))
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

