import math

lines = segments()
assert lines, "海龟没有画线 / the turtle drew no lines"
for x1, y1, x2, y2, colour in lines:
    size = math.hypot(x2 - x1, y2 - y1)
    assert abs(size - 150) < 1, "有一条边长 %d，不是 150 / a side is %d long, not 150" % (round(size), round(size))
