"""textinput() and numinput(): the window's dialog in a live run, input() otherwise."""

import builtins

from kidturtle_config import _check_open, _Config, _text


class _ScreenDialogs(object):
    """TurtleScreen's dialogs (CPython's come from tkinter.simpledialog)."""

    def textinput(self, title, prompt):
        live = _Config.live
        if live is not None:
            _check_open()
            return live.ask({"type": "dialog", "kind": "text", "title": _frame_text(title),
                             "prompt": _frame_text(prompt)})
        return builtins.input(prompt)

    def numinput(self, title, prompt, default=None, minval=None, maxval=None):
        live = _Config.live
        if live is not None:
            return self._live_numinput(live, title, prompt, default, minval, maxval)
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


def _frame_text(v):
    """A title or prompt for a live frame: its text, cut to 4000 characters (frames stay small)."""
    return str(v)[:4000]


def _json_num(v):
    """A number for a dialog frame: int or float kept, anything else None."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return v
