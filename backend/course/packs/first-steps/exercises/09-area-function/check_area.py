area = child.get("area")
assert callable(area), "没有 area 函数 / there is no area function"
got = area(7, 8)
assert got == 56, "area(7, 8) 返回了 %r，应该是 56 / area(7, 8) returned %r, not 56" % (got, got)
got = area(10, 2)
assert got == 20, "area(10, 2) 返回了 %r，应该是 20 / area(10, 2) returned %r, not 20" % (got, got)
