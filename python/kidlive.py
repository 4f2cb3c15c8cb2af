"""Live runs: the event queue, paced waits, timers and live frames
(docs/runner-protocol.md, "Live runs").

The control thread reads the host's lines and queues events; everything
else runs on the program's main thread: waits are done on the queue's
condition, so an event or Stop reaches a waiting program at once, and
handlers run inside the program, one at a time, at its event points.
"""

import heapq
import json
import threading
import time
from collections import deque

QUEUE_MAX = 256          # key and mouse events waiting at most
SCRIPT_MAX = 20001       # a timeline's events at most (10,000 lines, a stroke is two, and the close)
TIMERS_MAX = 1000        # ontimer calls pending at most
LINE_MAX = 4096          # a control line is at most this long
FRAME_MAX = 1 << 20      # a live frame is at most this many bytes
NEST_MAX = 32            # handlers running inside handlers at most
POINT_S = 0.001          # s a scripted run's clock moves at an event point that does not wait (a screen update)
STOP_GRACE = 0.1         # s a handler inside mainloop has to reach an event point after Stop
WAIT_MAX = 3600.0        # the longest single wait on the condition (s)
PACE_MIN, PACE_MAX = 0.1, 100.0   # how many times CPython's speed a pace line may ask for
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ACTIONS = ("down", "move", "up")

_clock = time.monotonic
_real_sleep = time.sleep


def _number(v):
    """v as a float if it is a finite JSON number of sane size, else None."""
    if type(v) is not int and type(v) is not float:
        return None
    v = float(v)
    if v - v != 0 or abs(v) > 1e9:
        return None
    return v


def parse_line(line):
    """One control line (bytes, without its newline) as an event tuple, or None.

    ("stop",), ("close",), ("answer", text or None), ("key", keysym, down),
    ("mouse", action, x, y, button), ("pace", speed), ("finish",),
    ("pause",) or ("resume",); every field is checked again here. A
    scripted run's timeline comes as ("at", seconds, event) for an event
    line with "at_ms", then ("script_end",).
    """
    line = line.strip()
    if line == b"stop":
        return ("stop",)
    if not line.startswith(b"{") or len(line) > LINE_MAX:
        return None
    try:
        obj = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type")
    if kind == "script_end":
        return ("script_end",)
    if "at_ms" in obj:
        at = _number(obj.pop("at_ms"))
        ev = _event(kind, obj)
        if at is None or at < 0 or ev is None or ev[0] not in _SCRIPTED:
            return None
        return ("at", at / 1000.0, ev)
    return _event(kind, obj)


# What a timeline holds: what a child does in the window.
_SCRIPTED = ("key", "mouse", "answer", "close")


def _event(kind, obj):
    """The event tuple of a control object of type kind, or None."""
    if kind in ("close", "pause", "resume"):
        return (kind,)
    if kind in ("pace", "finish"):
        return _pace_event(kind, obj)
    if kind == "answer":
        text = obj.get("text")
        if text is None or type(text) is str:
            return ("answer", text)
        return None
    if kind == "key":
        key, down = obj.get("key"), obj.get("down")
        if (type(key) is str and 1 <= len(key) <= 32 and all(c in _KEY_CHARS for c in key)
                and type(down) is bool):
            return ("key", key, down)
        return None
    if kind == "mouse":
        action, button = obj.get("action"), obj.get("button")
        x, y = _number(obj.get("x")), _number(obj.get("y"))
        if action in _ACTIONS and button in (1, 2, 3) and type(button) is int \
                and x is not None and y is not None:
            return ("mouse", action, x, y, button)
    return None


def _pace_event(kind, obj):
    """A pace line as an event: ("pace", speed) with speed within the bounds, or ("finish",)."""
    if kind == "finish":
        return ("finish",)
    speed = _number(obj.get("speed"))
    if speed is None or not PACE_MIN <= speed <= PACE_MAX:
        return None
    return ("pace", speed)


