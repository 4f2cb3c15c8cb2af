"""Key names as Tk reads them in a binding.

CPython's turtle binds onkey(fun, key) as the Tk event "<KeyRelease-KEY>"
(onkeypress as "<KeyPress-KEY>"), and Tk refuses a key name it does not know
with a TclError at once: onkey(f, "down") raises 'bad event type or keysym
"down"' (the key is "Down"). binding_key() reads the key as Tk does and
raises the same error; suggest() names the key the child probably meant,
for the friendly error (kiderrors).
"""

_SPACE = " \t\n\r\f\v"
_HEX = frozenset("0123456789abcdefABCDEF")
# Names a beginner tries for a key whose keysym is spelt otherwise.
# Not the modifiers: "Control-a" reads as the key "Control", and naming
# Control_L would send a child after the wrong key.
_MEANT = {"enter": "Return", "esc": "Escape", "del": "Delete", "spacebar": "space",
          "pageup": "Prior", "pagedown": "Next", "page_up": "Prior", "page_down": "Next",
          "arrowup": "Up", "arrowdown": "Down", "arrowleft": "Left", "arrowright": "Right",
          "uparrow": "Up", "downarrow": "Down", "leftarrow": "Left", "rightarrow": "Right",
          " ": "space", "+": "plus", "-": "minus", "=": "equal", ",": "comma", ".": "period",
          "/": "slash", ";": "semicolon", "'": "apostrophe", "[": "bracketleft",
          "]": "bracketright", "\\": "backslash", "`": "grave", "*": "asterisk",
          "<": "less", "!": "exclam", "?": "question", "#": "numbersign", "$": "dollar",
          "%": "percent", "&": "ampersand", "(": "parenleft", ")": "parenright",
          "_": "underscore", ":": "colon", '"': "quotedbl", "@": "at", "^": "asciicircum",
          "{": "braceleft", "}": "braceright", "|": "bar", "~": "asciitilde"}

_names = None
_by_lower = None


def _keysyms():
    global _names
    if _names is None:
        from kidkeysyms import KEYSYMS
        _names = KEYSYMS
    return _names


def is_keysym(name):
    """Whether Tk (through Xlib's XStringToKeysym) knows name as a key."""
    if len(name) == 1 and name.isascii() and name.isalnum():
        return True
    if name in _keysyms():
        return True
    if len(name) > 1 and name[0] == "U":
        # A Unicode key, "U20AC": printable code points only, as Xlib takes them.
        digits = name[2:] if name[1] == "+" else name[1:]
        if digits and _HEX.issuperset(digits):
            v = int(digits, 16)
            return 0x20 <= v <= 0x7e or 0xa0 <= v <= 0x10ffff
        return False
    if len(name) > 2 and name.startswith("0x") and _HEX.issuperset(name[2:]):
        return 0 < int(name[2:], 16) < (1 << 64) - 1
    return False


def _tcl_error(message):
    """CPython's error for a binding Tk refuses: _tkinter.TclError."""
    try:
        from _tkinter import TclError
    except ImportError:
        TclError = _TclError
    return TclError(message)


class _TclError(Exception):
    """_tkinter.TclError, where tkinter is not installed."""


_TclError.__name__ = _TclError.__qualname__ = "TclError"
_TclError.__module__ = "_tkinter"


def binding_key(key):
    """The key name of onkey(fun, key) as Tk reads it in "<KeyRelease-KEY>", or
    key itself when it names no one key; raises TclError where Tk would."""
    if key is None:
        return None
    s = str(key)
    n = len(s)
    i = 0
    while i < n and (s[i] in _SPACE or s[i] == "-"):
        i += 1
    if i >= n or s[i] == ">":
        return key          # no key named: Tk binds every key
    j = i
    while j < n and s[j] not in _SPACE and s[j] not in "->":
        j += 1
    field = s[i:j]
    if not is_keysym(field):
        raise _tcl_error('bad event type or keysym "%s"' % field)
    while j < n and (s[j] in _SPACE or s[j] == "-"):
        j += 1
    if j < n and s[j] != ">":
        raise _tcl_error("extra characters after detail in binding")
    return field


def suggest(name):
    """The key name the child probably meant by name, or None."""
    global _by_lower
    if name in _MEANT:
        return _MEANT[name]
    if _by_lower is None:
        table = {}
        for k in sorted(_keysyms()):
            table.setdefault(k.lower(), []).append(k)
        _by_lower = table
    lower = name.lower()
    if lower in _MEANT:
        return _MEANT[lower]
    found = _by_lower.get(lower)
    if found:
        return found[0]
    return None
