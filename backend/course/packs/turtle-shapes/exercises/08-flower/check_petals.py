xs = [x for x1, y1, x2, y2, colour in segments() for x in (x1, x2)]
ys = [y for x1, y1, x2, y2, colour in segments() for y in (y1, y2)]
assert xs, "海龟没有画线 / the turtle drew no lines"
wide, high = max(xs) - min(xs), max(ys) - min(ys)
assert wide > 180 and high > 180, "花只有 %d × %d 那么大 / the flower is only %d × %d" % (wide, high, wide, high)
