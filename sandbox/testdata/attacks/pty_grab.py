# Every sandbox's devpts instance draws on one kernel count of ptys
# (kernel.pty.max less pty.reserve): a run that held them all left other
# sandboxes on the machine "No space left on device". A run opens none.
# expect-status: ok
# expect-stdout: NO PTY ENOENT
import errno, os
held = []
why = "none"
for _ in range(16):
    try:
        held.append(os.openpty())
    except OSError as e:
        why = errno.errorcode.get(e.errno, str(e.errno))
        break
print("NO PTY " + why if not held else "HELD %d" % len(held))
