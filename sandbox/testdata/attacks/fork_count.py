# The number of processes that can exist at once stays under MaxProcs.
# expect-status: ok
# expect-stdout: LIMITED
# policy-procs: 12
import os
r, w = os.pipe()
n = 0
try:
    for _ in range(500):
        if os.fork() == 0:
            os.close(w)
            os.read(r, 1)
            os._exit(0)
        n += 1
except OSError:
    pass
print("LIMITED" if n < 12 else "FORKED %d" % n)
