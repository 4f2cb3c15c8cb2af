#!/usr/bin/env bash
# Benchmarks, side by side in one run. Figures are medians of repeated runs.
# Each figure is printed beside the one the last closing note gave
# (scripts/bench-last.tsv) and its target; one more than 10% worse than the
# note's is flagged "<<< WORSE". With --update, the run's figures are
# written into scripts/bench-last.tsv for the next note (make bench
# BENCH_ARGS=--update).
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
case "${1:-}" in
  --update) update=1 ;;
  "") ;;
  *) echo "usage: scripts/bench.sh [--update]" >&2; exit 2 ;;
esac
PY=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now="$tmp/now.tsv"
: > "$now"
printf 'print("hello")\n' > "$tmp/hello.py"
# fig KEY VALUE LABEL; gofig OUTPUT BENCH UNIT KEY LABEL; benchline OUTPUT NAME KEY LABEL
fig() { $PY scripts/benchfig.py show "$now" "$@"; }
gofig() { $PY scripts/benchfig.py go "$now" "$@"; }
benchline() { $PY scripts/benchfig.py line "$now" "$@"; }

echo "== kidcoder run hello.py vs python3 -I hello.py (target: at most 1.5x)"
build/bin/kidcoder selftest >/dev/null   # the verdict is cached before timing
hyperfine -N --warmup 3 --runs 30 --export-json "$tmp/h.json" \
  "build/bin/kidcoder run $tmp/hello.py" "$PY -I $tmp/hello.py" | grep -v '^ *Range'
$PY - "$tmp/h.json" "$now" <<'PYEOF'
import json, sys
sys.path.insert(0, "scripts")
from benchfig import show
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["median"] * 1000, r[1]["median"] * 1000
show(sys.argv[2], "hello_run_ms", a, "kidcoder run hello.py, median")
show(sys.argv[2], "hello_python_ms", b, "python3 -I hello.py, median")
show(sys.argv[2], "hello_ratio", a / b, "kidcoder run / python3 -I")
PYEOF

echo
echo "== step by step: a 100,000-line loop, kidcoder run --trace OUT.jsonl vs kidcoder run (target: at most 3x)"
echo "   the two alternate, 15 runs each, so a machine getting busier weighs on both alike"
printf 'total = 0\nfor i in range(49998):\n    total += i\nprint(total)\n' > "$tmp/loop.py"
$PY - build/bin/kidcoder "$tmp/loop.py" "$tmp/loop.jsonl" "$now" <<'PYEOF'
import os, statistics, subprocess, sys, time
sys.path.insert(0, "scripts")
from benchfig import show
kc, prog, out, now = sys.argv[1:]
def once(args):
    t = time.perf_counter()
    subprocess.run([kc, "run"] + args + [prog], check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - t) * 1000
traced, plain = [], []
for i in range(17):
    a, b = once(["--trace", out]), once([])
    if i >= 2:  # two to warm up
        traced.append(a)
        plain.append(b)
t, p = statistics.median(traced), statistics.median(plain)
steps = sum(1 for _ in open(out, encoding="utf-8"))
show(now, "trace_loop_ms", t, "kidcoder run --trace, %d steps, median" % steps)
show(now, "trace_loop_plain_ms", p, "kidcoder run, the same loop, median")
show(now, "trace_ratio", t / p, "traced / untraced")
show(now, "trace_jsonl_mb", os.path.getsize(out) / 1e6, "the trace's JSONL")
PYEOF

echo
echo "== run_python hello round trip within one kidcoder mcp session vs kidcoder run hello.py (target: at most 1.2x)"
echo "   apart: 300 ms between calls, as a tutor's come; back-to-back: the next call at once"
KIDCODER_BIN="$PWD/build/bin/kidcoder" go test -run '^$' -bench BenchmarkMCPHello -benchtime 30x ./backend/mcpserver/ |
  tee "$tmp/mcp.txt" | grep '^Benchmark'