class Live(object):
    """The event queue, the timers and the stream of drawing steps of one live run."""

    def __init__(self, send, send_text, step_texts, interrupt, main_ident, scripted=False):
        self._send = send              # frames.send(obj) -> bool
        self._send_text = send_text    # frames.send_text(JSON text) -> bool
        self._step_texts = step_texts  # (steps, budget) -> (list of JSON texts, cut)
        self._interrupt = interrupt    # raise KeyboardInterrupt in the main thread
        self._main = main_ident
        self.cond = threading.Condition(threading.Lock())
        self.events = deque()
        self.answers = deque(maxlen=16)
        self.asking = False            # a dialog waits for its answer
        self.timers = []               # heap of (due, seq, fun)
        self.seq = 0
        self.depth = 0                 # handlers running, one inside the other
        self.loop_depth = -1           # depth at which mainloop() waits, -1 outside it
        self.closed = False            # the window was closed (close, bye, Stop in mainloop)
        self.close_queued = False
        self.stop_queued = False
        self.dispatch = None           # the screen's handler of key and mouse events
        self.on_close = None           # what the turtle module does when the window closes
        self.listening = None          # whether any key or mouse handler is set
        self.steps = None              # the recorder's step list, once the screen exists
        self.sent = 0                  # steps[:sent] went out in draw frames
        self.visible = 0               # steps[:visible] were painted and may go out
        self.charged = 0               # steps[:charged] had their waiting time counted
        self.d = {}                    # step index -> ms waited for it (not yet sent)
        self.own = {}                  # step index -> ms CPython's turtle takes for it (not yet sent)
        self.dropped = 0               # events dropped while the queue was full
        self.keys_on = False           # listen() was called: keys go to the drawing
        self.looped = False            # mainloop() said so to the host once
        self.pointing = False          # a pointer handler was set, and the host was told
        self.deaf = False              # no control pipe, or the host closed it: no event can come
        self.speed = 1.0               # the window's speed dial: turtle waits take 1/speed of CPython's time
        self.unpaced = False           # "finish now": no turtle waits for the rest of the run
        self.pace_gen = 0              # counts pace changes, so a wait under the old pace ends
        # The window's pause: the program's clock (timers, sleeps, turtle
        # waits) stands still from paused_at until resume, and no key or
        # pointer event is taken meanwhile.
        self.paused_at = None          # _clock() when the pause began; None while running
        self.paused_for = 0.0          # seconds of the pauses that ended
        # A scripted run (a timeline: a pack's check, run --events) keeps a
        # clock of its own, which moves only while the program waits: to the
        # end of the wait, or to the next timer or timeline event due before
        # it (and by POINT_S at a screen update that does not wait). The
        # program's work takes no time on it, so a timeline plays the same
        # game on any machine (docs/contracts.md §3). Its events wait, in
        # order, until the program can take them (_takes), and the rest of
        # the timeline moves by that wait.
        self.scripted = scripted
        self.vnow = 0.0                # the scripted clock (s)
        self.script = deque()          # (at s, event) of the timeline, not given yet
        self.script_done = False       # the host sent the whole timeline
        self.script_shift = 0.0        # s the timeline moved by its waits
        self.real_from = None          # (clock, _clock()) once the timeline is played: real time from then on
        self.asked = 0                 # dialogs shown
        self.answered = 0              # answers the timeline gave

    # -- the control thread
    def feed(self, ev):
        """Queue one parsed control event (called on the control thread)."""
        kind = ev[0]
        interrupt = False
        with self.cond:
            if kind == "at":
                if self.scripted and not self.script_done and len(self.script) < SCRIPT_MAX:
                    at = ev[1] if not self.script else max(ev[1], self.script[-1][0])
                    self.script.append((at, ev[2]))
                return
            if self.scripted and kind in ("pace", "finish", "pause", "resume"):
                return                     # a scripted run keeps its own clock
            if kind == "script_end":
                self.script_done = True
            elif kind in ("pace", "finish"):
                self._set_pace(ev)
            elif kind == "pause":
                if self.paused_at is None:
                    self.paused_at = _clock()
            elif kind == "resume":
                if self.paused_at is not None:
                    self.paused_for += _clock() - self.paused_at
                    self.paused_at = None
            elif kind == "stop":
                if self.loop_depth >= 0:
                    # Inside mainloop: it ends there, or in a handler's next
                    # wait; a handler that never waits is interrupted soon.
                    if not self.stop_queued:
                        self.stop_queued = True
                        self.events.append(ev)
                        if self.depth > self.loop_depth:
                            timer = threading.Timer(STOP_GRACE, self._late_stop)
                            timer.daemon = True
                            timer.start()
                else:
                    interrupt = True
            elif not self._queue(ev):
                return
            self.cond.notify_all()
        if interrupt:
            self._interrupt()

    def _queue(self, ev):
        """Queue a key, the pointer, the close or an answer (the caller holds
        cond); False when it goes to no one or is dropped."""
        kind = ev[0]
        if kind == "close":
            if not self.close_queued:
                self.close_queued = True
                self.events.append(ev)
        elif kind == "answer":
            if self.asking:
                self.answers.append(ev[1])
        elif kind == "key" and not self.keys_on:
            return False               # as with Tk: keys go elsewhere until listen()
        elif self.paused_at is not None and kind in ("key", "mouse"):
            return False               # a paused game takes no keys
        elif len(self.events) < QUEUE_MAX:
            self.events.append(ev)
        else:
            self.dropped += 1
            return False
        return True

    def _takes(self, ev):
        """Whether the program can take a timeline's event now (the caller
        holds cond), as a child in the window acts only on what it shows: a
        key once listen() was called, the pointer once a click, release or
        drag handler is set, the n-th answer once the n-th dialog asks, the
        close once it takes any of these; waiting in mainloop() takes keys,
        the pointer and the close too (docs/contracts.md §3)."""
        kind = ev[0]
        if kind == "key":
            return self.keys_on or self.looped
        if kind == "mouse":
            return self.pointing or self.looped
        if kind == "answer":
            return self.asked > self.answered
        return self.keys_on or self.pointing or self.asked > 0 or self.looped

    def _own_clock(self):
        """Whether the run is on its scripted clock: scripted, and its timeline not played out yet."""
        return self.scripted and self.real_from is None

    def _head_due(self):
        """When the timeline's next event is due, or None when there is none
        or the program cannot take it yet (the caller holds cond)."""
        if not self.script or not self._takes(self.script[0][1]):
            return None
        return self.script[0][0] + self.script_shift

    def _take_script(self):
        """A scripted run: queue the timeline's events that are due and that
        the program can take, in order (the caller holds cond)."""
        while not self.script_done:
            self._wait(WAIT_MAX)       # the host sends the whole timeline as the run starts
        while self._own_clock():
            due = self._head_due()
            if due is None or due > self.vnow:
                break
            # An event the program took late moves the rest with it.
            self.script_shift += self.vnow - due
            ev = self.script.popleft()[1]
            if ev[0] == "answer":
                self.answered += 1
            self._queue(ev)
        if not self.script and self.real_from is None:
            self.real_from = (self.vnow, _clock())

    def _idle(self, now, wake):
        """Nothing to run before wake on the program's clock (None: nothing
        is due): wait until then or until an event comes (the caller holds
        cond). A scripted run's clock moves there at once instead, or to the
        timeline's next event if it is sooner."""
        if self._own_clock():
            nxt = self._head_due()
            if nxt is not None and nxt > self.vnow and (wake is None or nxt < wake):
                wake = nxt
            if wake is not None:
                self.vnow = max(self.vnow, wake)
                return
            self._wait(WAIT_MAX)       # only a stop or the host's hanging up ends this
            return
        timeout = WAIT_MAX if wake is None else min(wake - now, WAIT_MAX)
        if timeout > 0:
            self._wait(timeout)

    def _set_pace(self, ev):
        """The speed dial moved, or "finish now" (the caller holds cond): waits under the old pace end now."""
        if self.unpaced:
            return                     # finish holds for the rest of the run
        if ev[0] == "finish":
            self.unpaced = True
        else:
            self.speed = ev[1]
        self.pace_gen += 1

    def now(self):
        """The program's clock: _clock() less the time it was paused (it stands
        still in a pause); in a scripted run, its own clock."""
        if self.scripted:
            if self.real_from is None:
                return self.vnow
            return self.real_from[0] + (_clock() - self.real_from[1])
        at = self.paused_at
        return (_clock() if at is None else at) - self.paused_for

    def _hold(self):
        """While the window pauses the program: wait (the caller holds cond) until it resumes,
        or until a stop or close is queued, which ends the pause's hold on it."""
        while self.paused_at is not None and not (self.stop_queued or self.close_queued):
            self._wait(WAIT_MAX)

    def paced(self, ms):
        """ms of CPython's turtle time at the pace the window asked for."""
        if self.unpaced:
            return 0
        return ms / self.speed

    def _late_stop(self):
        """A stop queued while a handler ran that never reached an event point: interrupt it."""
        with self.cond:
            if not self.stop_queued:
                return
            self.stop_queued = False
            try:
                self.events.remove(("stop",))
            except ValueError:
                pass
        self._interrupt()

    def hang_up(self):
        """No more control lines will come (called on the control thread, or without a pipe)."""
        with self.cond:
            self.deaf = True
            self.script_done = True    # what came is the whole timeline
            if self.paused_at is not None:
                # No resume can come any more: the program goes on.
                self.paused_for += _clock() - self.paused_at
                self.paused_at = None
            self.cond.notify_all()

    # -- drawing steps
    def attach(self, steps):
        """Stream this step list (the screen's recording) in draw frames."""
        self.steps = steps

    def charge_new(self, ms):
        """Count ms of waiting for the newest step, if none was counted for it yet."""
        steps = self.steps
        n = len(steps) if steps is not None else 0
        if n > self.charged:
            self.charged = n
            if ms > 0:
                self.own[n - 1] = self.own.get(n - 1, 0) + int(round(ms))
            ms = self.paced(ms)
            if ms > 0:
                self.d[n - 1] = self.d.get(n - 1, 0) + int(round(ms))

    def show(self):
        """Everything recorded so far was painted: it may go out."""
        if self.steps is not None:
            self.visible = len(self.steps)

    def flush(self):
        """Send the painted steps not sent yet, in frames of at most FRAME_MAX bytes."""
        steps = self.steps
        if steps is None or self.sent >= self.visible:
            return
        end = min(self.visible, len(steps))
        while self.sent < end:
            start = self.sent
            chunk = steps[start:min(end, start + 4096)]
            texts, _ = self._step_texts(chunk, FRAME_MAX - 64)
            out = self._with_ms(texts, start)
            if not out:
                # One step larger than a frame: it comes only with the result.
                self.sent = start + 1
                self.d.pop(start, None)
                self.own.pop(start, None)
                continue
            self.sent = start + len(out)
            self._send_text('{"type":"draw","from":%d,"steps":[%s]}' % (start, ",".join(out)))

    def _with_ms(self, texts, start):
        """The step texts with their times added (ms: waited in this run; d: CPython's own), as many as fit in one frame (UTF-8 bytes)."""
        d = self.d
        own = self.own
        out = []
        size = 64
        steps = self.steps
        for j, text in enumerate(texts):
            ms = d.get(start + j, 0)
            if steps[start + j][0] == "dot":      # a dot's d is its diameter
                text = '%s,"ms":%d}' % (text[:-1], ms)
            else:
                text = '%s,"ms":%d,"d":%d}' % (text[:-1], ms, own.get(start + j, 0))
            size += len(text.encode("utf-8")) + 1
            if size > FRAME_MAX:
                break
            out.append(text)
        for j in range(len(out)):
            d.pop(start + j, None)
            own.pop(start + j, None)
        return out

    def finish(self):
        """Before the result: everything recorded goes out."""
        try:
            self.show()
            self.flush()
        except Exception:
            pass

    def send(self, obj):
        """A live frame other than draw, after the steps painted before it."""
        self.flush()
        self._send(obj)

    # -- waiting and event points
    def tick(self, delay_ms):
        """One screen update under tracer(1): paint, an event point, then wait delay_ms at the window's pace."""
        self.charge_new(delay_ms)
        self.show()
        if self.paced(delay_ms) > 0:
            self._paced_wait(delay_ms)
        else:
            self.point()

    def _paced_wait(self, delay_ms):
        """Wait delay_ms at the window's pace; a new pace retimes the wait at once (finish ends it)."""
        start = self.now()
        while True:
            gen = self.pace_gen
            self.wait_until(start + self.paced(delay_ms) / 1000.0, until=lambda: self.pace_gen != gen)
            if self.pace_gen == gen:
                return

    def repaint(self):
        """A repaint without a wait (tracer(n), update()): paint, then an event point."""
        self.charge_new(0)
        self.show()
        self.point()

    def point(self):
        """An event point: send what was painted and run the handlers that are due."""
        if self._own_clock():
            with self.cond:
                self.vnow += POINT_S
        self.flush()
        self.run_ready()

    def wait_until(self, deadline, until=None):
        """Wait until deadline (None: for ever) or until() is true, running handlers as their events come."""
        while True:
            self.flush()
            self.run_ready()
            if until is not None and until():
                return
            with self.cond:
                if self.paused_at is not None:
                    self._hold()
                    continue
                now = self.now()
                if deadline is not None and now >= deadline:
                    return
                if self.events and self.depth < NEST_MAX:
                    continue
                wake = deadline
                if self.timers and self.depth < NEST_MAX:
                    wake = self.timers[0][0] if wake is None else min(wake, self.timers[0][0])
                self._idle(now, wake)

    def _wait(self, timeout):
        """Wait on the queue's condition (held by the caller) for at most timeout seconds.

        Stop interrupts the wait; the KeyboardInterrupt is raised again here,
        so the child's traceback ends at its own line, not inside threading.
        """
        try:
            self.cond.wait(timeout)
        except KeyboardInterrupt:
            raise KeyboardInterrupt from None

    def sleep(self, secs):
        """time.sleep for live runs: as long as asked, handlers running meanwhile."""
        if threading.get_ident() != self._main:
            return _real_sleep(secs)
        if isinstance(secs, bool) or not isinstance(secs, (int, float)):
            if not hasattr(secs, "__float__") and not hasattr(secs, "__index__"):
                raise TypeError("'%s' object cannot be interpreted as an integer"
                                % type(secs).__name__)
            secs = float(secs)
        if secs != secs:
            raise ValueError("Invalid value NaN (not a number)")
        if secs < 0:
            raise ValueError("sleep length must be non-negative")
        self.wait_until(self.now() + min(float(secs), 1e9))

    def _over(self):
        """Whether mainloop() is over: the window closed, or nothing could happen any more."""
        if self.closed:
            return True
        with self.cond:
            if self.timers or self.stop_queued or self.close_queued:
                return False
        if self.deaf:
            return True
        return not (self.listening is not None and self.listening())

    def mainloop(self):
        """Wait for events until the window closes (close, bye, Stop here) or nothing could happen."""
        self.show()
        if self.closed:
            self.flush()
            return
        with self.cond:
            saved = self.loop_depth
            self.loop_depth = self.depth
        try:
            if not self.looped:
                # The program now only waits (a Stop from here on ends the
                # loop): a scripted key, click or close that waits for it
                # (listen(), a handler) need not wait longer.
                with self.cond:
                    self.looped = True
                self.send({"type": "loop"})
            self.wait_until(None, until=self._over)
        finally:
            with self.cond:
                self.loop_depth = saved

    def pointer_bound(self):
        """A click, release or drag handler is set: a scripted click or drag
        that waits for it may come, and the host hears it once."""
        if not self.pointing:
            with self.cond:
                self.pointing = True
            self.send({"type": "pointer"})

    def ask(self, frame):
        """Show a dialog and wait for its answer (text, or None when cancelled)."""
        with self.cond:
            self.answers.clear()
            self.asking = True
            self.asked += 1
        try:
            self.send(frame)
            while True:
                with self.cond:
                    if self.answers:
                        return self.answers.popleft()
                self.run_ready(modal=True)
                if self.closed:
                    return None
                with self.cond:
                    if self.answers or (self.events and self.depth < NEST_MAX):
                        continue
                    wake = None                # a pause: the timers wait for the resume
                    if self.paused_at is None and self.timers and self.depth < NEST_MAX:
                        wake = self.timers[0][0]
                    self._idle(self.now(), wake)
        finally:
            with self.cond:
                self.asking = False

    def close(self):
        """The window is closed: mainloop() returns and turtle calls end the program."""
        if self.closed:
            return
        self.closed = True
        if self.on_close is not None:
            self.on_close()

    # -- timers
    def add_timer(self, fun, ms):
        """Call fun() at the first event point ms milliseconds from now; False when too many wait."""
        with self.cond:
            if len(self.timers) >= TIMERS_MAX:
                return False
            self.seq += 1
            due = self.now() + max(0.0, float(ms)) / 1000.0
            heapq.heappush(self.timers, (due, self.seq, fun))
        return True

    # -- running handlers
    def run_ready(self, modal=False):
        """Run the events queued and the timers due now, each handler to its end."""
        if self.depth >= NEST_MAX:
            return
        with self.cond:
            if self.scripted:
                self._take_script()
            n_events = len(self.events)
            last_seq = self.seq
        now = self.now()
        while True:
            with self.cond:
                ev = fun = None
                if n_events > 0 and self.events:
                    n_events -= 1
                    ev = self.events.popleft()
                    if ev[0] == "close":
                        self.close_queued = False
                    elif ev[0] == "stop":
                        self.stop_queued = False
                elif self.timers and self.timers[0][0] <= now and self.timers[0][1] <= last_seq:
                    fun = heapq.heappop(self.timers)[2]
                else:
                    return
                self.depth += 1
            try:
                if fun is not None:
                    fun()
                else:
                    self.handle(ev, modal)
            finally:
                with self.cond:
                    self.depth -= 1

    def handle(self, ev, modal):
        """Deliver one queued event."""
        kind = ev[0]
        if kind == "close":
            self.close()
        elif kind == "stop":
            if self.loop_depth >= 0 and self.depth - 1 == self.loop_depth:
                self.close()
            else:
                raise KeyboardInterrupt
        elif not modal and self.dispatch is not None and not self.closed:
            self.dispatch(ev)
