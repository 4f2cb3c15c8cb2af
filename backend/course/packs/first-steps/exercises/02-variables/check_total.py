assert "total" in child, "没有叫 total 的变量 / there is no variable called total"
assert child["total"] == 12, "total 是 %r，不是 12 / total is %r, not 12" % (child["total"], child["total"])
