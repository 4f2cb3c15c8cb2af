"""Regenerate fidelity/NAME.expected by running each fidelity program (fidelity/NAME.py
and the corpus programs that use turtle) with CPython's real turtle.

Needs python3-tk and a display: run under xvfb-run, or with DISPLAY set to a
running Xvfb (this script starts `Xvfb :99` itself when DISPLAY is unset).
The programs run with tracer(0) so that no animation slows them down; the
event loop functions return at once as they do in the classroom.
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
        for name, prog in harness.fidelity_programs():
            p = subprocess.run([sys.executable, "-c", PRELUDE, prog], cwd=FIDELITY,
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
