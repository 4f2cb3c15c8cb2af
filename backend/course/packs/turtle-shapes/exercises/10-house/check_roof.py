tops = [max(y1, y2) for x1, y1, x2, y2, colour in segments()]
assert tops and max(tops) > 150, "屋顶的尖没有高过墙 / the roof's tip is not above the walls"
