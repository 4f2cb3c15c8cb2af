"""What the runner holds on to before the child's code runs: the os functions
and exceptions it needs later, the module table, its own folder and path,
and the one way it imports while or after the program runs.

The child may replace or delete any of these later; every part of the
runner (kidrunner_*.py) takes them from here.
"""

import binascii
import io
import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
# Python runs us with -I, so our own folder is not on sys.path.
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
# The path the runner's own late imports use: never the program's folder,
# where a child's json.py or re.py would be found first.
_PATH = list(sys.path)
_TURTLE_FILE = os.path.join(_HERE, "kidturtle.py")

# Captured now: the child may replace or delete any of these later.
_write = os.write
_read = os.read
_close = os.close
_kill = os.kill
_getpid = os.getpid
_open = io.open
_exit = os._exit
_b2a = binascii.b2a_base64
_modules = sys.modules
_SystemExit = SystemExit
_KeyboardInterrupt = KeyboardInterrupt
_BaseException = BaseException
_excepthook = sys.__excepthook__
_settrace = sys.settrace
_setprofile = sys.setprofile
_setrecursionlimit = sys.setrecursionlimit
_sleep = time.sleep
_MISSING = object()


def _late_import(name):
    """Import name for the runner while or after the program runs.

    Found on the runner's own path, never in the program's folder; a module
    already loaded is reused (after recover() that is the runner's own).
    """
    mod = _modules.get(name)
    if mod is not None:
        return mod
    saved = sys.path
    sys.path = list(_PATH)
    try:
        __import__(name)
    finally:
        sys.path = saved
    return _modules[name]


def scratch_folder(opts):
    """The runner's own scratch folder (matplotlib's config lives there)."""
    base = opts["scratch"]
    if not base:
        tmp = os.environ.get("TMPDIR") or "/tmp"
        base = tmp if os.access(tmp, os.W_OK) else os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "kidrunner-%d" % os.getpid())
    os.makedirs(folder, exist_ok=True)
    return folder
