"""Today's benchmark figures beside the last closing note's.

scripts/bench-last.tsv holds the figures the last note gave (key, figure,
unit, target); scripts/bench.sh measures, and for each figure calls

    benchfig.py show NOW.tsv KEY VALUE LABEL
    benchfig.py go   NOW.tsv GO-BENCH-OUTPUT BENCH UNIT KEY LABEL   (ns/op in ms)
    benchfig.py line NOW.tsv OUTPUT NAME KEY LABEL   (a "BENCH NAME VALUE UNIT" line)

or imports show() from a snippet that computes a ratio. Each prints the figure beside the note's and its target, flags one that
is more than 10% worse than the note's, and records it in NOW.tsv. At the
end of a run with --update,

    benchfig.py update NOW.tsv

writes today's figures into bench-last.tsv for the next note; keys not
measured today keep the note's figure.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAST = os.path.join(HERE, "bench-last.tsv")

# Worse by more than this fraction of the note's figure is flagged.
TOLERANCE = 0.10


def read_last(path=LAST):
    """The note's figures: key -> (figure or None, unit, target), in file order."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            key, figure, unit, target = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
            rows[key] = (None if figure in ("", "-") else float(figure), unit, target)
    return rows


def higher_is_better(target):
    return target.startswith(">=")


def target_met(value, target):
    op, _, bound = target.partition(" ")
    if op not in ("<=", ">="):
        return None
    bound = float(bound)
    return value <= bound if op == "<=" else value >= bound


def fmt(value, unit):
    text = "%.3g" % value if abs(value) < 10 else "%.1f" % value
    return text + ("x" if unit == "x" else " " + unit)


def show(now_path, key, value, label):
    rows = read_last()
    if key not in rows:
        sys.exit("benchfig: %s is not in %s" % (key, LAST))
    last, unit, target = rows[key]
    value = float(value)
    parts = ["last note: " + (fmt(last, unit) if last is not None else "none")]
    if target == "ref":
        parts.append("reference: slower means a busier machine")
    elif target not in ("", "-"):
        parts.append("target " + target + ("x" if unit == "x" else " " + unit))
    line = "%s: now %s (%s)" % (label, fmt(value, unit), ", ".join(parts))
    met = target_met(value, target)
    if met is False:
        line += " -- target missed"
    if last and target != "ref":
        worse = (last - value) / last if higher_is_better(target) else (value - last) / last
        if worse > TOLERANCE:
            line += "  <<< WORSE by %d%% than the last note" % round(worse * 100)
    print(line, flush=True)
    with open(now_path, "a", encoding="utf-8") as f:
        f.write("%s\t%.6g\n" % (key, value))


def go_metric(path, bench, unit):
    """A metric of one Go benchmark in `go test -bench` output (ns/op in ms)."""
    pat = re.compile(r"^Benchmark%s(-\d+)?\s.*?([0-9.e+]+) %s(\s|$)" % (re.escape(bench), re.escape(unit)), re.M)
    m = pat.search(open(path, encoding="utf-8").read())
    if not m:
        sys.exit("benchfig: no %s for Benchmark%s in %s" % (unit, bench, path))
    value = float(m.group(2))
    return value / 1e6 if unit == "ns/op" else value


def bench_line(path, name):
    """The figure of a "BENCH name value unit" line."""
    m = re.search(r"^BENCH %s ([0-9.e+]+)" % re.escape(name), open(path, encoding="utf-8").read(), re.M)
    if not m:
        sys.exit("benchfig: no BENCH %s in %s" % (name, path))
    return float(m.group(1))


def update(now_path):
    now = {}
    with open(now_path, encoding="utf-8") as f:
        for line in f:
            key, value = line.rstrip("\n").split("\t")
            now[key] = value
    out = []
    with open(LAST, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if line.startswith("#") or not line.strip() or cols[0] not in now:
                out.append(line)
                continue
            cols[1] = now[cols[0]]
            out.append("\t".join(cols) + "\n")
    with open(LAST + ".tmp", "w", encoding="utf-8") as f:
        f.writelines(out)
    os.replace(LAST + ".tmp", LAST)
    print("wrote %d figures into %s" % (len(now), os.path.relpath(LAST)))


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if cmd == "show" and len(args) == 4:  # NOW.tsv KEY VALUE LABEL
        show(*args)
    elif cmd == "go" and len(args) == 6:  # NOW.tsv OUTPUT BENCH UNIT KEY LABEL
        now, out, bench, unit, key, label = args
        show(now, key, go_metric(out, bench, unit), label)
    elif cmd == "line" and len(args) == 5:  # NOW.tsv OUTPUT NAME KEY LABEL
        now, out, name, key, label = args
        show(now, key, bench_line(out, name), label)
    elif cmd == "update" and len(args) == 1:  # NOW.tsv
        update(args[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
