"""A turtle module that records drawings as plain data instead of opening a window.

Geometry, return values and errors follow CPython's Lib/turtle.py (Vec2D,
TNavigator, TPen, RawTurtle), so a program prints the same positions,
headings and colours here as with the real module. Nothing is drawn while
the program runs: every visible change is appended to a step list (see
docs/runner-protocol.md, "Drawing model") that kidsvg renders afterwards.
"""

import math
import sys
from copy import deepcopy

_radians, _cos, _sin = math.radians, math.cos, math.sin

# Programs see this module as "turtle" (class names in tracebacks and reprs).
__name__ = "turtle"

from kidcolors import COLORS as _COLOR_NAMES

__all__ = ['ScrolledCanvas', 'TurtleScreen', 'Screen', 'RawTurtle', 'Turtle',
           'RawPen', 'Pen', 'Shape', 'Vec2D',
           'addshape', 'bgcolor', 'bgpic', 'bye', 'clearscreen', 'colormode',
           'delay', 'exitonclick', 'getcanvas', 'getshapes', 'listen',
           'mainloop', 'mode', 'numinput', 'onkey', 'onkeypress',
           'onkeyrelease', 'onscreenclick', 'ontimer', 'register_shape',
           'resetscreen', 'screensize', 'setup', 'setworldcoordinates',
           'textinput', 'title', 'tracer', 'turtles', 'update',
           'window_height', 'window_width',
           'back', 'backward', 'begin_fill', 'begin_poly', 'bk', 'circle',
           'clear', 'clearstamp', 'clearstamps', 'clone', 'color', 'degrees',
           'distance', 'dot', 'down', 'end_fill', 'end_poly', 'fd',
           'fillcolor', 'filling', 'forward', 'get_poly', 'getpen',
           'getscreen', 'get_shapepoly', 'getturtle', 'goto', 'heading',
           'hideturtle', 'home', 'ht', 'isdown', 'isvisible', 'left', 'lt',
           'onclick', 'ondrag', 'onrelease', 'pd', 'pen', 'pencolor',
           'pendown', 'pensize', 'penup', 'pos', 'position', 'pu', 'radians',
           'right', 'reset', 'resizemode', 'rt', 'seth', 'setheading',
           'setpos', 'setposition', 'settiltangle', 'setundobuffer', 'setx',
           'sety', 'shape', 'shapesize', 'shapetransform', 'shearfactor',
           'showturtle', 'speed', 'st', 'stamp', 'tilt', 'tiltangle',
           'towards', 'turtlesize', 'undo', 'undobufferentries', 'up',
           'width', 'write', 'xcor', 'ycor',
           'write_docstringdict', 'done', 'Terminator']

# The virtual display the window sizes are computed against (the size of a
# default Xvfb screen, so window_width() matches a test run of the real module).
_DISPLAY = (1280, 1024)
# Tk under X at 96 dpi: points to pixels.
_PX_PER_PT = 4.0 / 3.0

_CFG = {"width": 0.5, "height": 0.75, "canvwidth": 400, "canvheight": 300,
        "mode": "standard", "colormode": 1.0, "delay": 10,
        "undobuffersize": 1000, "shape": "classic", "pencolor": "black",
        "fillcolor": "black", "resizemode": "noresize", "visible": True,
        "title": "Python Turtle Graphics"}

# Step field names, by kind; a recorded step is a tuple (kind, *fields).
STEP_FIELDS = {
    "move": ("t", "s", "x1", "y1", "x2", "y2", "c", "w"),
    "turn": ("t", "s", "h"),
    "fill": ("t", "s", "c", "pts", "z"),
    "dot": ("t", "s", "x", "y", "d", "c"),
    "text": ("t", "s", "x", "y", "text", "align", "font", "c"),
    "stamp": ("t", "s", "id", "x", "y", "h", "shape", "c", "fc", "parts"),
    "unstamp": ("t", "s", "id"),
    "clear": ("t", "s"),
    "bg": ("s", "c"),
    "look": ("t", "s", "shape", "visible", "size", "parts"),
    "del": ("t", "s", "i"),
}

_TEXTS = {
    "steps": {
        "zh": "✋ 画得太多了：已经记录了 {n} 步，后面的就不再画出来了（程序还会继续运行）。",
        "en": "✋ That is a lot of drawing: {n} steps were recorded, later ones are not drawn (the program keeps running).",
    },
    "events": {
        "zh": "ℹ️ 这个程序会等键盘、鼠标或定时器（{name} 等）。在课堂窗口里运行它就能玩（也可以用 kidcoder run --events）。",
        "en": "ℹ️ This program waits for keys, clicks or timers ({name} and friends). Run it in the classroom window to play it (or with kidcoder run --events).",
    },
    "number": {
        "zh": "请输入一个数字。",
        "en": "Please type a number.",
    },
    "range": {
        "zh": "请输入 {lo} 到 {hi} 之间的数字。",
        "en": "Please type a number from {lo} to {hi}.",
    },
    "canvas": {
        "zh": "这里没有 tkinter 画布：请用 turtle.Screen() 和 turtle.Turtle()。",
        "en": "There is no tkinter canvas here: use turtle.Screen() and turtle.Turtle().",
    },
    "timers": {
        "zh": "定时器太多啦：已经有 {n} 个 ontimer 在排队等着。是不是每次都设了不止一个新的定时器？",
        "en": "Too many timers: {n} ontimer calls are already waiting. Does each timer start more than one new timer?",
    },
}


class _Config:
    lang = "en"
    max_steps = 1000000
    notices = []
    warned_events = False
    messages = None


_KEYS = {"steps": "notice.steps", "events": "notice.events", "number": "turtle.number",
         "range": "turtle.range", "canvas": "turtle.canvas", "timers": "turtle.timers"}

# The live run (kidlive.Live) when the program runs live, else None.
_LIVE = None


def configure(lang=None, max_steps=None, notices=None, messages=None, live=None):
    """Set the language of messages, the step bound, where notices go and the live run.

    messages: the shared messages.json table, which wins over the built-in
    texts, or a function returning it: called only when a text is first
    needed, so a program that never hits a notice never loads the table.
    """
    if messages is not None:
        if callable(messages):
            _Config.messages = messages
        else:
            _use_messages(messages)
    if lang is not None:
        _Config.lang = lang
    if max_steps is not None:
        _Config.max_steps = max_steps
    if notices is not None:
        _Config.notices = notices
    if live is not None:
        global _LIVE
        if _LIVE is None:
            _pace_moves_and_turns()
        _LIVE = live
        live.on_close = _window_closed


def _use_messages(messages):
    for short, key in _KEYS.items():
        if key in messages:
            _TEXTS[short] = messages[key]


def _text(key, **kw):
    load = _Config.messages
    if load is not None:
        _Config.messages = None
        try:
            _use_messages(load())
        except Exception:
            pass    # the built-in texts say the same
    return _TEXTS[key][_Config.lang if _Config.lang in ("zh", "en") else "en"].format(**kw)


def _event_notice(name):
    if _Config.warned_events:
        return
    _Config.warned_events = True
    msg = _text("events", name=name)
    _Config.notices.append(msg)
    try:
        sys.stderr.write(msg + "\n")
        sys.stderr.flush()
    except Exception:
        pass


class Terminator(Exception):
    """Raised by the real module when the window was closed; kept for programs that catch it."""


class TurtleGraphicsError(Exception):
    """Some TurtleGraphics Error"""


class Vec2D(tuple):
    """A 2 dimensional vector, as in CPython's turtle module."""

    def __new__(cls, x, y):
        return tuple.__new__(cls, (x, y))

    def __add__(self, other):
        return Vec2D(self[0] + other[0], self[1] + other[1])

    def __mul__(self, other):
        if isinstance(other, Vec2D):
            return self[0] * other[0] + self[1] * other[1]
        return Vec2D(self[0] * other, self[1] * other)

    def __rmul__(self, other):
        if isinstance(other, int) or isinstance(other, float):
            return Vec2D(self[0] * other, self[1] * other)
        return NotImplemented

    def __sub__(self, other):
        return Vec2D(self[0] - other[0], self[1] - other[1])

    def __neg__(self):
        return Vec2D(-self[0], -self[1])

    def __abs__(self):
        return math.hypot(*self)

    def rotate(self, angle):
        """rotate self counterclockwise by angle"""
        perp = Vec2D(-self[1], self[0])
        angle = math.radians(angle)
        c, s = math.cos(angle), math.sin(angle)
        return Vec2D(self[0] * c + perp[0] * s, self[1] * c + perp[1] * s)

    def __getnewargs__(self):
        return (self[0], self[1])

    def __repr__(self):
        return "(%.2f,%.2f)" % self


# Vec2D(x, y) without the Python-level __new__: the same object, built faster.
_tuple_new = tuple.__new__


def _vec(x, y):
    return _tuple_new(Vec2D, (x, y))