$PY - "$tmp/h.json" "$tmp/mcp.txt" "$now" <<'PYEOF'
import json, sys
sys.path.insert(0, "scripts")
from benchfig import go_metric, show
r = json.load(open(sys.argv[1]))["results"]
run, bare = r[0]["median"] * 1000, r[1]["median"] * 1000
for name, key in (("apart", "mcp_apart"), ("back-to-back", "mcp_back_to_back")):
    ms = go_metric(sys.argv[2], "MCPHello/" + name, "median-ms")
    show(sys.argv[3], key + "_ms", ms, "run_python %s, median" % name)
    show(sys.argv[3], key + "_vs_run", ms / run, "run_python %s / kidcoder run" % name)
    show(sys.argv[3], key + "_vs_python", ms / bare, "run_python %s / python3 -I (warm-sandbox target; moonshot 0.5x)" % name)
PYEOF

echo
echo "== warm runs in the engine: hello and the corpus's two-figure plot, each run finding the warm sandbox ready,"
echo "   beside a cold run and bare python3 (the plot saved with savefig); targets: hello <= 1.0x, plot <= 0.8x, cold plot <= 1.5x"
go test -run '^$' -bench 'Benchmark(Warm|Cold|BarePython)(Hello|Plot)$' -benchtime 15x ./backend/kidrun/ |
  tee "$tmp/warm.txt" | grep '^Benchmark'
$PY - "$tmp/warm.txt" "$now" <<'PYEOF'
import sys
sys.path.insert(0, "scripts")
from benchfig import go_metric, show
out, now = sys.argv[1:]
for what in ("Hello", "Plot"):
    key = what.lower()
    bare = go_metric(out, "BarePython" + what, "ns/op")
    for kind in ("Warm", "Cold"):
        ms = go_metric(out, kind + what, "ns/op")
        show(now, "%s_%s_ms" % (kind.lower(), key), ms, "%s %s in the engine" % (kind.lower(), key))
        show(now, "%s_%s_ratio" % (kind.lower(), key), ms / bare, "%s %s / bare python3" % (kind.lower(), key))
    show(now, "bare_%s_ms" % key, bare, "bare python3 %s" % key)
PYEOF

echo
echo "== resident memory of an idle warm sandbox (targets: 40 MiB, 120 MiB with matplotlib)"
go test -run '^$' -bench 'BenchmarkWarmIdleMemory' -benchtime 1x ./backend/kidrun/ | tee "$tmp/mem.txt" | grep '^Benchmark'
gofig "$tmp/mem.txt" WarmIdleMemory MiB-idle-warm idle_warm_mib "idle warm sandbox"
gofig "$tmp/mem.txt" WarmIdleMemory MiB-idle-warm-matplotlib idle_warm_matplotlib_mib "idle warm sandbox with matplotlib"

echo
echo "== click on Run to the first output line on screen, real window under Xvfb (target: median <= 50 ms)"
go test -tags e2e -run '^$' -bench BenchmarkClickToOutput -benchtime 15x ./e2e/ | tee "$tmp/click.txt" | grep '^Benchmark'
gofig "$tmp/click.txt" ClickToOutput ms-click-to-output-median click_to_output_median_ms "click to output, median"
gofig "$tmp/click.txt" ClickToOutput ms-click-to-output-p90 click_to_output_p90_ms "click to output, p90"

if [ -f python/bench/turtle_bench.py ]; then
  echo
  echo "== 200,000-step turtle program: kidcoder run, and with --json (sandboxed, SVG included), vs CPython turtle with tracer(0) under Xvfb (target: at most 0.25x each)"
  $PY python/bench/turtle_bench.py --kidcoder build/bin/kidcoder --plain --runs 3 | tee "$tmp/turtle-run.txt"
  $PY python/bench/turtle_bench.py --kidcoder build/bin/kidcoder --runs 3 | tee "$tmp/turtle-json.txt"
  $PY - "$tmp/turtle-run.txt" "$tmp/turtle-json.txt" "$now" <<'PYEOF'
import re, sys
sys.path.insert(0, "scripts")
from benchfig import show
plain, js, now = sys.argv[1:]
def figures(path):
    text = open(path).read()
    ours = float(re.search(r"^ours \(.*\): median ([0-9.]+) s", text, re.M).group(1))
    real = float(re.search(r"^CPython turtle.*median ([0-9.]+) s", text, re.M).group(1))
    return ours, real
ours, real = figures(plain)
show(now, "turtle_run_ratio", ours / real, "kidcoder run / CPython turtle")
ours, real2 = figures(js)
show(now, "turtle_run_json_ratio", ours / real2, "kidcoder run --json / CPython turtle")
show(now, "turtle_run_json_s", ours, "kidcoder run --json, median")
show(now, "turtle_cpython_s", (real + real2) / 2, "CPython turtle, median")
PYEOF
fi

