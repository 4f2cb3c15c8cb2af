"""The drawing area: CPython's TurtleScreen, recording instead of drawing.

Shapes, mode, world coordinates, colours and the tracer live here; what
only a live run does (the window's screen, key, mouse and timer handlers)
is kidturtle_live's, the dialogs are kidturtle_dialogs'.
"""

from kidturtle_config import (_CFG, _DEFAULT_VIEW, _DISPLAY, TurtleGraphicsError, _check_open,
                              _Config, _text)
from kidturtle_dialogs import _ScreenDialogs
from kidturtle_live import _ScreenLive
from kidturtle_record import Shape, _Recorder, normcolor


class TurtleScreen(_ScreenLive, _ScreenDialogs):
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
        _Config.Turtle._pen = None

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
            live = _Config.live
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

    def _area(self):
        """The part of the world CPython paints in the background colour, as
        [minx, miny, w, h]: the program's window (setup()) and its canvas
        (screensize(), scrolled to), centred on the canvas; None when the
        program never sized them (the background then fills what is shown)."""
        if not self._sized:
            return None
        xs, ys = self.xscale, self.yscale
        cw, ch = self.canvwidth, self.canvheight
        w, h = max(self._winwidth, cw), max(self._winheight, ch)
        world = getattr(self, "_world", None)
        if self._mode == "world" and world is not None:
            # setworldcoordinates() put the canvas's corner at (llx, ury).
            cx, cy = world[0] + cw / 2.0 / xs, world[3] - ch / 2.0 / ys
        else:
            cx = cy = 0.0
        return [round(float(v), 2) for v in (cx - w / 2.0 / xs, cy - h / 2.0 / ys, w / xs, h / ys)]

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
            "area": self._area(),
            "steps": self._rec.steps,
            "turtles": turtles,
            "truncated": self._rec.truncated,
            "plain": self._rec.plain,
        }


def _read_image(name):
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise TurtleGraphicsError("couldn't open \"%s\": %s" % (name, exc.strerror))
    if not data.startswith(b"GIF8"):
        raise TurtleGraphicsError("couldn't recognize data in image file \"%s\"" % name)
    return data


class ScrolledCanvas(object):
    """Needs tkinter; not available here."""

    def __init__(self, *args, **kwargs):
        raise TurtleGraphicsError(_text("canvas"))
