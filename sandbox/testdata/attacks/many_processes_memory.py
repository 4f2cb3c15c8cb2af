# Eight processes, each well under the per-process limit, together far
# over it: the run's memory is bounded as a whole. Without a control group
# the tighter process count refuses the forks.
# expect-status: memory_limit
# expect-fallback-status: error
# policy-mem: 256M
# policy-wall: 30s
import os, time
kids = []
for i in range(7):
    pid = os.fork()
    if pid == 0:
        block = bytearray(120 << 20)
        for j in range(0, len(block), 4096):
            block[j] = 1
        time.sleep(20)
        os._exit(0)
    kids.append(pid)
block = bytearray(120 << 20)
for j in range(0, len(block), 4096):
    block[j] = 1
for pid in kids:
    os.waitpid(pid, 0)
print("ALL HELD")
