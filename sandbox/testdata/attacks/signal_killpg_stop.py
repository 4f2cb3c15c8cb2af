# Stopping its own process group only freezes the program; the host's
# wall clock still ends the run.
# expect-status: timeout
# expect-exit: 124
# policy-wall: 1500ms
import os, signal
print("STOPPING", flush=True)
os.killpg(0, signal.SIGSTOP)
print("RESUMED")
