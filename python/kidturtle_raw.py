"""The turtle: CPython's RawTurtle and Turtle, recording every move and turn.

Moving, turning, filling, dots, text and undo are here; the look and the
stamps are kidturtle_look's, what only a live run does kidturtle_live's.
"""

from copy import deepcopy

from kidturtle_config import _CFG, TurtleGraphicsError, _Config
from kidturtle_live import _TurtleLive
from kidturtle_look import _TurtleLook
from kidturtle_nav import TNavigator, TPen, _cos, _radians, _sin
from kidturtle_record import Tbuffer, _font_list, _round_pts, _text_width, _vec, normcolor
from kidturtle_screen import ScrolledCanvas, TurtleScreen


# Cosine and sine by angle in degrees, as _rotate computes them.
_TRIG = {}


class RawTurtle(_TurtleLook, _TurtleLive, TPen, TNavigator):
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
            elif s or (_Config.live is not None and self._shown):
                # Pen-up moves at speed 0 are left out of plain runs: only the
                # final position shows. Live, a visible turtle's jumps are
                # what a tracer(0) game looks like.
                steps.append(("move", self._id, s, sx, sy, x, y, None, None))
        else:
            screen._rec.overflow()
        fillpath = self._fillpath
        ub = self.undobuffer
        if ub is not None:
            item = ("go", sx, sy, x, y, drawing, fillpath is not None, i, self._curlen)
            if ub.cumulate:
                ub.push(item)
            else:
                ub.items.append(item)       # Tbuffer.push, inlined
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
        if _Config.live is not None:
            self._live_goto(nx, ny, ox, oy, s)

    def _rotate(self, angle):
        ub = self.undobuffer
        if ub is not None:
            item = ("rot", angle, self._degreesPerAU)
            if ub.cumulate:
                ub.push(item)
            else:
                ub.items.append(item)       # Tbuffer.push, inlined
        angle *= self._degreesPerAU
        # Vec2D.rotate: (x*c + (-y)*s, y*c + x*s). Programs turn by the same
        # few angles again and again; 0 is left out of the table, where
        # 0.0 and -0.0 would share a key but not their sine's sign.
        if type(angle) is float and angle:
            cs = _TRIG.get(angle)
            if cs is None:
                a = _radians(angle)
                cs = (_cos(a), _sin(a))
                if len(_TRIG) < 4096:
                    _TRIG[angle] = cs
            c, s = cs
        else:
            a = _radians(angle)
            c, s = _cos(a), _sin(a)
        ox, oy = self._ox, self._oy
        self._ox, self._oy = ox * c + -oy * s, oy * c + ox * s
        if self._speed and self.screen._tracing == 1:
            self._record_turn()
        else:
            self._turn_pending = True

    # left is _rotate itself: one call less on the hot path (live runs
    # wrap both, kidturtle_live.pace).
    left = lt = _rotate

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


_Config.Turtle = Turtle


class _Screen(TurtleScreen):
    pass


def Screen():
    """Return the singleton screen object."""
    if Turtle._screen is None:
        Turtle._screen = screen = _Screen()
        live = _Config.live
        if live is not None:
            live.attach(screen._rec.steps)
            live.dispatch = screen._on_event
            live.listening = screen._has_handlers
            screen._live_screen()
    return Turtle._screen
