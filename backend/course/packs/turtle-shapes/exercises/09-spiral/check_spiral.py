import math

lengths = [math.hypot(x2 - x1, y2 - y1) for x1, y1, x2, y2, colour in segments()]
assert len(lengths) >= 30, "只画了 %d 条线 / only %d lines" % (len(lengths), len(lengths))
for n in range(1, len(lengths)):
    assert lengths[n] > lengths[n - 1], "第 %d 条线没有比第 %d 条长 / line %d is not longer than line %d" % (n + 1, n, n + 1, n)
