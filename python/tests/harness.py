"""Run kidrunner.py as a subprocess, as the host does but without the sandbox."""

import fcntl
import glob
import json
import os
import struct
import subprocess
import sys
import termios
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
RUNNER = os.path.join(PYDIR, "kidrunner.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
FIDELITY = os.path.join(HERE, "fidelity")
CORPUS = os.path.join(HERE, "corpus")
REPLAY_STEPS = 4 << 20   # bytes of replay steps a run asks for unless a test says otherwise


def fidelity_programs():
    """The programs whose output must match CPython's turtle, as (name, path):
    fidelity/NAME.py, and the corpus programs that use turtle as corpus_NAME.
    Expected outputs live in fidelity/NAME.expected (gen_fidelity.py); a
    game has its events in fidelity/NAME.events (see game_timeline)."""
    progs = []
    for path in sorted(glob.glob(os.path.join(FIDELITY, "*.py"))):
        progs.append((os.path.splitext(os.path.basename(path))[0], path))
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.py"))):
        with open(path, encoding="utf-8") as f:
            if "import turtle" in f.read():
                progs.append(("corpus_" + os.path.splitext(os.path.basename(path))[0], path))
    return progs


def game_timeline(path):
    """The events file of a fidelity game (NAME.events beside NAME.py), or None."""
    events = os.path.splitext(path)[0] + ".events"
    return events if os.path.exists(events) else None


class Run(object):
    """One started runner: frames arrive on self.frames as they are read."""

    def __init__(self, program, lang="en", stdin=b"", extra=(), keep_stdin_open=False):
        fr, fw = os.pipe()
        cr, cw = os.pipe()
        self.control = cw
        self.frames = []
        self.frame_event = threading.Condition()
        extra = list(extra)
        if "--replay-steps" not in extra:
            # As the pack engine asks: the tests read the drawing's steps.
            extra = ["--replay-steps", str(REPLAY_STEPS)] + extra
        cmd = [PYTHON, "-I", "-X", "utf8", "-B", RUNNER, "--lang", lang,
               "--frames", str(fw), "--control", str(cr)] + extra + ["--", program]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, pass_fds=(fw, cr),
                                     cwd=os.path.dirname(program))
        os.close(fw)
        os.close(cr)
        self._reader = threading.Thread(target=self._read, args=(fr,), daemon=True)
        self._reader.start()
        self.out = []
        self.err = []
        self._t1 = threading.Thread(target=self._drain, args=(self.proc.stdout, self.out), daemon=True)
        self._t2 = threading.Thread(target=self._drain, args=(self.proc.stderr, self.err), daemon=True)
        self._t1.start()
        self._t2.start()
        if stdin:
            self.proc.stdin.write(stdin)
            self.proc.stdin.flush()
        if not keep_stdin_open:
            self.proc.stdin.close()

    def _drain(self, stream, into):
        while True:
            b = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
            if not b:
                return
            with self.frame_event:
                into.append(b)
                self.frame_event.notify_all()

    def wait_stdout(self, text, timeout=30):
        """Wait until stdout holds exactly text so far (bytes); True if it did."""
        with self.frame_event:
            return self.frame_event.wait_for(lambda: text in b"".join(self.out), timeout)

    def _read(self, fd):
        buf = b""
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            buf += b
            while len(buf) >= 4:
                n = struct.unpack(">I", buf[:4])[0]
                if len(buf) < 4 + n:
                    break
                frame = json.loads(buf[4:4 + n].decode("utf-8"))
                buf = buf[4 + n:]
                with self.frame_event:
                    self.frames.append(frame)
                    self.frame_event.notify_all()
        os.close(fd)
        with self.frame_event:
            self.frames.append(None)
            self.frame_event.notify_all()

    def wait_frame(self, ftype, timeout=30):
        with self.frame_event:
            ok = self.frame_event.wait_for(
                lambda: any(f is None or f["type"] == ftype for f in self.frames), timeout)
        if not ok:
            return None
        for f in self.frames:
            if f is not None and f["type"] == ftype:
                return f
        return None

    def send_control(self, line):
        os.write(self.control, line)

    def finish(self, timeout=60):
        self.proc.wait(timeout)
        self._reader.join(timeout)
        self._t1.join(timeout)
        self._t2.join(timeout)
        os.close(self.control)
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()
        self.code = self.proc.returncode
        self.stdout = b"".join(self.out).decode("utf-8", "replace")
        self.stderr = b"".join(self.err).decode("utf-8", "replace")
        frames = [f for f in self.frames if f is not None]
        results = [f for f in frames if f["type"] == "result"]
        self.result = results[-1] if results else None
        self.result_count = len(results)
        self.all_frames = frames
        return self


def control_consumed(run, timeout=30):
    """Wait until the runner's control thread has read and handled every line written so far.

    Once the pipe is empty the thread may still be handling its last read;
    a blank line (skipped by the runner) written after that is read only
    when it is done, so the pipe emptying again proves it.
    """
    def drained():
        buf = bytearray(4)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            fcntl.ioctl(run.control, termios.FIONREAD, buf, True)
            if int.from_bytes(buf, sys.byteorder) == 0:
                return True
            time.sleep(0.002)
        return False
    ok = drained()
    os.write(run.control, b"\n")
    return drained() and ok


EVENT_LINES = {
    "keydown": lambda e: [{"type": "key", "key": e["key"], "down": True}],
    "keyup": lambda e: [{"type": "key", "key": e["key"], "down": False}],
    "key": lambda e: [{"type": "key", "key": e["key"], "down": True},
                      {"type": "key", "key": e["key"], "down": False}],
    "click": lambda e: [{"type": "mouse", "action": a, "x": e["x"], "y": e["y"],
                         "button": e.get("button", 1)} for a in ("down", "up")],
    "close": lambda e: [{"type": "close"}],
}


def read_timeline(path):
    """The events of a timeline file (JSONL, as `kidcoder run --events` reads it), in order."""
    with open(path, encoding="utf-8") as f:
        events = [json.loads(line) for line in f if line.strip()]
    if not any(e["type"] == "close" for e in events):
        events.append({"at_ms": (events[-1]["at_ms"] if events else 0) + 1000, "type": "close"})
    return events


def play(run, events, sync=None, timeout=60):
    """Play a timeline into a live run through its control pipe.

    Each event goes out at its at_ms, counted from now, and never before the
    program has printed sync[i] lines (the lines CPython had printed when it
    got that event), so a slow machine cannot reorder output and events.
    """
    start = time.monotonic()
    for i, ev in enumerate(events):
        delay = start + ev["at_ms"] / 1000.0 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if sync is not None:
            want = sync[i]
            with run.frame_event:
                run.frame_event.wait_for(
                    lambda: b"".join(run.out).count(b"\n") >= want or run.proc.poll() is not None,
                    timeout)
        for line in EVENT_LINES[ev["type"]](ev):
            try:
                os.write(run.control, (json.dumps(line) + "\n").encode("utf-8"))
            except OSError:
                return


def run(program, lang="en", stdin=b"", extra=()):
    return Run(program, lang, stdin, extra).finish()


def write_program(folder, name, source):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    return path
