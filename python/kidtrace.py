"""Step-by-step runs (docs/contracts.md §5): a sys.settrace tracer for the
child's own file.

Each line, call, return and exception of the child's file becomes one step:
where it is (line, function, call depth), the frame's names as short text,
and how far the output and the drawing had got. Steps go to the host in
`trace` frames (docs/runner-protocol.md), a chunk at a time, bounded in
number and bytes; past a bound tracing stops and the program runs on at
full speed.

The tracer runs inside the child's program, so it must never change what
the program does: it reads values without calling the program's code,
except a repr() the program defined, which runs guarded (its output
swallowed, its errors caught, its time bounded).
"""

import _signal
import sys
import time
import types

try:
    from _json import encode_basestring as _jstr   # C: as json.dumps(ensure_ascii=False) writes a str
except ImportError:   # pragma: no cover - every CPython has it
    from kidrunner_frames import _jstr

MAX_STEPS = 100000            # steps recorded at most (§5)
VALUE_CHARS = 80              # a value's text is cut to this many characters
NAME_CHARS = 100              # a longer name is left out
MAX_VARS = 64                 # names shown per step at most
TRACE_BUDGET = 16 << 20       # bytes of trace frames at most
CHUNK_BYTES = 256 << 10       # a trace frame is sent once its steps reach this
FLUSH_SECONDS = 0.1           # ... or once its first step is this old
FRAMES_ROOM = 48 << 20        # the host reads 64 MiB of frames in all: leave the result its room
REPR_SECONDS = 0.02           # one repr() of the program's own
REPR_TOTAL = 1.0              # all of them in one run
RECURSION_ROOM = 100          # frames the tracer may need above the program's deepest
# The types whose values are left out of vars (§5): modules, functions, classes.
_SKIP = frozenset((types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                   types.MethodType, types.BuiltinMethodType, types.MethodWrapperType,
                   types.WrapperDescriptorType, types.MethodDescriptorType,
                   types.ClassMethodDescriptorType, type))
# Values whose text depends only on the value: kept per name while the name holds the same object.
_SAME = frozenset((int, float, bool, type(None), str, complex, bytes, range))
_getrecursionlimit = sys.getrecursionlimit
_setrecursionlimit = sys.setrecursionlimit
_object_repr = object.__dict__["__repr__"]
_mro = type.__dict__["__mro__"].__get__
_type_dict = type.__dict__["__dict__"].__get__
_clock = time.perf_counter
_ELLIPSIS = "\u2026"


def _stack_depth(frame):
    n = 0
    while frame is not None:
        n += 1
        frame = frame.f_back
    return n


class _Timeout(BaseException):
    """A guarded repr() ran out of time."""


class _Sink(object):
    """Where a guarded repr()'s prints go."""

    def write(self, s):
        return len(s) if isinstance(s, str) else 0

    def flush(self):
        pass


_SINK = _Sink()


class Counted(object):
    """Wraps the program's stdout and counts the characters written to it (a step's `out`)."""

    def __init__(self, stream):
        self._stream = stream
        self.chars = 0

    def write(self, s):
        n = self._stream.write(s)
        if type(s) is str:
            self.chars += len(s)
        return n

    def __getattr__(self, name):
        return getattr(self._stream, name)


def cut(s):
    """s in at most VALUE_CHARS characters, an ellipsis ending one that was longer."""
    if len(s) <= VALUE_CHARS:
        return s
    return s[:VALUE_CHARS - 1] + _ELLIPSIS


