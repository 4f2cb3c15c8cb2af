"""What the turtle records, as plain data: vectors, shapes, the undo buffer,
colours and the step list (docs/runner-protocol.md, "Drawing model").

Nothing is drawn while the program runs: every visible change is appended
to a screen's step list, which kidsvg renders afterwards.
"""

import math
from collections import deque

from kidcolors import COLORS as _COLOR_NAMES
from kidturtle_config import _PX_PER_PT, TurtleGraphicsError, _Config, _text

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
    """The undo buffer: the last bufsize actions, as CPython's ring buffer
    keeps them, held in a deque so that a move or turn pushes with one
    append (CPython's ring has a pointer to advance)."""

    def __init__(self, bufsize=10):
        self.bufsize = bufsize
        self.items = deque(maxlen=max(bufsize, 0))
        self.cumulate = False

    def reset(self, bufsize=None):
        if bufsize is not None:
            self.bufsize = bufsize
        self.items = deque(maxlen=max(self.bufsize, 0))

    def push(self, item):
        if self.bufsize > 0:
            if not self.cumulate:
                self.items.append(item)
            else:
                self.items[-1].append(item)

    def pop(self):
        # CPython's ring hands back an empty slot, [None], once it is empty.
        if self.bufsize > 0:
            return self.items.pop() if self.items else [None]

    def remove(self, item):
        """Forget item if it is held (a cleared stamp cannot be undone)."""
        try:
            self.items.remove(item)
        except ValueError:
            pass

    def nr_of_items(self):
        return len(self.items)

    def __repr__(self):
        return str(list(self.items))


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
