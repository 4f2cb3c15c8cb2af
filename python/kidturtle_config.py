"""The turtle's shared settings: CPython's defaults, the step bound, the texts
in the child's language, the live run, and the turtle's own errors.

Every part of the turtle (kidturtle_*.py) reads these from here, so one
configure() (kidturtle.py) sets them for all.
"""

import sys

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


# What a child sees by default: a 400 x 400 stage (setup() changes it).
_DEFAULT_VIEW = (400, 400)

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
    "listen": {
        "zh": "ℹ️ 游戏在等按键，可是程序没有调用 listen()，按键到不了海龟的画布。在 onkey(...) 那几行后面加上 screen.listen()（或 turtle.listen()）。",
        "en": "ℹ️ The game waits for keys, but the program never called listen(), so no key reaches the turtle's drawing. Add screen.listen() (or turtle.listen()) after the onkey(...) lines.",
    },
    "mainloop": {
        "zh": "ℹ️ 程序一结束，游戏窗口就关上了，所以按键、点击和定时器都没机会起作用。在程序最后加上 turtle.mainloop()（或 turtle.done()），窗口就会一直开着等你玩。",
        "en": "ℹ️ When the program ends, the game's window closes, so keys, clicks and timers never get a chance to work. End the program with turtle.mainloop() (or turtle.done()) to keep the window open for playing.",
    },
}


class _Config:
    lang = "en"
    max_steps = 1000000
    notices = []
    warned_events = False
    warned = set()         # the hint notices (_hint_notice) already given this run
    messages = None
    # The live run (kidlive.Live) when the program runs live, else None.
    live = None
    # kidturtle_raw.Turtle, whose _screen and _pen are the singletons the
    # module-level functions use (as in CPython); set where it is defined.
    Turtle = None


_KEYS = {"steps": "notice.steps", "events": "notice.events", "number": "turtle.number",
         "range": "turtle.range", "canvas": "turtle.canvas", "timers": "turtle.timers",
         "listen": "notice.listen", "mainloop": "notice.mainloop"}


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


def _hint_notice(key, now=False):
    """The notice of a beginner's mistake, once a run; now: on stderr too, as the program still runs."""
    if key in _Config.warned:
        return
    _Config.warned.add(key)
    msg = _text(key)
    _Config.notices.append(msg)
    if now:
        try:
            sys.stderr.write(msg + "\n")
            sys.stderr.flush()
        except Exception:
            pass


class Terminator(Exception):
    """Raised by the real module when the window was closed; kept for programs that catch it."""


class TurtleGraphicsError(Exception):
    """Some TurtleGraphics Error"""


def _check_open():
    """Raise Terminator, as CPython does, once the live window was closed."""
    live = _Config.live
    if live is not None and live.closed:
        raise Terminator
