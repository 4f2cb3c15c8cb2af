# A setsid daemon dies with the sandbox; the host scans for its marker.
# expect-status: ok
# expect-stdout: SPAWNED
import os
if os.fork() == 0:
    os.setsid()
    os.execv("/usr/bin/sleep", [os.environ["MARK"], "1000"])
print("SPAWNED")
