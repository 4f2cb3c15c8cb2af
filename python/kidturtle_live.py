"""What only a live run does (docs/runner-protocol.md, "Live runs"): the
window's screen, key, mouse and timer handlers, and a turtle's pacing.

In a plain run nothing here waits: handlers cannot fire, so setting one
leaves a notice, and moves and turns are not paced at all (pace() wraps
them only when a run is live).
"""

import math

from kidturtle_config import (_DEFAULT_VIEW, Terminator, TurtleGraphicsError, _check_open,
                              _Config, _event_notice, _hint_notice, _text)
from kidturtle_dialogs import _frame_text
from kidturtle_keys import binding_key
from kidturtle_record import normcolor

_radians, _cos, _sin = math.radians, math.cos, math.sin


class _ScreenLive(object):
    """TurtleScreen's window: update, the screen frame, handlers and events."""

    def update(self):
        live = _Config.live
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
        live = _Config.live
        if live is None or live.closed or _Config.Turtle._screen is not self:
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
                   "view": [round(float(v), 2) for v in view], "area": self._area(),
                   "title": _frame_text(self._titlestring)})

    def onclick(self, fun, btn=1, add=None):
        if _Config.live is None:
            _event_notice("onclick")
            return
        _check_open()
        _bind_pointer(self._clicks, btn, fun, add)

    onscreenclick = onclick

    def onkey(self, fun, key):
        if fun is not None:
            key = binding_key(key)     # a key name Tk refuses raises, live or not
        if _Config.live is None:
            _event_notice("onkey")
            return
        _check_open()
        _bind(self._keyrelease, key, fun, None)

    onkeyrelease = onkey

    def onkeypress(self, fun, key=None):
        if fun is not None and key is not None:
            key = binding_key(key)
        if _Config.live is None:
            _event_notice("onkeypress")
            return
        _check_open()
        _bind(self._keypress, key, fun, None)

    def listen(self, xdummy=None, ydummy=None):
        live = _Config.live
        if live is None:
            _event_notice("listen")
            return
        _check_open()
        self._listening = True
        live.keys_on = True
        live.send({"type": "listen"})

    def ontimer(self, fun, t=0):
        live = _Config.live
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

    def mainloop(self):
        live = _Config.live
        if live is not None:
            if (self._keypress or self._keyrelease) and not self._listening and not live.closed:
                # The keys would go to the editor, not the game: say so while it waits.
                _hint_notice("listen", now=True)
            live.mainloop()

    def bye(self):
        live = _Config.live
        if live is None or live.closed:
            return
        live.send({"type": "bye"})
        live.close()

    def exitonclick(self):
        if _Config.live is None:
            return
        def exitGracefully(x, y):
            """Screen.bye() with two dummy-parameters"""
            self.bye()
        self.onclick(exitGracefully)
        self.mainloop()


class _TurtleLive(object):
    """RawTurtle's live side: screen updates, animation pacing, its own handlers."""

    def _forget_events(self):
        """No handlers on this turtle (a new turtle or a clone)."""
        self._clicks = {}
        self._releases = {}
        self._drags = {}
        self._z = _next_z()

    def _update(self):
        """A screen update where CPython's turtle makes one: paced and an event point in live runs."""
        live = _Config.live
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
            _Config.live.charge_new(nhops * max(0, screen._delayvalue))
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
            _Config.live.charge_new((steps + 1) * max(0, screen._delayvalue))
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

    def onclick(self, fun, btn=1, add=None):
        if _Config.live is None:
            _event_notice("onclick")
            return
        _bind_pointer(self._clicks, btn, fun, add)
        self._update()

    def onrelease(self, fun, btn=1, add=None):
        if _Config.live is None:
            _event_notice("onrelease")
            return
        _bind_pointer(self._releases, btn, fun, add)
        self._update()

    def ondrag(self, fun, btn=1, add=None):
        if _Config.live is None:
            _event_notice("ondrag")
            return
        _check_open()
        _bind_pointer(self._drags, btn, fun, add)


def pace(cls):
    """Give cls's moves and turns their live pacing: the hot paths are wrapped only in live runs, so plain runs pay nothing."""
    plain_goto, plain_rotate = cls._goto_xy, cls._rotate

    def _goto_xy(self, x, y):
        sx, sy = self._x, self._y
        s = self._speed if self.screen._tracing == 1 else 0
        plain_goto(self, x, y)
        self._live_goto(sx, sy, x, y, s)

    def _rotate(self, angle):
        ox, oy = self._ox, self._oy
        plain_rotate(self, angle)
        self._live_rotate(ox, oy, angle * self._degreesPerAU)

    cls._goto_xy = _goto_xy
    cls._rotate = cls.left = cls.lt = _rotate


def _window_closed():
    """The live window closed: no more key or mouse events reach the handlers."""
    live = _Config.live
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


def _bind_pointer(table, btn, fun, add):
    """Bind a click, release or drag handler; once the first is set, the host hears the pointer reaches the drawing."""
    _bind(table, btn, fun, add)
    if fun is not None:
        _Config.live.pointer_bound()


_z_counter = [0]


def _next_z():
    """A stacking number above every one given before (the canvas raises a redrawn turtle)."""
    _z_counter[0] += 1
    return _z_counter[0]


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
