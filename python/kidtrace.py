"""Step-by-step runs (docs/contracts.md §5): a sys.settrace tracer for the
child's own file.

Each line, call, return and exception of the child's file becomes one step:
where it is (line, function, call depth), the frame's names as short text,
and how far the output and the drawing had got. Steps go to the host in
`trace` frames (docs/runner-protocol.md), a chunk at a time, bounded in
number and bytes; past a bound tracing stops and the program runs on at
full speed.

The tracer runs inside the child's program, so it must never change what
the program does, and the program must never get to run its code inside
the tracer: values are written here, never by a repr() of the program's
(see Shortener), and the builtins the tracer calls are its own copy.
The work per call is O(1): the stack depth of a frame is its parent's plus
one, kept for the frames that are running.
"""

import builtins as _builtins

# The tracer's own builtins, taken before the program runs: a program that
# replaces builtins.len or repr does not reach the tracer through them.
__builtins__ = dict(_builtins.__dict__)

import sys  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402
from _collections import deque as _deque  # noqa: E402  (C: no Python code loads)

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
RECURSION_ROOM = 100          # frames the tracer may need above the program's deepest
# The types whose values are left out of vars (§5): modules, functions,
# classes; by id, as a set of types would ask their metaclass for a hash.
_SKIP = frozenset(map(id, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                           types.MethodType, types.BuiltinMethodType, types.MethodWrapperType,
                           types.WrapperDescriptorType, types.MethodDescriptorType,
                           types.ClassMethodDescriptorType, type)))
# Values whose text depends only on the value: kept per name while the name holds the same object.
_SAME = frozenset(map(id, (int, float, bool, type(None), str, complex, bytes, range)))
# The containers written as themselves; their subclasses get their name in front.
_BASES = frozenset(map(id, (list, dict, set, frozenset)))
_getrecursionlimit = sys.getrecursionlimit
_setrecursionlimit = sys.setrecursionlimit
_type_name = type.__dict__["__name__"].__get__
_dict_items = dict.items
_exc_args = BaseException.__dict__["args"].__get__
_deque_maxlen = _deque.__dict__["maxlen"].__get__
_clock = time.perf_counter
_ELLIPSIS = "\u2026"


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
    """repr() of values, cut to VALUE_CHARS, written here without running any
    of the program's code.

    The tracer is called on every step of the program, from inside the
    program, so a repr() of the program's (or one a library defined in
    Python) could do anything there, unseen: loop forever and catch every
    exception sent to end it, turn off any timer set to stop it. So no such
    repr() runs: the builtin scalars are written by their own repr() (C
    code that calls no other object's), the builtin containers, their
    subclasses, deques and exceptions from their items and args, only as far
    as the cut shows (a list of a million items costs what its first few
    do), and every other value as <Name object>.
    """

    def text(self, o):
        try:
            return cut(self.part(o, VALUE_CHARS + 1, set()))
        except KeyboardInterrupt:
            raise
        except Exception:
            return cut(self.plain(type(o)))

    def plain(self, t):
        try:
            name = _type_name(t)
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
        if t is bytes or t is bytearray:
            return repr(o[:room])
        # By the type's MRO (issubclass() of a builtin base reads it in C)
        # and the bases' own methods, never the value's: those can be the
        # program's code.
        if issubclass(t, list):
            text = self.items(list.__iter__(o), o, room, seen, "[", "]", False)
        elif issubclass(t, tuple):
            if t is not tuple:
                # A named one (turtle's Vec2D, a namedtuple) as Name(a, b).
                name = _type_name(t) + "("
                return self.items(tuple.__iter__(o), o, room, seen, name, ")", False)
            text = self.items(tuple.__iter__(o), o, room, seen, "(",
                              ",)" if tuple.__len__(o) == 1 else ")", False)
        elif issubclass(t, dict):
            text = self.items(_dict_items(o), o, room, seen, "{", "}", True)
        elif issubclass(t, set) or issubclass(t, frozenset):
            base = set if issubclass(t, set) else frozenset
            if not base.__len__(o):
                text = base.__name__ + "()"
            elif base is set:
                text = self.items(set.__iter__(o), o, room, seen, "{", "}", False)
            else:
                text = self.items(frozenset.__iter__(o), o, room - 10, seen, "frozenset({", "})", False)
        elif issubclass(t, _deque):
            maxlen = _deque_maxlen(o)
            text = self.items(_deque.__iter__(o), o, room, seen, "deque([",
                              "])" if maxlen is None else "], maxlen=%d)" % maxlen, False)
            return text if t is _deque else _type_name(t) + "(" + text + ")"
        elif issubclass(t, BaseException):
            args = _exc_args(o)
            if type(args) is not tuple:
                return self.plain(t)
            name = _type_name(t)
            return self.items(tuple.__iter__(args), args, room, seen, name + "(", ")", False)
        else:
            return self.plain(t)
        if id(t) in _BASES:
            return text
        # A subclass (OrderedDict, Counter, the program's own): its name and contents.
        return _type_name(t) + "(" + text + ")"

    def items(self, it, o, room, seen, open_, close, mapping):
        key = id(o)
        if key in seen:
            return "{...}" if mapping else "[...]"
        seen.add(key)
        parts = [open_]
        n = len(open_)
        for i, v in enumerate(it):
            if n > room:
                break
            if i:
                parts.append(", ")
                n += 2
            if mapping:
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


