# Only the sandbox's own processes are visible in /proc.
# expect-status: ok
# expect-stdout: ISOLATED
import os
pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
host = int(os.environ["HOST_PID"])
print("ISOLATED" if len(pids) <= 3 and host not in pids or max(pids) < 10 else "SAW %s" % pids)