if [ -f e2e/startup_bench_test.go ]; then
  echo
  echo "== app start-up, medians of 5 launches: first star ink on screen (target: within 1.0 s), whole star, and resident memory (warm sandbox included)"
  go test -tags e2e -run '^$' -bench BenchmarkStartup -benchtime 5x ./e2e/ | tee "$tmp/startup.txt"
  gofig "$tmp/startup.txt" Startup ms-to-first-star-ink star_first_ink_ms "first star ink"
  gofig "$tmp/startup.txt" Startup ms-to-whole-star star_whole_ms "whole star"
  gofig "$tmp/startup.txt" Startup ms-to-window star_window_ms "window on screen"
  gofig "$tmp/startup.txt" Startup MiB-resident startup_resident_mib "resident memory after start-up"
fi

echo
echo "== live game in the real window: arrow key to visibly moved turtle (target: median <= 50 ms), and Stop to the game's end"
go test -tags e2e -run '^$' -bench BenchmarkKeyToMove -benchtime 20x ./e2e/ | tee "$tmp/key.txt"
gofig "$tmp/key.txt" KeyToMove ms-key-to-move-median key_to_move_median_ms "key to moved turtle, median"
gofig "$tmp/key.txt" KeyToMove ms-stop-to-end stop_to_end_ms "Stop to the game's end"

echo
echo "== live drawing in headless Chromium: frames per second with 5,000 segments on screen while a step animates (target: 60 fps)"
node e2e/browser/live_bench.mjs 3 | tee "$tmp/fps.txt"
benchline "$tmp/fps.txt" live_fps_5000_dpr1 live_fps_dpr1 "live drawing at dpr 1"
benchline "$tmp/fps.txt" live_fps_5000_dpr2 live_fps_dpr2 "live drawing at dpr 2"

echo
echo "== key press to moved turtle through the dev server in headless Chromium (the real window's figure is above)"
node e2e/browser/real_key_latency.mjs | tee "$tmp/browserkey.txt"
benchline "$tmp/browserkey.txt" live_key_latency_median browser_key_latency_median_ms "key to moved turtle in Chromium, median"

echo
echo "== typing during a flood in the real window: a letter typed into the editor while a program prints 100,000 lines, key press to on screen (target: within 100 ms), next to the idle window"
go test -tags e2e -run '^$' -bench BenchmarkFloodEcho -benchtime 3x ./e2e/ | tee "$tmp/flood.txt"
gofig "$tmp/flood.txt" FloodEcho ms-echo-median flood_echo_median_ms "echo during a flood, median"
gofig "$tmp/flood.txt" FloodEcho ms-echo-max flood_echo_max_ms "echo during a flood, worst"
gofig "$tmp/flood.txt" FloodEcho ms-echo-idle flood_echo_idle_ms "echo in the idle window"

echo
echo "== the window keeps the CPU: a normal program's busy loop beside four sandboxed busy loops, its CPU over its wall time (target: at least 80%),"
echo "   on every core and on one (taskset -c 0, where only the runs' CPU weight holds them back); each round measures it alone first"
go test -run '^$' -bench BenchmarkNormalShareBesideLoops -benchtime 3x ./sandbox/ | tee "$tmp/share.txt" | grep '^Benchmark'
taskset -c 0 go test -run '^$' -bench BenchmarkNormalShareBesideLoops -benchtime 3x ./sandbox/ | tee "$tmp/share1.txt" | grep '^Benchmark'
gofig "$tmp/share.txt" NormalShareBesideLoops %-normal-share normal_share_pct "normal program beside 4 runs, median"
gofig "$tmp/share.txt" NormalShareBesideLoops %-normal-share-alone normal_share_alone_pct "the same program alone"
gofig "$tmp/share.txt" NormalShareBesideLoops runs-cores runs_cores "the 4 runs together"
gofig "$tmp/share1.txt" NormalShareBesideLoops %-normal-share normal_share_one_core_pct "on one core: normal program beside 4 runs"
gofig "$tmp/share1.txt" NormalShareBesideLoops %-normal-share-alone normal_share_one_core_alone_pct "on one core: the same program alone"

if [ "$update" = 1 ]; then
  echo
  $PY scripts/benchfig.py update "$now"
fi