class Tracer(object):
    """Records the steps of the frames of one file and sends them in trace frames.

    filename: the child's code objects' co_filename. frames: the frame
    channel (send_bytes, send_text, and .sent, its bytes so far). out: the
    Counted stdout. draw_steps: () -> the drawing's step list once there is
    one, else None. stopping: () -> True once Stop was pressed (unused: no
    program code runs in the tracer for Stop to end). on_cut: (n) -> None,
    told once when a bound ends the recording after n steps.

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
        self.short = Shortener()
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
        _setrecursionlimit(limit + RECURSION_ROOM)
        self.settrace(self.call)

    def too_deep(self, stack):
        """Whether a frame stack frames deep is near the program's recursion
        limit (and tracing must stop)."""
        limit = _getrecursionlimit()
        if limit != self.limit + RECURSION_ROOM:
            # The program set its own limit: the room goes on top of it.
            self.limit = limit
            _setrecursionlimit(limit + RECURSION_ROOM)
        return stack >= self.limit - 4

    def finish(self):
        """After the program: send what is left."""
        self.flush()
        self.forget()

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
        # The stack depth (the frame and all below it) of the running frames
        # whose depth was asked: the file's, and the others found below them.
        # Each frame leaves it on its return, so a new frame's depth is its
        # parent's plus one, looked up, never counted down the stack again.
        stacks = {}
        walked = 0                    # frames walk() went through (for tests)
        skip = _SKIP
        same = _SAME
        jstr = _jstr
        clock = _clock
        short = self.short.text
        seq = str.__eq__              # a str subclass's own __eq__ is the program's code
        getlimit = _getrecursionlimit
        events = {"line": "l", "call": "c", "return": "r", "exception": "e"}
        self_ = self

        def find_draw():
            try:
                return draw_steps()
            except Exception:
                return None

        def head_of(name):
            """'"name":' for a name vars shows, "" for one it leaves out, by the name alone."""
            if not name.isidentifier() or name[0] == "_" or len(name) > NAME_CHARS:
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
            if id(t) in same and (t is not str or len(v) <= 1000):
                if len(cache) > 4096:
                    cache.clear()
                cache[name] = (v, p)
            return p

        def vars_of(frame):
            """The frame's names as §5 shows them: a JSON object's text, without its braces.

            A class body's names may be the program's own mapping: only a
            dict's are read, by dict's methods."""
            local_names = frame.f_locals
            if type(local_names) is not dict and not issubclass(type(local_names), dict):
                return ""
            out = []
            for name, v in _dict_items(local_names):
                if type(name) is not str:
                    continue          # its hash could be the program's code
                head = names.get(name)
                if not head:
                    if head is not None or not head_of(name):
                        continue
                    head = names[name]
                t = type(v)
                if t is int and -10**15 < v < 10**15:
                    out.append(f'{head}"{v}"')
                elif id(t) in skip or issubclass(t, type):
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

        def other(frame, event, arg):
            """The trace function of a frame not the file's in stacks: it leaves on return."""
            if event == "return":
                stacks.pop(frame, None)
                return None
            return other

        def walk(frame):
            """The stack depth of frame, not in stacks: counted down to one
            that is, each frame on the way put in stacks (and given other,
            no line events, to hear of its return), so no frame is counted
            twice while it runs."""
            nonlocal walked
            chain = []
            below = 0
            while frame is not None:
                got = stacks.get(frame)
                if got is not None:
                    below = got
                    break
                chain.append(frame)
                frame = frame.f_back
            walked += len(chain)
            for f in reversed(chain):
                below += 1
                ft = f.f_trace
                if ft is None or ft is other:
                    f.f_trace_lines = False
                    f.f_trace = other
                    stacks[f] = below
                elif ft is local:
                    stacks[f] = below
            return below

        def call(frame, event, arg):
            """The global trace function: picks the frames of the file.

            The top level's own call and return are not steps: the program
            starts at its first line and ends after its last.
            """
            nonlocal depth, dirty
            code = frame.f_code
            fn = code.co_filename
            if fn is not filename and seq(filename, fn) is not True:
                dirty = True
                return None
            back = frame.f_back
            stack = stacks.get(back) if back is not None else 0
            if stack is None:
                stack = walk(back)
            stack += 1
            if stack >= self_.limit - 4 or getlimit() != self_.limit + RECURSION_ROOM:
                if self_.too_deep(stack):
                    stop()
                    _setrecursionlimit(self_.limit)
                    return None
            if len(stacks) > self_.limit + 2 * RECURSION_ROOM:
                # More frames than can run: the program unset its frames'
                # trace functions, so their returns went unseen.
                stop()
                return None
            stacks[frame] = stack
            depth = d = depth + 1
            if d or seq("<module>", code.co_name) is not True:
                record(frame, "call", arg, d)
            return local

        def local(frame, event, arg):
            """The frame's own trace function.

            A line step, by far the most common, is recorded right here:
            this is record() for the step most loops make.
            """
            nonlocal depth, n, size, since, draw, dirty
            d = depth
            if event != "line":
                if event == "return":
                    depth = d - 1
                    stacks.pop(frame, None)
                    if d or seq("<module>", frame.f_code.co_name) is not True:
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
            try:
                vs = vars_of(frame)
            except KeyboardInterrupt:
                raise
            except Exception:
                vs = ""           # never the program's error: the step without its names
            text = f'["l",{frame.f_lineno or 0},{func},{d},{{{vs}}},{out.chars},{0 if draw is None else len(draw)}]'
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
            stacks.clear()
            flush()
            self_.n = n
            self_.frames.send_text('{"type":"trace","steps":[["t",%d]]}' % n)
            self_.on_cut(n)

        def count():
            return n

        def frames_walked():
            """How many frames the depth was counted through, in all."""
            return walked

        self.call = call
        self.flush = flush
        self.count = count
        self.forget = stacks.clear
        self.frames_walked = frames_walked


def exc_name(arg):
    """The type name of a trace function's exception argument."""
    try:
        return _type_name(arg[0])[:NAME_CHARS]
    except Exception:
        return "Exception"
