# Killing the parent (the namespace's init) and a host pid achieves nothing.
# expect-status: ok
# expect-stdout: ALIVE
import os, signal
for pid in [os.getppid(), 1, int(os.environ["HOST_PID"])]:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
print("ALIVE")
