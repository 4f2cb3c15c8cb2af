# A double-forked, reparented daemon dies with the sandbox.
# expect-status: ok
# expect-stdout: SPAWNED
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/usr/bin/sleep", [os.environ["MARK"], "1000"])
    os._exit(0)
os.wait()
print("SPAWNED")