class Shape(object):
    """A turtle shape: 'polygon', 'image' or 'compound'."""

    def __init__(self, type_, data=None):
        self._type = type_
        if type_ == "polygon":
            if isinstance(data, list):
                data = tuple(data)
        elif type_ == "image":
            pass
        elif type_ == "compound":
            data = []
        else:
            raise TurtleGraphicsError("There is no shape type %s" % type_)
        self._data = data

    def addcomponent(self, poly, fill, outline=None):
        if self._type != "compound":
            raise TurtleGraphicsError("Cannot add component to %s Shape"
                                      % self._type)
        if outline is None:
            outline = fill
        self._data.append([poly, fill, outline])


class Tbuffer(object):
    """Ring buffer used for the undo functionality (as in CPython)."""

    def __init__(self, bufsize=10):
        self.bufsize = bufsize
        self.buffer = [[None]] * bufsize
        self.ptr = -1
        self.cumulate = False

    def reset(self, bufsize=None):
        if bufsize is None:
            for i in range(self.bufsize):
                self.buffer[i] = [None]
        else:
            self.bufsize = bufsize
            self.buffer = [[None]] * bufsize
        self.ptr = -1

    def push(self, item):
        if self.bufsize > 0:
            if not self.cumulate:
                self.ptr = (self.ptr + 1) % self.bufsize
                self.buffer[self.ptr] = item
            else:
                self.buffer[self.ptr].append(item)

    def pop(self):
        if self.bufsize > 0:
            item = self.buffer[self.ptr]
            if item is None:
                return None
            else:
                self.buffer[self.ptr] = [None]
                self.ptr = (self.ptr - 1) % self.bufsize
                return item

    def nr_of_items(self):
        return self.bufsize - self.buffer.count([None])

    def __repr__(self):
        return str(self.buffer) + " " + str(self.ptr)


_norm_cache = {}


def normcolor(cstr):
    """Return '#rrggbb' for a colour Tk accepts, '' for no colour, None if unknown."""
    try:
        return _norm_cache[cstr]
    except (KeyError, TypeError):
        pass
    if not isinstance(cstr, str):
        return None
    result = None
    if cstr == "":
        result = ""
    elif cstr.startswith("#"):
        digits = cstr[1:]
        if len(digits) in (3, 6, 9, 12) and all(c in "0123456789abcdefABCDEF" for c in digits):
            n = len(digits) // 3
            parts = [digits[i * n:(i + 1) * n] for i in range(3)]
            if n == 1:
                parts = [p * 2 for p in parts]
            else:
                parts = [p[:2] for p in parts]
            result = "#" + "".join(parts).lower()
    else:
        hexv = _COLOR_NAMES.get(cstr.lower())
        if hexv is not None:
            result = "#" + hexv
    if len(_norm_cache) < 10000:
        _norm_cache[cstr] = result
    return result


# Steps after which the drawn steps are not simply all visible in order.
_REORDER = frozenset(("fill", "clear", "del", "unstamp"))


class _Recorder(object):
    """The steps of one screen, bounded by _Config.max_steps."""

    def __init__(self):
        self.steps = []
        self.truncated = False
        self.used = False
        self.plain = True     # no step yet that hides or reorders others

    def add(self, step):
        if step[0] in _REORDER:
            self.plain = False
        steps = self.steps
        if len(steps) < _Config.max_steps:
            steps.append(step)
            return len(steps) - 1
        self.overflow()
        return -1

    def overflow(self):
        if not self.truncated:
            self.truncated = True
            _Config.notices.append(_text("steps", n=_Config.max_steps))


