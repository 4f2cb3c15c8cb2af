# Sleeping ends at the wall clock.
# expect-status: timeout
# expect-exit: 124
# policy-wall: 1s
import time
time.sleep(10 ** 6)
