# Growing memory hits RLIMIT_AS; the host saw the peak near the limit.
# expect-status: memory_limit
# policy-mem: 160M
# policy-wall: 15s
a = []
while True:
    a.append(bytearray(8 << 20))