class TurtleScreen(object):
    """The drawing area: shapes, colours, mode, world coordinates and the recording."""

    _RUNNING = True

    def __init__(self, cv=None, mode=_CFG["mode"], colormode=_CFG["colormode"],
                 delay=_CFG["delay"]):
        self._shapes = {
            "arrow": Shape("polygon", ((-10, 0), (10, 0), (0, 10))),
            "turtle": Shape("polygon", ((0, 16), (-2, 14), (-1, 10), (-4, 7),
                        (-7, 9), (-9, 8), (-6, 5), (-7, 1), (-5, -3), (-8, -6),
                        (-6, -8), (-4, -5), (0, -7), (4, -5), (6, -8), (8, -6),
                        (5, -3), (7, 1), (6, 5), (9, 8), (7, 9), (4, 7), (1, 10),
                        (2, 14))),
            "circle": Shape("polygon", ((10, 0), (9.51, 3.09), (8.09, 5.88),
                        (5.88, 8.09), (3.09, 9.51), (0, 10), (-3.09, 9.51),
                        (-5.88, 8.09), (-8.09, 5.88), (-9.51, 3.09), (-10, 0),
                        (-9.51, -3.09), (-8.09, -5.88), (-5.88, -8.09),
                        (-3.09, -9.51), (-0.00, -10.00), (3.09, -9.51),
                        (5.88, -8.09), (8.09, -5.88), (9.51, -3.09))),
            "square": Shape("polygon", ((10, -10), (10, 10), (-10, 10),
                        (-10, -10))),
            "triangle": Shape("polygon", ((10, -5.77), (0, 11.55),
                        (-10, -5.77))),
            "classic": Shape("polygon", ((0, 0), (-5, -9), (0, -7), (5, -9))),
            "blank": Shape("image", None),
        }
        self._bgpics = {"nopic": ""}
        self._mode = mode
        self._delayvalue = delay
        self._colormode = _CFG["colormode"]
        self._rec = _Recorder()
        self._itemcount = 0
        self._next_turtle_id = 0
        self.canvwidth = _CFG["canvwidth"]
        self.canvheight = _CFG["canvheight"]
        self.xscale = self.yscale = 1.0
        self._winwidth = int(_DISPLAY[0] * _CFG["width"])
        self._winheight = int(_DISPLAY[1] * _CFG["height"])
        self._sized = False
        self._titlestring = _CFG["title"]
        self._bg = "white"
        self._all_turtles = []
        self._listening = False
        self.clear()

    # -- canvas item ids: Tk numbers every canvas item, and stamp() returns one.
    def _newitem(self, n=1):
        self._itemcount += n
        return self._itemcount

    def _speed_of(self, turtle):
        return turtle._speed if self._tracing == 1 else 0

    def clear(self):
        self._delayvalue = _CFG["delay"]
        self._colormode = _CFG["colormode"]
        if getattr(self, "_turtles", None):
            self._rec.add(("clear", None, 0))
        self._bgpic = self._newitem()
        self._bgpicname = "nopic"
        self._tracing = 1
        self._updatecounter = 0
        self._turtles = []
        self.bgcolor("white")
        self._forget_events()
        Turtle._pen = None

    def mode(self, mode=None):
        if mode is None:
            return self._mode
        mode = mode.lower()
        if mode not in ["standard", "logo", "world"]:
            raise TurtleGraphicsError("No turtle-graphics-mode %s" % mode)
        self._mode = mode
        if mode in ["standard", "logo"]:
            self.xscale = self.yscale = 1.0
            self._live_screen()
        self.reset()

    def setworldcoordinates(self, llx, lly, urx, ury):
        if self.mode() != "world":
            self.mode("world")
        xspan = float(urx - llx)
        yspan = float(ury - lly)
        wx, wy = self._window_size()
        self.screensize(wx - 20, wy - 20)
        self.xscale = self.canvwidth / xspan
        self.yscale = self.canvheight / yspan
        self._world = (llx, lly, urx, ury)
        self._live_screen()
        self.update()

    def register_shape(self, name, shape=None):
        if shape is None:
            if name.lower().endswith(".gif"):
                shape = Shape("image", _read_image(name))
            else:
                raise TurtleGraphicsError("Bad arguments for register_shape.\n"
                                          + "Use  help(register_shape)")
        elif isinstance(shape, tuple):
            shape = Shape("polygon", shape)
        self._shapes[name] = shape

    def _iscolorstring(self, color):
        return normcolor(color) is not None

    def _colorstr(self, color):
        if len(color) == 1:
            color = color[0]
        if isinstance(color, str):
            if self._iscolorstring(color) or color == "":
                return color
            else:
                raise TurtleGraphicsError("bad color string: %s" % str(color))
        try:
            r, g, b = color
        except (TypeError, ValueError):
            raise TurtleGraphicsError("bad color arguments: %s" % str(color))
        if self._colormode == 1.0:
            r, g, b = [round(255.0 * x) for x in (r, g, b)]
        if not ((0 <= r <= 255) and (0 <= g <= 255) and (0 <= b <= 255)):
            raise TurtleGraphicsError("bad color sequence: %s" % str(color))
        return "#%02x%02x%02x" % (r, g, b)

    def _color(self, cstr):
        if not cstr.startswith("#"):
            return cstr
        if len(cstr) == 7:
            cl = [int(cstr[i:i + 2], 16) for i in (1, 3, 5)]
        elif len(cstr) == 4:
            cl = [16 * int(cstr[h], 16) for h in cstr[1:]]
        else:
            raise TurtleGraphicsError("bad colorstring: %s" % cstr)
        return tuple(c * self._colormode / 255 for c in cl)

    def colormode(self, cmode=None):
        if cmode is None:
            return self._colormode
        if cmode == 1.0:
            self._colormode = float(cmode)
        elif cmode == 255:
            self._colormode = int(cmode)

    def reset(self):
        for turtle in self._turtles:
            turtle._setmode(self._mode)
            turtle.reset()

    def turtles(self):
        return self._turtles

    def bgcolor(self, *args):
        if args:
            color = self._colorstr(args)
            _check_open()
            live = _LIVE
            self._bg = color
            self._rec.add(("bg", 0 if self._tracing != 1 else 1, normcolor(color)))
            if live is not None:
                self._live_screen()
                live.point()
            return None
        return self._color(self._bg)

    def tracer(self, n=None, delay=None):
        if n is None:
            return self._tracing
        self._tracing = int(n)
        self._updatecounter = 0
        if delay is not None:
            self._delayvalue = int(delay)
        if self._tracing:
            self.update()

    def delay(self, delay=None):
        if delay is None:
            return self._delayvalue
        self._delayvalue = int(delay)

    def update(self):
        live = _LIVE
        if live is None:
            return
        if live.closed:
            raise Terminator
        if self._turtles:
            self._updatecounter = 0
        self._raise_all()
        live.repaint()

    def _raise_all(self):
        """Every turtle is drawn again, in order: the last one ends on top."""
        for t in self._turtles:
            t._z = _next_z()

    def _live_screen(self):
        """Tell the window the screen's size, world window, background and title."""
        live = _LIVE
        if live is None or live.closed or Turtle._screen is not self:
            return
        if self._sized:
            w, h = self._winwidth, self._winheight
        else:
            w, h = _DEFAULT_VIEW
        xs, ys = self.xscale, self.yscale
        world = getattr(self, "_world", None)
        if self._mode == "world" and world is not None:
            llx, lly, urx, ury = world
            view = [llx, lly, urx - llx, ury - lly]
        else:
            view = [-w / 2.0 / xs, -h / 2.0 / ys, w / xs, h / ys]
        live.send({"type": "screen", "width": w, "height": h,
                   "bg": normcolor(self._bg) or "#ffffff", "scale": [xs, ys],
                   "view": [round(float(v), 2) for v in view],
                   "title": _frame_text(self._titlestring)})

    def _window_size(self):
        return (self._winwidth, self._winheight)

    def window_width(self):
        return self._window_size()[0]

    def window_height(self):
        return self._window_size()[1]

    def getcanvas(self):
        return None

    def getshapes(self):
        return sorted(self._shapes.keys())

    def onclick(self, fun, btn=1, add=None):
        if _LIVE is None:
            _event_notice("onclick")
            return
        _check_open()
        _bind(self._clicks, btn, fun, add)

    onscreenclick = onclick

    def onkey(self, fun, key):
        if _LIVE is None:
            _event_notice("onkey")
            return
        _check_open()
        _bind(self._keyrelease, key, fun, None)

    onkeyrelease = onkey

    def onkeypress(self, fun, key=None):
        if _LIVE is None:
            _event_notice("onkeypress")
            return
        _check_open()
        _bind(self._keypress, key, fun, None)

    def listen(self, xdummy=None, ydummy=None):
        live = _LIVE
        if live is None:
            _event_notice("listen")
            return
        _check_open()
        self._listening = True
        live.keys_on = True
        live.send({"type": "listen"})

    def ontimer(self, fun, t=0):
        live = _LIVE
        if live is None:
            _event_notice("ontimer")
            return
        _check_open()
        if fun is None:
            return
        if not live.add_timer(fun, t):
            raise TurtleGraphicsError(_text("timers", n=len(live.timers)))

    def _forget_events(self):
        """No screen handlers and no pressed turtle (a new or cleared screen)."""
        self._clicks = {}
        self._keypress = {}
        self._keyrelease = {}
        self._pressed = None

    def _has_handlers(self):
        """Whether a key, click, release or drag handler is set (mainloop then waits)."""
        if self._clicks or self._keypress or self._keyrelease:
            return True
        return any(t._clicks or t._releases or t._drags for t in self._turtles)

    def _on_event(self, ev):
        """Deliver one key or mouse event to the handlers, as Tk would."""
        if ev[0] == "key":
            self._on_key(ev[1], ev[2])
        else:
            self._on_mouse(*ev[1:])

    def _on_key(self, key, down):
        """A key press or release: the most specific handler bound for it, once listen() was called."""
        if not self._listening:
            return
        if down:
            fun = self._keypress.get(key) or self._keypress.get(None)
        else:
            fun = self._keyrelease.get(key)
        if fun is not None:
            fun[0]()

    def _on_mouse(self, action, x, y, btn):
        """A button press, drag or release at world point (x, y): turtle handlers, then the screen's."""
        # As CPython computes them from the canvas pixel Tk reports, a whole
        # number: canvasx(px) / xscale and -canvasy(py) / yscale, so a click
        # comes out as 100.0, not 100.12, and y 0 as -0.0, there too.
        xs, ys = self.xscale, self.yscale
        x, y = float(round(x * xs)) / xs, -float(round(-y * ys)) / ys
        if action == "down":
            t = self._hit(x, y)
            self._pressed = (t, btn)
            if t is not None:
                for fun in list(t._clicks.get(btn, ())):
                    fun(x, y)
            for fun in list(self._clicks.get(btn, ())):
                fun(x, y)
            return
        pressed = self._pressed
        if pressed is None or pressed[1] != btn:
            return
        t = pressed[0]
        if action == "up":
            self._pressed = None
        if t is None:
            return
        table = t._releases if action == "up" else t._drags
        for fun in list(table.get(btn, ())):
            fun(x, y)

    def _hit(self, x, y):
        """The topmost visible turtle whose shape holds the point (x, y), or None."""
        best = None
        for t in self._turtles:
            if t._shown and (best is None or t._z > best._z) and t._holds(x, y):
                best = t
        return best

    def bgpic(self, picname=None):
        if picname is None:
            return self._bgpicname
        if picname not in self._bgpics:
            self._bgpics[picname] = _read_image(picname)
        self._bgpicname = picname

    def screensize(self, canvwidth=None, canvheight=None, bg=None):
        if canvwidth is canvheight is bg is None:
            return (self.canvwidth, self.canvheight)
        if canvwidth is not None:
            self.canvwidth = canvwidth
            self._sized = True
        if canvheight is not None:
            self.canvheight = canvheight
            self._sized = True
        if bg is not None:
            self.bgcolor(bg)
        self._live_screen()

    resetscreen = reset
    clearscreen = clear
    addshape = register_shape

    def mainloop(self):
        live = _LIVE
        if live is not None:
            live.mainloop()

    def textinput(self, title, prompt):
        live = _LIVE
        if live is not None:
            _check_open()
            return live.ask({"type": "dialog", "kind": "text", "title": _frame_text(title),
                             "prompt": _frame_text(prompt)})
        import builtins
        return builtins.input(prompt)

    def numinput(self, title, prompt, default=None, minval=None, maxval=None):
        live = _LIVE
        if live is not None:
            return self._live_numinput(live, title, prompt, default, minval, maxval)
        import builtins
        while True:
            line = builtins.input(prompt).strip()
            if line == "" and default is not None:
                return float(default)
            try:
                value = float(line)
            except ValueError:
                print(_text("number"))
                continue
            if (minval is not None and value < minval) or (maxval is not None and value > maxval):
                print(_text("range", lo=minval, hi=maxval))
                continue
            return value

    def _live_numinput(self, live, title, prompt, default, minval, maxval):
        """numinput in a live run: the window's dialog, asked again until the answer is valid."""
        _check_open()
        error = False
        while True:
            answer = live.ask({"type": "dialog", "kind": "number", "title": _frame_text(title),
                               "prompt": _frame_text(prompt), "default": _json_num(default),
                               "min": _json_num(minval), "max": _json_num(maxval),
                               "error": error})
            if answer is None:
                return None
            try:
                value = float(answer.strip())
            except ValueError:
                value = None
            error = (value is None or value != value
                     or (minval is not None and value < minval)
                     or (maxval is not None and value > maxval))
            if not error:
                return value

    # -- the window (what _Screen adds in CPython)
    def setup(self, width=_CFG["width"], height=_CFG["height"],
              startx=None, starty=None):
        sw, sh = _DISPLAY
        if isinstance(width, float) and 0 <= width <= 1:
            width = sw * width
        if isinstance(height, float) and 0 <= height <= 1:
            height = sh * height
        self._winwidth = int(width)
        self._winheight = int(height)
        self._sized = True
        self._live_screen()

    def title(self, titlestring):
        self._titlestring = titlestring
        self._live_screen()

    def bye(self):
        live = _LIVE
        if live is None or live.closed:
            return
        live.send({"type": "bye"})
        live.close()

    def exitonclick(self):
        if _LIVE is None:
            return
        def exitGracefully(x, y):
            """Screen.bye() with two dummy-parameters"""
            self.bye()
        self.onclick(exitGracefully)
        self.mainloop()

    # -- what the renderer and the result frame read
    def drawing(self):
        """The recording as tuples plus the final state of every turtle."""
        if self._sized:
            width, height = self._winwidth, self._winheight
        else:
            width, height = _DEFAULT_VIEW
        turtles = []
        for t in self._turtles:
            turtles.append(t._final())
        return {
            "width": width, "height": height,
            "scale": [self.xscale, self.yscale],
            "bg": normcolor(self._bg) or "#ffffff",
            "steps": self._rec.steps,
            "turtles": turtles,
            "truncated": self._rec.truncated,
            "plain": self._rec.plain,
        }


