# inotify instances are counted per user on the host: a run must not take
# the family's file watching away, so inotify is refused.
# expect-status: ok
# expect-stdout: REFUSED 0
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
made = 0
for i in range(1000):
    if libc.inotify_init1(0) >= 0:
        made += 1
print("REFUSED", made)
