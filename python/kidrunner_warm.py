"""Warm runs (docs/runner-protocol.md, "Warm runs"): load ahead, say ready,
then take the program from the host's go line on the control pipe.
"""

import os

from kidrunner_base import _close, _late_import, _modules, _read, _write, scratch_folder

MAX_WARM_CODE = 16 * 1024 * 1024
_GO_LINE = 64 * 1024


class _Warm(object):
    """What a warm start loaded ahead of its program."""
    kidplot = None
    scratch_dir = None


def _preload(opts, warm):
    """Load what runs need before the program is known; nothing here is the child's."""
    for name in ("kidturtle", "kiderrors", "kidsvg", "json"):
        _late_import(name)
    if opts["live"]:
        _late_import("kidlive")
    if opts["preload_mpl"]:
        try:
            kidplot = _late_import("kidplot")
            warm.scratch_dir = scratch_folder(opts)
            kidplot.prepare(warm.scratch_dir, opts["mpl_cache"])
            _late_import("matplotlib.pyplot")
            warm.kidplot = kidplot
        except Exception:
            pass  # the program's own import then does it, as in a cold run


def _read_go(fd):
    """Read the host's go line and the program's bytes from the control pipe.

    Returns (header, code, rest) or None when the host hung up or sent
    something else: then nothing of a child's runs here.
    """
    json = _modules["json"]
    buf = b""
    while b"\n" not in buf:
        if len(buf) > _GO_LINE:
            return None
        data = _read(fd, 65536)
        if not data:
            return None
        buf += data
    line, buf = buf.split(b"\n", 1)
    if not line.startswith(b"go "):
        return None
    head = json.loads(line[3:].decode("utf-8"))
    n = head.get("code_bytes")
    if type(n) is not int or not 0 <= n <= MAX_WARM_CODE:
        return None
    while len(buf) < n:
        data = _read(fd, max(65536, n - len(buf)))
        if not data:
            return None
        buf += data
    return head, buf[:n], buf[n:]


def warm_start(opts):
    """A warm run: load ahead, then wait for the program on the control pipe.

    The header names the program's sandbox path, the language, its
    arguments and the CPU seconds the program gets from now on. Returns
    (_Warm, control bytes read past the program), or None to end quietly.
    """
    baseline = set(_modules)
    warm = _Warm()
    _preload(opts, warm)
    if opts["frames"] is not None:
        # The host keeps this sandbox as ready from now on.
        ready = b'{"type":"ready"}'
        try:
            _write(opts["frames"], len(ready).to_bytes(4, "big") + ready)
        except OSError:
            pass
    try:
        got = _read_go(opts["control"])
    except (OSError, ValueError, UnicodeDecodeError):
        got = None
    if got is None:
        return None
    head, code, rest = got
    program = head.get("program")
    if (not isinstance(program, str) or not program.endswith(".py")
            or os.path.basename(program).startswith(".") or "\x00" in program):
        return None
    folder = os.path.dirname(program)
    fd = os.open(program, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(code)
        while view:
            view = view[_write(fd, view):]
    finally:
        _close(fd)
    opts["program"] = program
    opts["lang"] = head.get("lang") if head.get("lang") in ("zh", "en") else opts["lang"]
    args = head.get("args") or []
    opts["args"] = [a for a in args if isinstance(a, str)]
    replay = head.get("replay_steps")
    if type(replay) is int and replay >= 0:
        opts["replay_steps"] = replay
    if head.get("trace") is True:
        opts["trace"] = True
    if head.get("scripted") is True:
        opts["scripted"] = True
    _limit_cpu(head.get("cpu"))
    # A file of the program's folder that has the name of a module loaded
    # ahead is found first by the program's import, as in a cold run.
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    for name in names:
        base = name[:-3] if name.endswith(".py") else name
        if base in _modules and base not in baseline:
            del _modules[base]
    return warm, rest


def _limit_cpu(seconds):
    """From now on the process gets seconds of CPU (RLIMIT_CPU, lowered only)."""
    if not isinstance(seconds, (int, float)) or seconds <= 0:
        return
    try:
        resource = _late_import("resource")
        ru = resource.getrusage(resource.RUSAGE_SELF)
        soft = int(ru.ru_utime + ru.ru_stime + seconds) + 1
        cur_soft, cur_hard = resource.getrlimit(resource.RLIMIT_CPU)
        if cur_hard == resource.RLIM_INFINITY or soft + 1 <= cur_hard:
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    except (ImportError, OSError, ValueError):
        pass