# What a child sees by default: a 400 x 400 stage (setup() changes it).
_DEFAULT_VIEW = (400, 400)


def _read_image(name):
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise TurtleGraphicsError("couldn't open \"%s\": %s" % (name, exc.strerror))
    if not data.startswith(b"GIF8"):
        raise TurtleGraphicsError("couldn't recognize data in image file \"%s\"" % name)
    return data


class _Screen(TurtleScreen):
    pass


def Screen():
    """Return the singleton screen object."""
    if Turtle._screen is None:
        Turtle._screen = screen = _Screen()
        live = _LIVE
        if live is not None:
            live.attach(screen._rec.steps)
            live.dispatch = screen._on_event
            live.listening = screen._has_handlers
            screen._live_screen()
    return Turtle._screen


def _pace_moves_and_turns():
    """Give moves and turns their live pacing: the hot paths are wrapped only in live runs, so plain runs pay nothing."""
    plain_goto, plain_rotate = RawTurtle._goto_xy, RawTurtle._rotate

    def _goto_xy(self, x, y):
        sx, sy = self._x, self._y
        s = self._speed if self.screen._tracing == 1 else 0
        plain_goto(self, x, y)
        self._live_goto(sx, sy, x, y, s)

    def _rotate(self, angle):
        ox, oy = self._ox, self._oy
        plain_rotate(self, angle)
        self._live_rotate(ox, oy, angle * self._degreesPerAU)

    RawTurtle._goto_xy = _goto_xy
    RawTurtle._rotate = _rotate


def _check_open():
    """Raise Terminator, as CPython does, once the live window was closed."""
    live = _LIVE
    if live is not None and live.closed:
        raise Terminator


def _window_closed():
    """The live window closed: no more key or mouse events reach the handlers."""
    live = _LIVE
    if live is not None:
        live.dispatch = None


def _bind(table, key, fun, add):
    """Bind fun to key in a handler table as Tk binds: replace, add, or remove with None."""
    if fun is None:
        table.pop(key, None)
    elif add:
        table.setdefault(key, []).append(fun)
    else:
        table[key] = [fun]


_z_counter = [0]


def _next_z():
    """A stacking number above every one given before (the canvas raises a redrawn turtle)."""
    _z_counter[0] += 1
    return _z_counter[0]


def _frame_text(v):
    """A title or prompt for a live frame: its text, cut to 4000 characters (frames stay small)."""
    return str(v)[:4000]


