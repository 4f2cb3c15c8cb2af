# Limits are set hard = soft before the program runs: none can be raised.
# expect-status: ok
# expect-stdout: BLOCKED
import resource as r
raised = []
for n in (r.RLIMIT_AS, r.RLIMIT_CPU, r.RLIMIT_FSIZE, r.RLIMIT_NPROC, r.RLIMIT_NOFILE, r.RLIMIT_CORE):
    soft, hard = r.getrlimit(n)
    # CPU's hard limit is one second past the soft one (SIGXCPU first).
    assert hard == soft + (n == r.RLIMIT_CPU) and hard != r.RLIM_INFINITY, (n, soft, hard)
    try:
        r.setrlimit(n, (hard + 1, hard + 1))
        raised.append(n)
    except (ValueError, OSError):
        pass
print("RAISED %s" % raised if raised else "BLOCKED")
