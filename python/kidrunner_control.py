"""The control pipe (fd 4) and stdin: Stop, a live run's events, input().

A thread reads the host's control lines while the program runs; Stop
raises KeyboardInterrupt in the program's main thread.
"""

import _signal
import os
import sys
import time

from kidrunner_base import _getpid, _kill, _late_import, _read, _sleep


class _Control(object):
    """Runner's side of the control pipe and of input()."""

    # -- stop and, in live runs, events
    def control_loop(self, fd, buf=b""):
        try:
            self.read_control(fd, buf)
        finally:
            if self.live is not None:
                self.live.hang_up()

    def read_control(self, fd, buf=b""):
        """Read the control pipe until it closes, handling it line by line.

        buf is what was already read from it (a warm run's bytes past its program).
        """
        skipping = False          # inside a line longer than the bound
        limit = 4096
        while True:
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    if len(buf) > limit:
                        buf = b""
                        skipping = True
                    break
                line, buf = buf[:nl], buf[nl + 1:]
                if skipping:
                    skipping = False
                elif len(line) <= limit:
                    self.control_line(line)
            try:
                data = _read(fd, 4096)
            except OSError:
                return
            if not data:
                return
            buf += data

    def control_line(self, line):
        """One line from the host: stop, or (live runs) an event."""
        if self.finished:
            return
        if self.live is None:
            if line.strip() == b"stop":
                self.interrupt()
            return
        try:
            ev = self.parse_line(line)
        except Exception:
            return
        if ev is not None:
            if ev[0] == "stop":
                self.stopped = True
            self.live.feed(ev)

    def interrupt(self):
        """Raise KeyboardInterrupt in the program (Stop)."""
        if self.finished:
            return
        self.stopped = True
        # Aimed at the main thread so its blocking call (sleep,
        # read) returns EINTR and the handler raises there.
        try:
            _signal.pthread_kill(self.main_ident, _signal.SIGINT)
        except (AttributeError, OSError):
            _kill(_getpid(), _signal.SIGINT)

    # -- input()
    def input(self, prompt=""):
        out = sys.stdout if sys.stdout is not None else self.stdout
        text = str(prompt)
        try:
            out.write(text)
            out.flush()
        except Exception:
            pass
        _wait_read(1)
        if self.tracer is not None:
            # The steps so far reach the host before the program waits.
            self.tracer.flush()
        try:
            # Inside the try: a stop landing just after the frame went out
            # still ends with input_done.
            self.frames.send({"type": "input", "prompt": text})
            stream = sys.stdin if sys.stdin is not None else self.stdin
            if stream is None:
                line = ""
            else:
                line = stream.readline()
        finally:
            self.frames.send({"type": "input_done"})
        if not line:
            raise EOFError("EOF when reading a line")
        if line.endswith("\n"):
            line = line[:-1]
        return line


def _wait_read(fd, limit=0.2):
    """Wait (briefly, bounded) until the host has read what is in the pipe fd.

    The host reads stdout and the frame pipe separately, so an input frame
    sent right after the prompt could otherwise be seen before the prompt.
    """
    try:
        fcntl, stat, termios = [_late_import(m) for m in ("fcntl", "stat", "termios")]
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return
        buf = bytearray(4)
        deadline = time.monotonic() + limit
        while True:
            fcntl.ioctl(fd, termios.FIONREAD, buf, True)
            if int.from_bytes(buf, sys.byteorder) == 0 or time.monotonic() > deadline:
                return
            _sleep(0.001)
    except Exception:
        pass