def _json_num(v):
    """A number for a dialog frame: int or float kept, anything else None."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return v


class ScrolledCanvas(object):
    """Needs tkinter; not available here."""

    def __init__(self, *args, **kwargs):
        raise TurtleGraphicsError(_text("canvas"))


class TNavigator(object):
    """Navigation part of the RawTurtle: movement, heading, angle units."""

    START_ORIENTATION = {
        "standard": Vec2D(1.0, 0.0),
        "world": Vec2D(1.0, 0.0),
        "logo": Vec2D(0.0, 1.0)}
    DEFAULT_MODE = "standard"
    DEFAULT_ANGLEOFFSET = 0
    DEFAULT_ANGLEORIENT = 1

    def __init__(self, mode=DEFAULT_MODE):
        self._angleOffset = self.DEFAULT_ANGLEOFFSET
        self._angleOrient = self.DEFAULT_ANGLEORIENT
        self._mode = mode
        self.undobuffer = None
        self.degrees()
        self._mode = None
        self._setmode(mode)
        TNavigator.reset(self)

    # Position and orientation are kept as plain numbers (_x, _y, _ox, _oy):
    # a step then costs no Vec2D objects. The arithmetic is CPython's, term by
    # term, so positions come out bit for bit the same; the Vec2D views below
    # are built only when asked for.
    @property
    def _position(self):
        return _vec(self._x, self._y)

    @_position.setter
    def _position(self, v):
        self._x, self._y = v[0], v[1]

    @property
    def _orient(self):
        return _vec(self._ox, self._oy)

    @_orient.setter
    def _orient(self, v):
        self._ox, self._oy = v[0], v[1]

    def reset(self):
        self._x = self._y = 0.0
        self._orient = TNavigator.START_ORIENTATION[self._mode]

    def _setmode(self, mode=None):
        if mode is None:
            return self._mode
        if mode not in ["standard", "logo", "world"]:
            return
        self._mode = mode
        if mode in ["standard", "world"]:
            self._angleOffset = 0
            self._angleOrient = 1
        else:
            self._angleOffset = self._fullcircle / 4.
            self._angleOrient = -1

    def _setDegreesPerAU(self, fullcircle):
        self._fullcircle = fullcircle
        self._degreesPerAU = 360 / fullcircle
        if self._mode == "standard":
            self._angleOffset = 0
        else:
            self._angleOffset = fullcircle / 4.

    def degrees(self, fullcircle=360.0):
        self._setDegreesPerAU(fullcircle)

    def radians(self):
        self._setDegreesPerAU(math.tau)

    def _go(self, distance):
        if type(distance) is float or type(distance) is int:
            # position + orient * distance, as Vec2D computes it
            self._goto_xy(self._x + self._ox * distance, self._y + self._oy * distance)
        else:
            self._goto(self._position + self._orient * distance)

    def _rotate(self, angle):
        angle *= self._degreesPerAU
        # Vec2D.rotate: (x*c + (-y)*s, y*c + x*s)
        a = _radians(angle)
        c, s = _cos(a), _sin(a)
        ox, oy = self._ox, self._oy
        self._ox, self._oy = ox * c + -oy * s, oy * c + ox * s

    def _goto(self, end):
        self._goto_xy(end[0], end[1])

    def _goto_xy(self, x, y):
        self._x, self._y = x, y

    def forward(self, distance):
        self._go(distance)

    def back(self, distance):
        self._go(-distance)

    def right(self, angle):
        self._rotate(-angle)

    def left(self, angle):
        self._rotate(angle)

    def pos(self):
        return self._position

    def xcor(self):
        return self._x

    def ycor(self):
        return self._y

    def goto(self, x, y=None):
        if y is None:
            self._goto(Vec2D(*x))
        else:
            self._goto(Vec2D(x, y))

    def home(self):
        self.goto(0, 0)
        self.setheading(0)

    def setx(self, x):
        self._goto(Vec2D(x, self._y))

    def sety(self, y):
        self._goto(Vec2D(self._x, y))

    @staticmethod
    def _point(x, y):
        # The point distance() and towards() are given, read as CPython reads
        # it; anything else fails the way CPython does (UnboundLocalError).
        if y is not None:
            pos = Vec2D(x, y)
        if isinstance(x, Vec2D):
            pos = x
        elif isinstance(x, tuple):
            pos = Vec2D(*x)
        elif isinstance(x, TNavigator):
            pos = x._position
        return pos

    def distance(self, x, y=None):
        return abs(self._point(x, y) - self._position)

    def towards(self, x, y=None):
        x, y = self._point(x, y) - self._position
        result = round(math.degrees(math.atan2(y, x)), 10) % 360.0
        result /= self._degreesPerAU
        return (self._angleOffset + self._angleOrient * result) % self._fullcircle

    def heading(self):
        x, y = self._ox, self._oy
        result = round(math.degrees(math.atan2(y, x)), 10) % 360.0
        result /= self._degreesPerAU
        return (self._angleOffset + self._angleOrient * result) % self._fullcircle

    def setheading(self, to_angle):
        angle = (to_angle - self.heading()) * self._angleOrient
        full = self._fullcircle
        angle = (angle + full / 2.) % full - full / 2.
        self._rotate(angle)

    def circle(self, radius, extent=None, steps=None):
        if self.undobuffer:
            self.undobuffer.push(["seq"])
            self.undobuffer.cumulate = True
        speed = self.speed()
        if extent is None:
            extent = self._fullcircle
        if steps is None:
            frac = abs(extent) / self._fullcircle
            steps = 1 + int(min(11 + abs(radius) / 6.0, 59.0) * frac)
        w = 1.0 * extent / steps
        w2 = 0.5 * w
        l = 2.0 * radius * math.sin(math.radians(w2) * self._degreesPerAU)
        if radius < 0:
            l, w, w2 = -l, -w, -w2
        tr = self._tracer()
        dl = self._delay()
        if speed == 0:
            self._tracer(0, 0)
        else:
            self.speed(0)
        self._rotate(w2)
        for i in range(steps):
            self.speed(speed)
            self._go(l)
            self.speed(0)
            self._rotate(w)
        self._rotate(-w2)
        if speed == 0:
            self._tracer(tr, dl)
        self.speed(speed)
        if self.undobuffer:
            self.undobuffer.cumulate = False

    def speed(self, s=0):
        """dummy method - to be overwritten by child class"""

    def _tracer(self, a=None, b=None):
        """dummy method - to be overwritten by child class"""

    def _delay(self, n=None):
        """dummy method - to be overwritten by child class"""

    fd = forward
    bk = back
    backward = back
    rt = right
    lt = left
    position = pos
    setpos = goto
    setposition = goto
    seth = setheading


class TPen(object):
    """Drawing part of the RawTurtle: pen, colours, visibility."""

    def __init__(self, resizemode=_CFG["resizemode"]):
        self._resizemode = resizemode
        self.undobuffer = None
        TPen._reset(self)

    def _reset(self, pencolor=_CFG["pencolor"], fillcolor=_CFG["fillcolor"]):
        self._pensize = 1
        self._shown = True
        self._pencolor = pencolor
        self._fillcolor = fillcolor
        self._drawing = True
        self._speed = 3
        self._stretchfactor = (1., 1.)
        self._shearfactor = 0.
        self._tilt = 0.
        self._shapetrafo = (1., 0., 0., 1.)
        self._outlinewidth = 1

    def resizemode(self, rmode=None):
        if rmode is None:
            return self._resizemode
        rmode = rmode.lower()
        if rmode in ["auto", "user", "noresize"]:
            self.pen(resizemode=rmode)

    def pensize(self, width=None):
        if width is None:
            return self._pensize
        self.pen(pensize=width)

    def penup(self):
        if not self._drawing:
            return
        self.pen(pendown=False)

    def pendown(self):
        if self._drawing:
            return
        self.pen(pendown=True)

    def isdown(self):
        return self._drawing

    def speed(self, speed=None):
        speeds = {'fastest': 0, 'fast': 10, 'normal': 6, 'slow': 3, 'slowest': 1}
        if speed is None:
            return self._speed
        if speed in speeds:
            speed = speeds[speed]
        elif 0.5 < speed < 10.5:
            speed = int(round(speed))
        else:
            speed = 0
        self.pen(speed=speed)

    def color(self, *args):
        if args:
            l = len(args)
            if l == 1:
                pcolor = fcolor = args[0]
            elif l == 2:
                pcolor, fcolor = args
            elif l == 3:
                pcolor = fcolor = args
            pcolor = self._colorstr(pcolor)
            fcolor = self._colorstr(fcolor)
            self.pen(pencolor=pcolor, fillcolor=fcolor)
        else:
            return self._color(self._pencolor), self._color(self._fillcolor)

    def pencolor(self, *args):
        if args:
            color = self._colorstr(args)
            if color == self._pencolor:
                return
            self.pen(pencolor=color)
        else:
            return self._color(self._pencolor)

    def fillcolor(self, *args):
        if args:
            color = self._colorstr(args)
            if color == self._fillcolor:
                return
            self.pen(fillcolor=color)
        else:
            return self._color(self._fillcolor)

    def showturtle(self):
        self.pen(shown=True)

    def hideturtle(self):
        self.pen(shown=False)

    def isvisible(self):
        return self._shown

    def pen(self, pen=None, **pendict):
        _pd = {"shown": self._shown,
               "pendown": self._drawing,
               "pencolor": self._pencolor,
               "fillcolor": self._fillcolor,
               "pensize": self._pensize,
               "speed": self._speed,
               "resizemode": self._resizemode,
               "stretchfactor": self._stretchfactor,
               "shearfactor": self._shearfactor,
               "outline": self._outlinewidth,
               "tilt": self._tilt
               }
        if not (pen or pendict):
            return _pd
        if isinstance(pen, dict):
            p = pen
        else:
            p = {}
        p.update(pendict)
        _p_buf = {}
        for key in p:
            _p_buf[key] = _pd[key]
        if self.undobuffer:
            self.undobuffer.push(("pen", _p_buf))
        newLine = False
        if "pendown" in p:
            if self._drawing != p["pendown"]:
                newLine = True
        if "pencolor" in p:
            if isinstance(p["pencolor"], tuple):
                p["pencolor"] = self._colorstr((p["pencolor"],))
            if self._pencolor != p["pencolor"]:
                newLine = True
        if "pensize" in p:
            if self._pensize != p["pensize"]:
                newLine = True
        if newLine:
            self._newLine()
        if "pendown" in p:
            self._drawing = p["pendown"]
        if "pencolor" in p:
            self._pencolor = p["pencolor"]
        if "pensize" in p:
            self._pensize = p["pensize"]
        if "fillcolor" in p:
            if isinstance(p["fillcolor"], tuple):
                p["fillcolor"] = self._colorstr((p["fillcolor"],))
            self._fillcolor = p["fillcolor"]
        if "speed" in p:
            self._speed = p["speed"]
        if "resizemode" in p:
            self._resizemode = p["resizemode"]
        if "stretchfactor" in p:
            sf = p["stretchfactor"]
            if isinstance(sf, (int, float)):
                sf = (sf, sf)
            self._stretchfactor = sf
        if "shearfactor" in p:
            self._shearfactor = p["shearfactor"]
        if "outline" in p:
            self._outlinewidth = p["outline"]
        if "shown" in p:
            self._shown = p["shown"]
        if "tilt" in p:
            self._tilt = p["tilt"]
        if "stretchfactor" in p or "tilt" in p or "shearfactor" in p:
            scx, scy = self._stretchfactor
            shf = self._shearfactor
            sa, ca = math.sin(self._tilt), math.cos(self._tilt)
            self._shapetrafo = (scx * ca, scy * (shf * ca + sa),
                                -scx * sa, scy * (ca - shf * sa))
        self._pen_changed(p)

    def _pen_changed(self, p):
        pass

    def _newLine(self, usePos=True):
        pass

    def _color(self, args):
        pass

    def _colorstr(self, args):
        pass

    width = pensize
    up = penup
    pu = penup
    pd = pendown
    down = pendown
    st = showturtle
    ht = hideturtle


_LOOK_KEYS = ("shown", "stretchfactor", "tilt", "shearfactor", "resizemode",
              "outline", "pencolor", "fillcolor", "pensize")


class RawTurtle(TPen, TNavigator):
    """Animation part of the turtle: records every change on its screen."""

    screens = []

    def __init__(self, canvas=None, shape=_CFG["shape"],
                 undobuffersize=_CFG["undobuffersize"], visible=_CFG["visible"]):
        if isinstance(canvas, TurtleScreen):
            self.screen = canvas
        elif canvas is None or isinstance(canvas, ScrolledCanvas):
            self.screen = Screen()
        else:
            raise TurtleGraphicsError("bad canvas argument %s" % canvas)
        screen = self.screen
        self._id = screen._next_turtle_id
        screen._next_turtle_id += 1
        self._ready = False
        TNavigator.__init__(self, screen.mode())
        TPen.__init__(self)
        screen._turtles.append(self)
        screen._all_turtles.append(self)
        screen._rec.used = True
        screen._newitem()                 # drawingLineItem
        self._shapeIndex = shape
        self._shapetype = screen._shapes[shape]._type
        screen._newitem(self._shape_items(shape))
        self._poly = None
        self._creatingPoly = False
        self._fillitem = self._fillpath = None
        self._fillz = 0
        self._shown = visible
        screen._newitem()                 # currentLineItem
        self._curlen = 1
        self._pcsrc = self._pcn = None
        self.stampItems = []
        self._stampsteps = {}
        self._turn_pending = False
        self._dotting = False
        self._undobuffersize = undobuffersize
        self.undobuffer = Tbuffer(undobuffersize)
        self._forget_events()
        self._ready = True
        self._look()
        self._update()

    def _forget_events(self):
        """No handlers on this turtle (a new turtle or a clone)."""
        self._clicks = {}
        self._releases = {}
        self._drags = {}
        self._z = _next_z()

    def _update(self):
        """A screen update where CPython's turtle makes one: paced and an event point in live runs."""
        live = _LIVE
        if live is None:
            return
        if live.closed:
            raise Terminator
        screen = self.screen
        tr = screen._tracing
        if tr == 1:
            self._z = _next_z()
            live.tick(screen._delayvalue)
        elif tr:
            if tr > 0:
                screen._updatecounter = (screen._updatecounter + 1) % tr
            if screen._updatecounter == 0:
                screen._raise_all()
                live.repaint()

    def _live_goto(self, sx, sy, x, y, s):
        """A move's pacing in a live run: CPython's animation hops, then its update."""
        if s:
            screen = self.screen
            diffx, diffy = x - sx, y - sy
            diffsq = (diffx * screen.xscale) ** 2 + (diffy * screen.yscale) ** 2
            nhops = 1 + int((diffsq ** 0.5) / (3 * (1.1 ** s) * s))
            _LIVE.charge_new(nhops * max(0, screen._delayvalue))
            k = 1.0 / nhops
            dx, dy = diffx * k, diffy * k
            for n in range(1, nhops):
                self._x, self._y = sx + dx * n, sy + dy * n
                self._update()
            self._x, self._y = x, y
        self._update()

    def _live_rotate(self, ox, oy, angle):
        """A turn's pacing in a live run: CPython's animation steps, then its update."""
        screen = self.screen
        speed = self._speed
        if screen._tracing == 1 and speed > 0:
            nx, ny = self._ox, self._oy
            steps = 1 + int(abs(angle) / (3.0 * speed))
            delta = 1.0 * angle / steps
            _LIVE.charge_new((steps + 1) * max(0, screen._delayvalue))
            a = _radians(delta)
            c, s = _cos(a), _sin(a)
            for _ in range(steps):
                ox, oy = ox * c + -oy * s, oy * c + ox * s
                self._ox, self._oy = ox, oy
                self._update()
            self._ox, self._oy = nx, ny
        self._update()

    def _holds(self, x, y):
        """Whether the point (x, y) lies on this turtle's shape as placed on the canvas."""
        screen = self.screen
        xs, ys = screen.xscale, screen.yscale
        px, py = x * xs, y * ys
        halo = abs(self._outline_width()) / 2.0 + 1.0
        for part in self._parts():
            pts = part[0]
            if not isinstance(pts, list) or len(pts) < 2:
                continue
            poly = [(a * xs, b * ys) for a, b in pts]
            if _inside(poly, px, py) or _near(poly, px, py, halo):
                return True
        return False

    def _shape_items(self, name):
        shape = self.screen._shapes[name]
        if shape._type == "compound":
            return len(shape._data)
        return 1

    def reset(self):
        TNavigator.reset(self)
        TPen._reset(self)
        self._clear()
        self._record_turn()
        self._look()
        self._update()

    def setundobuffer(self, size):
        if size is None or size <= 0:
            self.undobuffer = None
        else:
            self.undobuffer = Tbuffer(size)

    def undobufferentries(self):
        if self.undobuffer is None:
            return 0
        return self.undobuffer.nr_of_items()

    def _clear(self):
        self._fillitem = self._fillpath = None
        screen = self.screen
        screen._rec.add(("clear", self._id, screen._speed_of(self)))
        screen._newitem()
        self._curlen = 1 if self._drawing else 0
        self.clearstamps()
        self.setundobuffer(self._undobuffersize)

    def clear(self):
        self._clear()
        self._update()

    def _tracer(self, flag=None, delay=None):
        return self.screen.tracer(flag, delay)

    def _color(self, args):
        return self.screen._color(args)

    def _colorstr(self, args):
        return self.screen._colorstr(args)

    def _cc(self, args):
        if isinstance(args, str):
            return args
        try:
            r, g, b = args
        except (TypeError, ValueError):
            raise TurtleGraphicsError("bad color arguments: %s" % str(args))
        if self.screen._colormode == 1.0:
            r, g, b = [round(255.0 * x) for x in (r, g, b)]
        if not ((0 <= r <= 255) and (0 <= g <= 255) and (0 <= b <= 255)):
            raise TurtleGraphicsError("bad color sequence: %s" % str(args))
        return "#%02x%02x%02x" % (r, g, b)

    def clone(self):
        screen = self.screen
        self._newLine(self._drawing)
        self.screen = None
        try:
            q = deepcopy(self)
        finally:
            self.screen = screen
        q.screen = screen
        q._id = screen._next_turtle_id
        screen._next_turtle_id += 1
        screen._turtles.append(q)
        screen._all_turtles.append(q)
        n = self._shape_items(self._shapeIndex)
        screen._newitem(n)               # _TurtleImage
        screen._newitem(n)               # its polygon item, created again
        screen._newitem()                # currentLineItem
        q.stampItems = []
        q._stampsteps = {}
        q._forget_events()
        q._record_turn()
        q._look()
        q._update()
        return q

    def shape(self, name=None):
        if name is None:
            return self._shapeIndex
        if name not in self.screen.getshapes():
            raise TurtleGraphicsError("There is no shape named %s" % name)
        newtype = self.screen._shapes[name]._type
        if not (newtype == self._shapetype and newtype in ("polygon", "image")):
            self.screen._newitem(self._shape_items(name))
        self._shapeIndex = name
        self._shapetype = newtype
        self._look()
        self._update()

    def shapesize(self, stretch_wid=None, stretch_len=None, outline=None):
        if stretch_wid is stretch_len is outline is None:
            stretch_wid, stretch_len = self._stretchfactor
            return stretch_wid, stretch_len, self._outlinewidth
        if stretch_wid == 0 or stretch_len == 0:
            raise TurtleGraphicsError("stretch_wid/stretch_len must not be zero")
        if stretch_wid is not None:
            if stretch_len is None:
                stretchfactor = stretch_wid, stretch_wid
            else:
                stretchfactor = stretch_wid, stretch_len
        elif stretch_len is not None:
            stretchfactor = self._stretchfactor[0], stretch_len
        else:
            stretchfactor = self._stretchfactor
        if outline is None:
            outline = self._outlinewidth
        self.pen(resizemode="user",
                 stretchfactor=stretchfactor, outline=outline)

    def shearfactor(self, shear=None):
        if shear is None:
            return self._shearfactor
        self.pen(resizemode="user", shearfactor=shear)

    def settiltangle(self, angle):
        self.tiltangle(angle)

    def tiltangle(self, angle=None):
        if angle is None:
            tilt = -math.degrees(self._tilt) * self._angleOrient
            return (tilt / self._degreesPerAU) % self._fullcircle
        else:
            tilt = -angle * self._degreesPerAU * self._angleOrient
            tilt = math.radians(tilt) % math.tau
            self.pen(resizemode="user", tilt=tilt)

    def tilt(self, angle):
        self.tiltangle(angle + self.tiltangle())

    def shapetransform(self, t11=None, t12=None, t21=None, t22=None):
        if t11 is t12 is t21 is t22 is None:
            return self._shapetrafo
        m11, m12, m21, m22 = self._shapetrafo
        if t11 is not None:
            m11 = t11
        if t12 is not None:
            m12 = t12
        if t21 is not None:
            m21 = t21
        if t22 is not None:
            m22 = t22
        if t11 * t22 - t12 * t21 == 0:
            raise TurtleGraphicsError("Bad shape transform matrix: must not be singular")
        self._shapetrafo = (m11, m12, m21, m22)
        alfa = math.atan2(-m21, m11) % math.tau
        sa, ca = math.sin(alfa), math.cos(alfa)
        a11, a12, a21, a22 = (ca * m11 - sa * m21, ca * m12 - sa * m22,
                              sa * m11 + ca * m21, sa * m12 + ca * m22)
        self._stretchfactor = a11, a22
        self._shearfactor = a12 / a22
        self._tilt = alfa
        self.pen(resizemode="user")

    def _polytrafo(self, poly):
        screen = self.screen
        p0, p1 = self._position
        e0, e1 = self._orient
        e = Vec2D(e0, e1 * screen.yscale / screen.xscale)
        e0, e1 = (1.0 / abs(e)) * e
        return [(p0 + (e1 * x + e0 * y) / screen.xscale, p1 + (-e0 * x + e1 * y) / screen.yscale)
                for (x, y) in poly]

    def get_shapepoly(self):
        shape = self.screen._shapes[self._shapeIndex]
        if shape._type == "polygon":
            return self._getshapepoly(shape._data, shape._type == "compound")

    def _getshapepoly(self, polygon, compound=False):
        if self._resizemode == "user" or compound:
            t11, t12, t21, t22 = self._shapetrafo
        elif self._resizemode == "auto":
            l = max(1, self._pensize / 5.0)
            t11, t12, t21, t22 = l, 0, 0, l
        elif self._resizemode == "noresize":
            return polygon
        return tuple((t11 * x + t12 * y, t21 * x + t22 * y) for (x, y) in polygon)

    def _outline_width(self):
        if self._resizemode == "noresize":
            return 1
        if self._resizemode == "auto":
            return self._pensize
        return self._outlinewidth

    def _parts(self, local=False):
        """The turtle's shape as [[points, fill, outline], ...]; image shapes as one image part."""
        shape = self.screen._shapes[self._shapeIndex]
        place = (lambda poly: poly) if local else self._polytrafo
        if shape._type == "polygon":
            poly = place(self._getshapepoly(shape._data))
            return [[_round_pts(poly), normcolor(self._fillcolor), normcolor(self._pencolor)]]
        if shape._type == "compound":
            parts = []
            for poly, fc, oc in shape._data:
                poly = place(self._getshapepoly(poly, True))
                parts.append([_round_pts(poly), normcolor(self._cc(fc)), normcolor(self._cc(oc))])
            return parts
        if shape._data is None:
            return []
        return [["image", self._shapeIndex]]

    def _heading_std(self):
        return round(math.degrees(math.atan2(self._oy, self._ox)) % 360.0, 2)

    def _size(self):
        sw, sl = self._stretchfactor
        return round(max(abs(sw), abs(sl)), 2)

    def _look(self):
        if not self._ready:
            return
        screen = self.screen
        s = screen._speed_of(self)
        self._flush_turn(s)
        screen._rec.add(("look", self._id, s, self._shapeIndex, bool(self._shown),
                         self._size(), self._parts(local=True)))

    def _final(self):
        x, y = self._x, self._y
        return {"id": self._id, "x": round(x, 2), "y": round(y, 2),
                "heading": self._heading_std(), "shape": self._shapeIndex,
                "visible": bool(self._shown), "pen": normcolor(self._pencolor),
                "fill": normcolor(self._fillcolor), "size": self._size(),
                "ow": self._outline_width(), "parts": self._parts()}

    def _pen_changed(self, p):
        if self._ready and (any(k in p for k in ("shown", "stretchfactor", "tilt",
                                                 "shearfactor", "resizemode", "outline"))
                            or (_LIVE is not None and self._shown
                                and ("pencolor" in p or "fillcolor" in p))):
            # Live, a colour change shows on the turtle at once; plain runs
            # carry the final colours in the drawing's turtles.
            self._look()
        if _LIVE is not None and self._ready:
            self._update()

    def stamp(self):
        screen = self.screen
        shape = screen._shapes[self._shapeIndex]
        if shape._type == "compound":
            stitem = tuple(screen._newitem() for _ in shape._data)
        else:
            stitem = screen._newitem()
        s = screen._speed_of(self)
        self._flush_turn(s)
        x, y = self._x, self._y
        i = screen._rec.add(("stamp", self._id, s, stitem, round(x, 2), round(y, 2),
                             self._heading_std(), self._shapeIndex,
                             normcolor(self._pencolor), normcolor(self._fillcolor),
                             [p + [self._outline_width()] for p in self._parts()]))
        self.stampItems.append(stitem)
        self._stampsteps[stitem] = i
        self.undobuffer.push(("stamp", stitem))
        return stitem

    def _clearstamp(self, stampid):
        if stampid in self.stampItems:
            screen = self.screen
            screen._rec.add(("unstamp", self._id, screen._speed_of(self), stampid))
            self.stampItems.remove(stampid)
            self._stampsteps.pop(stampid, None)
        item = ("stamp", stampid)
        buf = self.undobuffer
        if buf is None or item not in buf.buffer:
            return
        index = buf.buffer.index(item)
        buf.buffer.remove(item)
        if index <= buf.ptr:
            buf.ptr = (buf.ptr - 1) % buf.bufsize
        buf.buffer.insert((buf.ptr + 1) % buf.bufsize, [None])

    def clearstamp(self, stampid):
        self._clearstamp(stampid)
        self._update()

    def clearstamps(self, n=None):
        if n is None:
            toDelete = self.stampItems[:]
        elif n >= 0:
            toDelete = self.stampItems[:n]
        else:
            toDelete = self.stampItems[n:]
        for item in toDelete:
            self._clearstamp(item)
        self._update()

    def _flush_turn(self, s):
        # Turns at speed 0 are only recorded when an animated step needs them.
        if self._turn_pending and s:
            self._turn_pending = False
            self.screen._rec.add(("turn", self._id, 0, self._heading_std()))

    def _record_turn(self):
        if not self._ready:
            return
        screen = self.screen
        s = screen._speed_of(self)
        if s:
            self._turn_pending = False
            screen._rec.add(("turn", self._id, s, self._heading_std()))
        else:
            self._turn_pending = True

    def _pen_norm(self):
        # The normalised pen colour, recomputed only when the colour changed.
        if self._pcsrc is not self._pencolor:
            self._pcsrc = self._pencolor
            self._pcn = normcolor(self._pencolor)
        return self._pcn

    def _goto(self, end):
        self._goto_xy(end[0], end[1])

    def forward(self, distance):
        # The hot path of most programs: _go inlined.
        if type(distance) is float or type(distance) is int:
            self._goto_xy(self._x + self._ox * distance, self._y + self._oy * distance)
        else:
            self._go(distance)

    fd = forward

    def _goto_xy(self, x, y):
        # Hot path: plain attribute access, one step tuple and one undo tuple.
        screen = self.screen
        sx, sy = self._x, self._y
        s = self._speed if screen._tracing == 1 else 0
        if s and self._turn_pending:
            self._flush_turn(s)
        steps = screen._rec.steps
        drawing = self._drawing
        i = -1
        if len(steps) < _Config.max_steps:
            if self._dotting:
                steps.append(("dot", self._id, s, x, y, self._pensize, self._pen_norm()))
                i = len(steps) - 1
            elif drawing:
                steps.append(("move", self._id, s, sx, sy, x, y,
                              self._pcn if self._pcsrc is self._pencolor else self._pen_norm(),
                              self._pensize))
                i = len(steps) - 1
            elif s or (_LIVE is not None and self._shown):
                # Pen-up moves at speed 0 are left out of plain runs: only the
                # final position shows. Live, a visible turtle's jumps are
                # what a tracer(0) game looks like.
                steps.append(("move", self._id, s, sx, sy, x, y, None, None))
        else:
            screen._rec.overflow()
        fillpath = self._fillpath
        ub = self.undobuffer
        if ub is not None and ub.bufsize > 0:
            # Tbuffer.push, inlined
            item = ("go", sx, sy, x, y, drawing, fillpath is not None, i, self._curlen)
            if ub.cumulate:
                ub.buffer[ub.ptr].append(item)
            else:
                ub.ptr = ptr = (ub.ptr + 1) % ub.bufsize
                ub.buffer[ptr] = item
        if drawing:
            self._curlen += 1
        if fillpath is not None:
            fillpath.append((x, y))
        self._x = x
        self._y = y
        if self._creatingPoly:
            self._poly.append(_vec(x, y))
        if self._curlen > 42:
            self._newLine()

    def _undogoto(self, entry):
        ox, oy, nx, ny, drawing, filling, i, curlen = entry
        old, new = _vec(ox, oy), _vec(nx, ny)
        screen = self.screen
        if i >= 0:
            screen._rec.add(("del", self._id, screen._speed_of(self), i))
        self._curlen = curlen
        s = screen._speed_of(self)
        screen._rec.add(("move", self._id, s, round(new[0], 2), round(new[1], 2),
                         round(old[0], 2), round(old[1], 2), None, None))
        self._position = old
        if self._creatingPoly:
            if len(self._poly) > 0:
                self._poly.pop()
            if self._poly == []:
                self._creatingPoly = False
                self._poly = None
        if filling:
            if self._fillpath == []:
                self._fillpath = None
            elif self._fillpath is not None:
                self._fillpath.pop()
        if _LIVE is not None:
            self._live_goto(nx, ny, ox, oy, s)

    def _rotate(self, angle):
        ub = self.undobuffer
        if ub is not None and ub.bufsize > 0:
            # Tbuffer.push, inlined
            item = ("rot", angle, self._degreesPerAU)
            if ub.cumulate:
                ub.buffer[ub.ptr].append(item)
            else:
                ub.ptr = ptr = (ub.ptr + 1) % ub.bufsize
                ub.buffer[ptr] = item
        angle *= self._degreesPerAU
        # Vec2D.rotate: (x*c + (-y)*s, y*c + x*s)
        a = _radians(angle)
        c, s = _cos(a), _sin(a)
        ox, oy = self._ox, self._oy
        self._ox, self._oy = ox * c + -oy * s, oy * c + ox * s
        if self._speed and self.screen._tracing == 1:
            self._record_turn()
        else:
            self._turn_pending = True

    def _newLine(self, usePos=True):
        if self._curlen > 1:
            self.screen._newitem()
        self._curlen = 1 if usePos else 0

    def filling(self):
        return isinstance(self._fillpath, list)

    def begin_fill(self):
        if not self.filling():
            self._fillitem = self.screen._newitem()
            self._fillz = len(self.screen._rec.steps)
        self._fillpath = [(self._x, self._y)]
        self._newLine()
        if self.undobuffer:
            self.undobuffer.push(("beginfill", self._fillitem))
        self._update()

    def end_fill(self):
        if self.filling():
            if len(self._fillpath) > 2:
                screen = self.screen
                s = screen._speed_of(self)
                self._flush_turn(s)
                i = screen._rec.add(("fill", self._id, s, normcolor(self._fillcolor),
                                     _round_pts(self._fillpath), self._fillz))
                if self.undobuffer:
                    self.undobuffer.push(("dofill", i))
            self._fillitem = self._fillpath = None
            self._update()

    def dot(self, size=None, *color):
        if not color:
            if isinstance(size, (str, tuple)):
                color = self._colorstr(size)
                size = self._pensize + max(self._pensize, 4)
            else:
                color = self._pencolor
                if not size:
                    size = self._pensize + max(self._pensize, 4)
        else:
            if size is None:
                size = self._pensize + max(self._pensize, 4)
            color = self._colorstr(color)
        # As CPython does without a native dot: a zero-length line of width
        # size, recorded as a dot step.
        pen = self.pen()
        if self.undobuffer:
            self.undobuffer.push(["seq"])
            self.undobuffer.cumulate = True
        try:
            if self.resizemode() == 'auto':
                self.ht()
            self.pendown()
            self.pensize(size)
            self.pencolor(color)
            self._dotting = True
            try:
                self.forward(0)
            finally:
                self._dotting = False
        finally:
            self.pen(pen)
        if self.undobuffer:
            self.undobuffer.cumulate = False

    def _write(self, txt, align, font):
        screen = self.screen
        x, y = self._x, self._y
        screen._newitem()
        s = screen._speed_of(self)
        self._flush_turn(s)
        i = screen._rec.add(("text", self._id, s, round(x, 2), round(y, 2), txt, align,
                             _font_list(font), normcolor(self._pencolor)))
        if self.undobuffer:
            self.undobuffer.push(("wri", i))
        if align not in ("left", "center", "right"):
            raise KeyError(align)
        self._update()
        width = _text_width(txt, font)
        x0 = x * screen.xscale - 1
        if align == "left":
            x1 = x0 + width
        elif align == "center":
            x1 = x0 + width / 2.0
        else:
            x1 = x0
        return x1 - 1

    def write(self, arg, move=False, align="left", font=("Arial", 8, "normal")):
        if self.undobuffer:
            self.undobuffer.push(["seq"])
            self.undobuffer.cumulate = True
        end = self._write(str(arg), align.lower(), font)
        if move:
            x, y = self.pos()
            self.setpos(end, y)
        if self.undobuffer:
            self.undobuffer.cumulate = False

    def begin_poly(self):
        self._poly = [self._position]
        self._creatingPoly = True

    def end_poly(self):
        self._creatingPoly = False

    def get_poly(self):
        if self._poly is not None:
            return tuple(self._poly)

    def getscreen(self):
        return self.screen

    def getturtle(self):
        return self

    getpen = getturtle

    def _delay(self, delay=None):
        return self.screen.delay(delay)

    def onclick(self, fun, btn=1, add=None):
        if _LIVE is None:
            _event_notice("onclick")
            return
        _bind(self._clicks, btn, fun, add)
        self._update()

    def onrelease(self, fun, btn=1, add=None):
        if _LIVE is None:
            _event_notice("onrelease")
            return
        _bind(self._releases, btn, fun, add)
        self._update()

    def ondrag(self, fun, btn=1, add=None):
        if _LIVE is None:
            _event_notice("ondrag")
            return
        _check_open()
        _bind(self._drags, btn, fun, add)

    def _undo(self, action, data):
        if self.undobuffer is None:
            return
        screen = self.screen
        if action == "rot":
            angle, degPAU = data
            self._rotate(-angle * degPAU / self._degreesPerAU)
            self.undobuffer.pop()
        elif action == "stamp":
            stitem = data[0]
            self.clearstamp(stitem)
        elif action == "go":
            self._undogoto(data)
        elif action in ["wri", "dot", "dofill"]:
            i = data[0]
            if i >= 0:
                screen._rec.add(("del", self._id, screen._speed_of(self), i))
        elif action == "beginfill":
            self._fillitem = self._fillpath = None
        elif action == "pen":
            TPen.pen(self, data[0])
            self.undobuffer.pop()

    def undo(self):
        if self.undobuffer is None:
            return
        item = self.undobuffer.pop()
        action = item[0]
        data = item[1:]
        if action == "seq":
            while data:
                item = data.pop()
                self._undo(item[0], item[1:])
        else:
            self._undo(action, data)

    turtlesize = shapesize


