"""How a turtle looks: its shape, size, tilt and outline, and its stamps.

RawTurtle's shape half in CPython; recorded as "look", "stamp" and
"unstamp" steps.
"""

import math

from kidturtle_config import TurtleGraphicsError, _Config
from kidturtle_record import Vec2D, _round_pts, normcolor


class _TurtleLook(object):
    """RawTurtle's shape, shape transform and stamps."""

    def _shape_items(self, name):
        shape = self.screen._shapes[name]
        if shape._type == "compound":
            return len(shape._data)
        return 1

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
                            or (_Config.live is not None and self._shown
                                and ("pencolor" in p or "fillcolor" in p))):
            # Live, a colour change shows on the turtle at once; plain runs
            # carry the final colours in the drawing's turtles.
            self._look()
        if _Config.live is not None and self._ready:
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
        if self.undobuffer is not None:
            self.undobuffer.remove(("stamp", stampid))

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

    turtlesize = shapesize
