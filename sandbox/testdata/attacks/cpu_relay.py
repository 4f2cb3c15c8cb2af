# Helpers that each stay under the per-process CPU limit, replaced as they
# end, two at a time: the run's CPU is bounded as a whole.
# expect-status: timeout
# expect-limit: cpu
# policy-cpu: 2s
# policy-wall: 60s
import os, time
def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
running = 0
while True:
    while running < 2:
        if os.fork() == 0:
            burn(0.8)
            os._exit(0)
        running += 1
    os.wait()
    running -= 1