RawPen = RawTurtle


class Turtle(RawTurtle):
    """RawTurtle on the singleton screen."""

    _pen = None
    _screen = None

    def __init__(self, shape=_CFG["shape"], undobuffersize=_CFG["undobuffersize"],
                 visible=_CFG["visible"]):
        if Turtle._screen is None:
            Turtle._screen = Screen()
        RawTurtle.__init__(self, Turtle._screen, shape=shape,
                           undobuffersize=undobuffersize, visible=visible)


Pen = Turtle


def _inside(poly, x, y):
    """Whether (x, y) is inside the polygon, by the even-odd rule."""
    inside = False
    x1, y1 = poly[-1]
    for x2, y2 in poly:
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
        x1, y1 = x2, y2
    return inside


def _near(poly, x, y, halo):
    """Whether (x, y) is within halo of one of the polygon's edges."""
    x1, y1 = poly[-1]
    for x2, y2 in poly:
        dx, dy = x2 - x1, y2 - y1
        n = dx * dx + dy * dy
        k = 0.0 if n == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / n))
        ex, ey = x1 + k * dx - x, y1 + k * dy - y
        if ex * ex + ey * ey <= halo * halo:
            return True
        x1, y1 = x2, y2
    return False


def _round_pts(pts):
    return [[round(x, 2), round(y, 2)] for (x, y) in pts]