class Shortener(object):
    """repr() of values, cut to VALUE_CHARS, without running the program's code
    where that can be helped.

    The builtin containers are written here, only as far as the cut shows,
    so a list of a million items costs what its first few do; a value whose
    repr() is Python's default shows as <Name object>. Any other repr() is
    the program's (or a library's) and runs guarded; one that fails or runs
    out of time shows as <Name object>, and its type is not asked again.
    """

    def __init__(self, stopping):
        self.stopping = stopping      # () -> True once Stop was pressed
        self.bad = set()              # types whose repr() failed or was too slow
        self.spent = 0.0              # seconds spent in guarded repr() calls
        self.in_guard = False

    def text(self, o):
        try:
            return cut(self.part(o, VALUE_CHARS + 1, set()))
        except KeyboardInterrupt:
            raise
        except Exception:
            return cut(self.plain(type(o)))

    def plain(self, t):
        try:
            name = type.__dict__["__name__"].__get__(t)
        except Exception:
            name = "?"
        return "<%s object>" % name

    def part(self, o, room, seen):
        """repr(o), or a prefix of it longer than room characters."""
        t = type(o)
        if t is int:
            if o.bit_length() > 12000:
                return "<int with about %d digits>" % int(o.bit_length() * 0.30103)
            return int.__repr__(o)
        if t is str:
            if len(o) <= room:
                return str.__repr__(o)
            head = str.__repr__(o[:room])
            # repr() picks its quotes by the whole string.
            if head[0] == "'" and "'" in o and '"' not in o:
                head = '"' + head[1:-1] + '"'
            return head
        if t is float or t is bool or o is None or t is complex or t is range:
            return repr(o)
        if t is list:
            return self.items(o, room, seen, "[", "]", None)
        if t is tuple:
            return self.items(o, room, seen, "(", ",)" if len(o) == 1 else ")", None)
        if t is dict:
            return self.items(o, room, seen, "{", "}", o)
        if t is set or t is frozenset:
            if not o:
                return "set()" if t is set else "frozenset()"
            if t is set:
                return self.items(o, room, seen, "{", "}", None)
            return self.items(o, room - 10, seen, "frozenset({", "})", None)
        if t is bytes or t is bytearray:
            return repr(o[:room])
        return self.guarded(o, t)

    def items(self, o, room, seen, open_, close, mapping):
        key = id(o)
        if key in seen:
            return "{...}" if mapping is not None else "[...]"
        seen.add(key)
        parts = [open_]
        n = len(open_)
        for i, v in enumerate(mapping.items() if mapping is not None else o):
            if n > room:
                break
            if i:
                parts.append(", ")
                n += 2
            if mapping is not None:
                s = self.part(v[0], room - n, seen) + ": "
                s += self.part(v[1], room - n - len(s), seen)
            else:
                s = self.part(v, room - n, seen)
            parts.append(s)
            n += len(s)
        else:
            parts.append(close)
        seen.discard(key)
        return "".join(parts)

    def guarded(self, o, t):
        # Looked up as the interpreter does, so no attribute code of the
        # program's runs here.
        r = None
        try:
            for k in _mro(t):
                d = _type_dict(k)
                if "__repr__" in d:
                    r = d["__repr__"]
                    break
        except Exception:
            return self.plain(t)
        if r is _object_repr:
            return self.plain(t)
        if t in self.bad or self.spent > REPR_TOTAL:
            return self.plain(t)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = _SINK
        armed = self.arm()
        start = _clock()
        s = None
        self.in_guard = True
        try:
            s = repr(o)
        except KeyboardInterrupt:
            if self.stopping():
                raise
        except BaseException:
            pass
        finally:
            self.in_guard = False
            if armed:
                self.disarm()
            sys.stdout, sys.stderr = saved
            self.spent += _clock() - start
        if type(s) is not str:
            self.bad.add(t)
            return self.plain(t)
        return s

    # The time bound: SIGALRM, only while the program has no use for it.
    def arm(self):
        try:
            if _signal.getitimer(_signal.ITIMER_REAL) != (0.0, 0.0):
                return False
            old = _signal.signal(_signal.SIGALRM, self.alarm)
            if old is not _signal.SIG_DFL and old is not None:
                _signal.signal(_signal.SIGALRM, old)
                return False
            _signal.setitimer(_signal.ITIMER_REAL, REPR_SECONDS)
            return True
        except (ValueError, OSError, AttributeError):
            return False

    def disarm(self):
        try:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            _signal.signal(_signal.SIGALRM, _signal.SIG_DFL)
        except (ValueError, OSError):
            pass

    def alarm(self, signum, frame):
        if self.in_guard:
            raise _Timeout()


