# The host's processes shared by mistake: a host process under the run's uid is not signalled.
import os, signal
try:
    os.kill(int(os.environ["HOST_PID"]), signal.SIGKILL)
    print("ESCAPED")
except OSError as e:
    print("BLOCKED", type(e).__name__)