def _font_list(font):
    if isinstance(font, str):
        parts = font.split()
        font = (parts[0] if parts else "Arial",) + tuple(parts[1:])
    try:
        family = str(font[0]) if len(font) > 0 else "Arial"
        size = font[1] if len(font) > 1 else 8
        style = " ".join(str(x) for x in font[2:]) if len(font) > 2 else "normal"
        size = float(size)
    except (TypeError, ValueError):
        family, size, style = "Arial", 8.0, "normal"
    if size == int(size):
        size = int(size)
    return [family, size, style]


def _wide(ch):
    o = ord(ch)
    return (0x1100 <= o <= 0x115F or 0x2E80 <= o <= 0xA4CF or 0xAC00 <= o <= 0xD7A3
            or 0xF900 <= o <= 0xFAFF or 0xFE30 <= o <= 0xFE4F or 0xFF00 <= o <= 0xFF60
            or 0xFFE0 <= o <= 0xFFE6 or o >= 0x1F300)


def font_px(font):
    """Pixel size of a font list: Tk treats positive sizes as points, negative as pixels."""
    size = font[1]
    return -size if size < 0 else size * _PX_PER_PT


def _text_width(txt, font):
    px = font_px(_font_list(font))
    lines = str(txt).split("\n") or [""]
    return max(sum(px if _wide(c) else px * 0.6 for c in line) for line in lines)


