"""Regenerate fidelity/NAME.expected by running each fidelity program (fidelity/NAME.py
and the corpus programs that use turtle) with CPython's real turtle.

Needs python3-tk and a display: run under xvfb-run, or with DISPLAY set to a
running Xvfb (this script starts `Xvfb :99` itself when DISPLAY is unset).
The programs run with tracer(0) so that no animation slows them down; the
event loop functions return at once as they do in the classroom.

A game (NAME.py with a timeline NAME.events) runs as written, with real
pacing and the real event loop: each event of the timeline is generated in
Tk at its at_ms (keys on the canvas, which has the focus after listen();
clicks at the canvas pixel of the given world point; close as the window
manager's close button). Besides NAME.expected this writes NAME.sync, the
number of lines printed when each event was generated, which the live test
waits for before it sends that event.
"""

import os
import shutil
import subprocess
import sys
import time

import harness  # noqa: E402  (the list of programs, shared with the test)

FIDELITY = harness.FIDELITY

PRELUDE = r'''
import sys, turtle
turtle.TurtleScreen.mainloop = lambda self: None
turtle.mainloop = turtle.done = lambda: None
turtle._Screen.exitonclick = lambda self: None
turtle.exitonclick = lambda: None
turtle.Screen().tracer(0)
path = sys.argv[1]
sys.argv = [path]
code = compile(open(path, encoding="utf-8").read(), path, "exec")
exec(code, {"__name__": "__main__"})
'''


GAME_PRELUDE = r'''
import json, sys, tkinter, turtle
path, events_path, sync_path = sys.argv[1:4]
sys.path.insert(0, sys.argv[4])
import harness
events = harness.read_timeline(events_path)
sys.argv = [path]


class Counting(object):
    """stdout, counting the lines written."""
    def __init__(self, out):
        self.out, self.lines = out, 0
    def write(self, text):
        self.lines += text.count(chr(10))
        return self.out.write(text)
    def flush(self):
        self.out.flush()


sys.stdout = counting = Counting(sys.stdout)
screen = turtle.Screen()
canvas = screen.cv._canvas
root = canvas.winfo_toplevel()
sync = []
closed = [False]


def pixel(x, y):
    return (round(x * screen.xscale - canvas.canvasx(0)),
            round(-y * screen.yscale - canvas.canvasy(0)))


def fire(ev):
    sync.append(counting.lines)
    kind = ev["type"]
    if kind in ("key", "keydown"):
        canvas.event_generate("<KeyPress-%s>" % ev["key"], when="tail")
    if kind in ("key", "keyup"):
        canvas.event_generate("<KeyRelease-%s>" % ev["key"], when="tail")
    if kind == "click":
        x, y = pixel(ev["x"], ev["y"])
        b = ev.get("button", 1)
        canvas.event_generate("<Motion>", x=x, y=y, when="tail")
        canvas.event_generate("<ButtonPress-%d>" % b, x=x, y=y, when="tail")
        canvas.event_generate("<ButtonRelease-%d>" % b, x=x, y=y, when="tail")
    if kind == "close":
        closed[0] = True
        screen._destroy()


for ev in events:
    root.after(ev["at_ms"], fire, ev)
code = compile(open(path, encoding="utf-8").read(), path, "exec")
try:
    exec(code, {"__name__": "__main__"})
except (turtle.Terminator, tkinter.TclError):
    if not closed[0]:
        raise
sys.stdout.flush()
with open(sync_path, "w") as f:
    json.dump(sync, f)
'''


def start_display():
    if os.environ.get("DISPLAY"):
        return None
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        sys.exit("no DISPLAY and no Xvfb: install xvfb or run under xvfb-run")
    proc = subprocess.Popen([xvfb, ":99", "-screen", "0", "1280x1024x24"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.environ["DISPLAY"] = ":99"
    for _ in range(50):
        if os.path.exists("/tmp/.X11-unix/X99"):
            break
        time.sleep(0.1)
    return proc


def main():
    xvfb = start_display()
    try:
        only = set(sys.argv[1:])     # NAMEs to regenerate; none: all of them
        for name, prog in harness.fidelity_programs():
            if only and name not in only:
                continue
            events = harness.game_timeline(prog)
            if events is None:
                cmd = [sys.executable, "-c", PRELUDE, prog]
            else:
                cmd = [sys.executable, "-c", GAME_PRELUDE, prog, events,
                       os.path.join(FIDELITY, name + ".sync"), harness.HERE]
            p = subprocess.run(cmd, cwd=FIDELITY,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            if p.returncode != 0:
                sys.stderr.write("%s failed:\n%s\n" % (name, p.stderr.decode()))
                continue
            with open(os.path.join(FIDELITY, name + ".expected"), "wb") as f:
                f.write(p.stdout)
            print("wrote", name + ".expected")
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()


if __name__ == "__main__":
    main()