class Tracer(object):
    """Records the steps of the frames of one file and sends them in trace frames.

    filename: the child's code objects' co_filename. frames: the frame
    channel (send_bytes, send_text, and .sent, its bytes so far). out: the
    Counted stdout. draw_steps: () -> the drawing's step list once there is
    one, else None. stopping: () -> True once Stop was pressed. on_cut:
    (n) -> None, told once when a bound ends the recording after n steps.

    The work per step is a few microseconds (a 100,000-line loop is a
    100,000-step recording), so the trace functions are closures over
    their state, with the common values (ints, short strings) written
    inline; everything else goes through the Shortener.
    """

    def __init__(self, filename, frames, out, draw_steps, stopping, on_cut,
                 max_steps=MAX_STEPS, settrace=sys.settrace):
        self.frames = frames
        self.on_cut = on_cut
        self.settrace = settrace
        self.short = Shortener(stopping)
        self.sent = 0                 # bytes of trace frames sent
        self.cut = False
        self.n = 0                    # steps recorded, once the recording is over
        self._build(filename, out, draw_steps, max_steps)

    def start(self):
        """Trace from the next frame of the file on: call just before it runs.

        The tracer's own calls need room on the stack, so the recursion
        limit gets RECURSION_ROOM more while it traces; when the program
        comes near the limit it had, tracing stops and the limit is put
        back, so a runaway recursion fails where it would untraced.
        (The runner puts the limit back after the program anyway.)
        """
        limit = _getrecursionlimit()
        self.limit = limit
        self.near = max(0, limit - _stack_depth(sys._getframe()) - 2 * RECURSION_ROOM)
        _setrecursionlimit(limit + RECURSION_ROOM)
        self.settrace(self.call)

    def too_deep(self, frame):
        """Whether frame is near the program's recursion limit (and tracing must stop)."""
        limit = _getrecursionlimit()
        if limit != self.limit + RECURSION_ROOM:
            # The program set its own limit: the room goes on top of it.
            self.limit = limit
            _setrecursionlimit(limit + RECURSION_ROOM)
        return _stack_depth(frame) >= self.limit - 4

    def finish(self):
        """After the program: send what is left."""
        self.flush()

    def _build(self, filename, out, draw_steps, max_steps):
        # The state of the recording, in the closures' cells.
        n = 0                         # steps recorded
        depth = -1                    # frames of the file running, less one
        buf = []                      # steps' JSON texts not sent yet
        size = 0                      # their characters
        since = 0.0                   # when buf got its first step
        draw = None                   # the drawing's step list, once there is one
        dirty = True                  # code other than the file's ran since draw was looked for
        funcs = {}                    # code object -> its name as JSON
        cache = {}                    # name -> (value, '"name":"text"' or None) for values that cannot change
        names = {}                    # name -> '"name":' for a name shown, "" for one left out
        skip = _SKIP
        same = _SAME
        jstr = _jstr
        clock = _clock
        short = self.short.text
        events = {"line": "l", "call": "c", "return": "r", "exception": "e"}
        self_ = self

        def find_draw():
            try:
                return draw_steps()
            except Exception:
                return None

        def head_of(name):
            """'"name":' for a name vars shows, "" for one it leaves out, by the name alone."""
            if (type(name) is not str or not name.isidentifier() or name[0] == "_"
                    or len(name) > NAME_CHARS):
                head = ""
            else:
                head = jstr(name) + ":"
            if len(names) > 4096:
                names.clear()
            names[name] = head
            return head

        def value_pair(head, name, v, t):
            """'"name":"text"' for one of vars, kept for the next step when
            the value cannot change."""
            p = head + jstr(short(v))
            if t in same and (t is not str or len(v) <= 1000):
                if len(cache) > 4096:
                    cache.clear()
                cache[name] = (v, p)
            return p

        def vars_of(frame):
            """The frame's names as §5 shows them: a JSON object's text, without its braces."""
            out = []
            for name, v in frame.f_locals.items():
                head = names.get(name)
                if not head:
                    if head is not None or not head_of(name):
                        continue
                    head = names[name]
                t = type(v)
                if t is int and -10**15 < v < 10**15:
                    out.append(f'{head}"{v}"')
                elif t in skip or issubclass(t, type):
                    continue
                else:
                    got = cache.get(name)
                    out.append(got[1] if got is not None and got[0] is v else value_pair(head, name, v, t))
                if len(out) >= MAX_VARS:
                    break
            return ",".join(out)

        def record(frame, event, arg, d):
            nonlocal n, size, since, draw, dirty
            if n >= max_steps:
                stop()
                return
            code = frame.f_code
            func = funcs.get(code)
            if func is None:
                func = funcs[code] = jstr(code.co_name)
            if dirty and draw is None:
                # Only the turtle's code makes a drawing, and it runs
                # between the steps: look again only after other code ran.
                dirty = False
                draw = find_draw()
            try:
                vs = vars_of(frame)
            except KeyboardInterrupt:
                raise
            except Exception:
                vs = ""           # never the program's error: the step without its names
            if event == "line":
                text = '["l",%d,%s,%d,{%s},%d,%d]' % (
                    frame.f_lineno or 0, func, d, vs, out.chars, len(draw) if draw is not None else 0)
            else:
                extra = ""
                if event == "return":
                    try:
                        extra = "," + jstr(short(arg))
                    except KeyboardInterrupt:
                        raise
                    except Exception:
                        extra = ',"?"'
                elif event == "exception":
                    extra = "," + jstr(exc_name(arg))
                text = '["%s",%d,%s,%d,{%s},%d,%d%s]' % (
                    events[event], frame.f_lineno or 0, func, d, vs, out.chars,
                    len(draw) if draw is not None else 0, extra)
            if not buf:
                since = clock()
            buf.append(text)
            n += 1
            size += len(text) + 1
            if size >= CHUNK_BYTES or not n & 15 and clock() - since >= FLUSH_SECONDS:
                flush()

        def call(frame, event, arg):
            """The global trace function: picks the frames of the file.

            The top level's own call and return are not steps: the program
            starts at its first line and ends after its last.
            """
            nonlocal depth, dirty
            code = frame.f_code
            if code.co_filename != filename:
                dirty = True
                return None
            depth = d = depth + 1
            if d > self_.near and self_.too_deep(frame):
                stop()
                _setrecursionlimit(self_.limit)
                return None
            if d or code.co_name != "<module>":
                record(frame, "call", arg, d)
            return local

        def local(frame, event, arg):
            """The frame's own trace function.

            A line step, by far the most common, is recorded right here:
            this is record() and vars_of() for the values most loops hold.
            """
            nonlocal depth, n, size, since, draw, dirty
            d = depth
            if event != "line":
                if event == "return":
                    depth = d - 1
                    if d or frame.f_code.co_name != "<module>":
                        record(frame, event, arg, d)
                    return None
                record(frame, event, arg, d)
                return local
            if n >= max_steps:
                stop()
                return None
            code = frame.f_code
            func = funcs.get(code)
            if func is None:
                func = funcs[code] = jstr(code.co_name)
            if dirty and draw is None:
                dirty = False
                draw = find_draw()
            vs = []
            try:
                for name, v in frame.f_locals.items():
                    head = names.get(name)
                    if not head:
                        if head is not None or not head_of(name):
                            continue
                        head = names[name]
                    t = type(v)
                    if t is int and -10**15 < v < 10**15:
                        vs.append(f'{head}"{v}"')
                    elif t in skip or issubclass(t, type):
                        continue
                    else:
                        got = cache.get(name)
                        vs.append(got[1] if got is not None and got[0] is v else value_pair(head, name, v, t))
                    if len(vs) >= MAX_VARS:
                        break
            except KeyboardInterrupt:
                raise
            except Exception:
                vs = []           # never the program's error: the step without its names
            text = f'["l",{frame.f_lineno or 0},{func},{d},{{{",".join(vs)}}},{out.chars},{0 if draw is None else len(draw)}]'
            if not buf:
                since = clock()
            buf.append(text)
            n += 1
            size += len(text) + 1
            if size >= CHUNK_BYTES or not n & 15 and clock() - since >= FLUSH_SECONDS:
                flush()
            return local

        def flush():
            nonlocal buf, size, n
            if not buf:
                return
            steps, buf, size = buf, [], 0
            data = ('{"type":"trace","steps":[' + ",".join(steps) + "]}").encode("utf-8", "replace")
            frames = self_.frames
            if (self_.sent + len(data) > TRACE_BUDGET
                    or frames.sent + len(data) > FRAMES_ROOM):
                # Over the bound: these steps are dropped and the
                # recording ends before them.
                n -= len(steps)
                stop()
                return
            self_.sent += len(data)
            frames.send_bytes(data)

        def stop():
            """Stop tracing (the program runs on untraced) and send the truncated record."""
            if self_.cut:
                return
            self_.cut = True
            self_.settrace(None)
            flush()
            self_.n = n
            self_.frames.send_text('{"type":"trace","steps":[["t",%d]]}' % n)
            self_.on_cut(n)

        def count():
            return n

        self.call = call
        self.flush = flush
        self.count = count


def exc_name(arg):
    """The type name of a trace function's exception argument."""
    try:
        return type.__dict__["__name__"].__get__(arg[0])[:NAME_CHARS]
    except Exception:
        return "Exception"