def write_docstringdict(filename="turtle_docstringdict"):
    """Only useful with the real module's docstrings; does nothing here."""


# -- module-level functions, bound to the singleton screen and anonymous turtle

def _getpen():
    if _LIVE is not None and _LIVE.closed:
        raise Terminator
    if Turtle._pen is None:
        Turtle._pen = Turtle()
    return Turtle._pen


def _getscreen():
    if _LIVE is not None and _LIVE.closed:
        raise Terminator
    if Turtle._screen is None:
        Turtle._screen = Screen()
    return Turtle._screen


_tg_screen_functions = ['addshape', 'bgcolor', 'bgpic', 'bye', 'clearscreen',
        'colormode', 'delay', 'exitonclick', 'getcanvas', 'getshapes',
        'listen', 'mainloop', 'mode', 'numinput', 'onkey', 'onkeypress',
        'onkeyrelease', 'onscreenclick', 'ontimer', 'register_shape',
        'resetscreen', 'screensize', 'setup', 'setworldcoordinates',
        'textinput', 'title', 'tracer', 'turtles', 'update', 'window_height',
        'window_width']
_tg_turtle_functions = __all__[9 + len(_tg_screen_functions):-3]


def _make_screen_func(name):
    def func(*args, **kwargs):
        return getattr(_getscreen(), name)(*args, **kwargs)
    func.__name__ = func.__qualname__ = name
    func.__doc__ = getattr(TurtleScreen, name).__doc__
    return func


def _make_turtle_func(name):
    def func(*args, **kwargs):
        return getattr(_getpen(), name)(*args, **kwargs)
    func.__name__ = func.__qualname__ = name
    func.__doc__ = getattr(RawTurtle, name).__doc__
    return func


for _name in _tg_screen_functions:
    globals()[_name] = _make_screen_func(_name)
for _name in _tg_turtle_functions:
    globals()[_name] = _make_turtle_func(_name)
del _name

done = mainloop  # noqa: F821 (defined just above)


def reset_state():
    """Forget the screen and turtles (used between test runs in one process)."""
    Turtle._pen = None
    Turtle._screen = None
    _Config.warned_events = False


def current_screen():
    """The screen if the program used turtle, else None."""
    return Turtle._screen
