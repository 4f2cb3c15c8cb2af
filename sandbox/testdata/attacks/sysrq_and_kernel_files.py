# Kernel control files are not writable.
# expect-status: ok
# expect-stdout: BLOCKED
wrote = []
for p in ["/proc/sysrq-trigger", "/proc/sys/kernel/hostname", "/proc/self/oom_score_adj"]:
    try:
        with open(p, "w") as f:
            f.write("-1000" if "oom" in p else "b")
        if "oom" not in p:
            wrote.append(p)
    except OSError:
        pass
print("WROTE %s" % wrote if wrote else "BLOCKED")
