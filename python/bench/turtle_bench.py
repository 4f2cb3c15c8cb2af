"""Benchmark: a 200,000-step turtle program, end to end, against CPython's real turtle.

Ours: kidrunner.py runs the program (recording), renders the SVG and sends
the result frame. Real: CPython's turtle with tracer(0) under Xvfb, ending
with update() so the drawing is on the canvas. Prints the median wall time
of each, the ratio (target: ours <= 1/4 of the real one) and the SVG bytes
per step. Needs python3-tk and Xvfb (started here when DISPLAY is unset).

    /usr/bin/python3 python/bench/turtle_bench.py [--steps N] [--runs K]
        [--replay-steps BYTES | --kidcoder BIN [--plain]]
"""

import argparse
import base64
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(os.path.dirname(HERE), "kidrunner.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

PROGRAM = """import turtle
t = turtle.Turtle()
turtle.tracer(0)
for i in range({n}):
    t.forward(i % 50 + 1)
    t.left(61)
turtle.update()
print(t.pos())
"""


def run_ours(path, replay_steps=0):
    fr, fw = os.pipe()
    start = time.perf_counter()
    p = subprocess.Popen([PYTHON, "-I", "-X", "utf8", "-B", RUNNER, "--lang", "en",
                          "--frames", str(fw), "--replay-steps", str(replay_steps), "--", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         pass_fds=(fw,))
    os.close(fw)
    chunks = []

    def read():
        while True:
            b = os.read(fr, 1 << 20)
            if not b:
                return
            chunks.append(b)
    t = threading.Thread(target=read)
    t.start()
    out, err = p.communicate()
    t.join()
    elapsed = time.perf_counter() - start
    os.close(fr)
    if p.returncode != 0:
        raise SystemExit("runner failed: %s" % err.decode())
    buf = b"".join(chunks)
    result = None
    while buf:
        n = struct.unpack(">I", buf[:4])[0]
        frame = json.loads(buf[4:4 + n])
        buf = buf[4 + n:]
        if frame["type"] == "result":
            result = frame
    svg = base64.b64decode(result["images"][0]["data"])
    return elapsed, len(svg), len(json.dumps(result))


def run_cli(kidcoder, path, plain=False):
    """End to end, as a child's run is: the CLI, the sandbox, the runner, the JSON result
    (plain: the printed output, as in a terminal)."""
    start = time.perf_counter()
    p = subprocess.run([kidcoder, "run"] + ([] if plain else ["--json"]) + ["--timeout", "300", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if plain:
        if p.returncode != 0:
            raise SystemExit("kidcoder run failed: %s" % p.stderr.decode())
        return elapsed, 0, len(p.stdout)
    result = json.loads(p.stdout)
    if result["status"] != "ok":
        raise SystemExit("kidcoder run failed: %s %s" % (result["status"], result.get("error")))
    svg = base64.b64decode(result["images"][0]["data"])
    return elapsed, len(svg), len(p.stdout)


def run_real(path):
    start = time.perf_counter()
    p = subprocess.run([PYTHON, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit("real turtle failed: %s" % p.stderr.decode())
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--kidcoder", help="time `kidcoder run --json` (sandboxed, end to end) instead of the bare runner")
    ap.add_argument("--plain", action="store_true", help="with --kidcoder: time `kidcoder run` without --json")
    ap.add_argument("--replay-steps", type=int, default=0, metavar="BYTES",
                    help="the bare runner's --replay-steps (default 0, as `kidcoder run` asks)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    xvfb = None
    try:
        path = os.path.join(tmp, "bench.py")
        with open(path, "w") as f:
            f.write(PROGRAM.format(n=args.steps))
        if not os.environ.get("DISPLAY"):
            xvfb = subprocess.Popen(["Xvfb", ":98", "-screen", "0", "1280x1024x24"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.environ["DISPLAY"] = ":98"
            for _ in range(50):
                if os.path.exists("/tmp/.X11-unix/X98"):
                    break
                time.sleep(0.1)
        ours, svg_bytes, frame_bytes = [], 0, 0
        real = []
        for _ in range(args.runs):
            if args.kidcoder:
                e, svg_bytes, frame_bytes = run_cli(args.kidcoder, path, args.plain)
            else:
                e, svg_bytes, frame_bytes = run_ours(path, args.replay_steps)
            ours.append(e)
            real.append(run_real(path))
        mo, mr = statistics.median(ours), statistics.median(real)
        moves = args.steps
        print("steps (forward+left): %d" % moves)
        what = "kidcoder run --json, sandboxed" if args.kidcoder else "runner: record + SVG + result frame"
        if args.kidcoder and args.plain:
            what = "kidcoder run, sandboxed"
        print("ours (%s): median %.3f s" % (what, mo))
        print("CPython turtle, tracer(0), Xvfb:    median %.3f s" % mr)
        print("ratio ours/real: %.2f (target <= 0.25)" % (mo / mr))
        if not args.plain:
            print("SVG: %d bytes, %.2f bytes per step; result frame %d bytes" %
                  (svg_bytes, svg_bytes / float(moves), frame_bytes))
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
