"""Where a turtle is and how its pen is set: CPython's TNavigator and TPen.

Geometry follows CPython's Lib/turtle.py term by term, so a program prints
the same positions and headings here as with the real module.
"""

import math

from kidturtle_config import _CFG
from kidturtle_record import Vec2D, _vec

_radians, _cos, _sin = math.radians, math.cos, math.sin


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
