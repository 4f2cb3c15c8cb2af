# Relative paths out of the scratch dir end on read-only ground.
# expect-status: ok
# expect-stdout: BLOCKED
hits = []
for p in ["../x", "../../x", "../../../../../../x", "../../etc/x", "/tmp/../x", "/kid/home/../x"]:
    try:
        open(p, "w").write("escaped")
        hits.append(p)
    except OSError:
        pass
print("WROTE %s" % hits if hits else "BLOCKED")
