# Spinning ends at the CPU limit (RLIMIT_CPU), before the wall clock.
# expect-status: timeout
# expect-exit: 124
# policy-cpu: 1s
# policy-wall: 5s
while True:
    pass
