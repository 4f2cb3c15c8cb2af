# Open files are bounded by RLIMIT_NOFILE.
# expect-status: ok
# expect-stdout: LIMITED
# policy-files: 64
import os
fds = []
try:
    for _ in range(10000):
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError:
    pass
print("LIMITED" if len(fds) < 64 else "OPENED %d" % len(fds))
