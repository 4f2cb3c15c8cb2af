# Threads count against the same limit.
# expect-status: ok
# expect-stdout: LIMITED
# policy-procs: 16
import threading, time
ev = threading.Event()
n = 0
try:
    for _ in range(1000):
        threading.Thread(target=ev.wait, daemon=True).start()
        n += 1
except RuntimeError:
    pass
ev.set()
print("LIMITED" if n < 16 else "THREADS %d" % n)
