# A fork bomb hits RLIMIT_NPROC (also when the host runs as root) and the
# wall clock ends it.
# expect-status: timeout
# policy-wall: 2s
# policy-procs: 16
import os
n = 0
while True:
    try:
        if os.fork() == 0:
            n = 0
        else:
            n += 1
    except OSError:
        pass
