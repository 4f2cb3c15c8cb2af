# Growing memory hits the run's memory limit: the kernel ends it and the
# host reads that from the run group's counters. Without a group it hits
# RLIMIT_AS, and the host judges from a sampled peak, which may miss it.
# expect-status: memory_limit
# expect-fallback-status: memory_limit|error
# policy-mem: 160M
# policy-wall: 15s
a = []
while True:
    a.append(bytearray(8 << 20))
