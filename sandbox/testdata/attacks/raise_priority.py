# A run's processes are niced below the window and cannot take the CPU back:
# not by lowering their nice value, not through setpriority on the group or
# the user, and not in a child process.
# expect-status: ok
# expect-stdout: BLOCKED 10
import os
start = os.nice(0)
raised = []
for how, f in [("nice", lambda: os.nice(-1)),
               ("process", lambda: os.setpriority(os.PRIO_PROCESS, 0, 0)),
               ("group", lambda: os.setpriority(os.PRIO_PGRP, 0, 0)),
               ("user", lambda: os.setpriority(os.PRIO_USER, 0, 0))]:
    try:
        f()
        if os.nice(0) < start:
            raised.append(how)
    except OSError:
        pass
pid = os.fork()
if pid == 0:
    try:
        os.nice(-10)
        os._exit(1 if os.nice(0) < start else 0)
    except OSError:
        os._exit(0)
_, status = os.waitpid(pid, 0)
if os.waitstatus_to_exitcode(status):
    raised.append("child")
print("RAISED %s" % raised if raised else "BLOCKED %d" % start)
