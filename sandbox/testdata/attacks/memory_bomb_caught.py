# Where a control group bounds the run, running out of memory ends it
# (there is no MemoryError to catch). Without one, RLIMIT_AS raises
# MemoryError, and a program that recovers and exits 0 did finish fine.
# expect-status: memory_limit
# expect-fallback-status: ok
# policy-mem: 160M
# policy-wall: 15s
a = []
try:
    while True:
        a.append(bytearray(8 << 20))
except MemoryError:
    a = None
print("RECOVERED")
