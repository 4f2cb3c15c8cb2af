"""The turtle module a child's program gets: it records drawings as plain
data instead of opening a window.

Geometry, return values and errors follow CPython's Lib/turtle.py, and its
layering: TNavigator and TPen (kidturtle_nav), RawTurtle and Turtle
(kidturtle_raw, with the look in kidturtle_look), TurtleScreen
(kidturtle_screen, with its dialogs in kidturtle_dialogs); what only a live
run does is in kidturtle_live, the recorded data in kidturtle_record, the
shared settings and texts in kidturtle_config. This module is what
`import turtle` finds: CPython's names, and the functions bound to the
singleton screen and anonymous turtle.
"""

import math  # noqa: F401 (turtle.math and turtle.sys exist in CPython's module too)
import sys  # noqa: F401
from copy import deepcopy  # noqa: F401

# Programs see this module as "turtle" (class names in tracebacks and reprs).
__name__ = "turtle"

from kidturtle_config import (_CFG, _Config, Terminator, TurtleGraphicsError,  # noqa: F401
                              _hint_notice, _use_messages)
from kidturtle_live import pace as _pace, _window_closed
from kidturtle_nav import TNavigator, TPen
from kidturtle_raw import RawPen, RawTurtle, Screen, Pen, Turtle, _Screen
from kidturtle_record import STEP_FIELDS, Shape, Tbuffer, Vec2D, font_px, normcolor  # noqa: F401
from kidturtle_screen import ScrolledCanvas, TurtleScreen

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

for _cls in (Terminator, TurtleGraphicsError, Vec2D, Shape, Tbuffer, TNavigator, TPen,
             RawTurtle, Turtle, TurtleScreen, _Screen, ScrolledCanvas):
    _cls.__module__ = "turtle"
del _cls


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
        if _Config.live is None:
            _pace(RawTurtle)
        _Config.live = live
        live.on_close = _window_closed


def write_docstringdict(filename="turtle_docstringdict"):
    """Only useful with the real module's docstrings; does nothing here."""


# -- module-level functions, bound to the singleton screen and anonymous turtle

def _getpen():
    if _Config.live is not None and _Config.live.closed:
        raise Terminator
    if Turtle._pen is None:
        Turtle._pen = Turtle()
    return Turtle._pen


def _getscreen():
    if _Config.live is not None and _Config.live.closed:
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
    _Config.warned = set()


def program_ended():
    """The program ended by itself: a game that set handlers or timers and
    never waited in mainloop() gets a notice, as CPython's window would
    close at once and its keys, clicks and timers never work."""
    live, screen = _Config.live, Turtle._screen
    if live is None or screen is None or live.closed or live.looped:
        return
    if screen._has_handlers() or live.timers:
        _hint_notice("mainloop")


def current_screen():
    """The screen if the program used turtle, else None."""
    return Turtle._screen
