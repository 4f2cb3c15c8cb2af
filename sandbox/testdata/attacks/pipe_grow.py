# Pipe buffers are counted per host uid: 64 pipes grown to 1 MiB reach
# fs.pipe-user-pages-soft, after which every new pipe of the uid (the
# family's own programs too) gets 8 KiB instead of 64 KiB. Growing a
# pipe is refused; shrinking it is refused alike, and no program needs it.
# expect-status: ok
# expect-stdout: REFUSED EPERM 65536
import errno, fcntl, os
F_SETPIPE_SZ, F_GETPIPE_SZ = 1031, 1032
r, w = os.pipe()
try:
    fcntl.fcntl(w, F_SETPIPE_SZ, 1 << 20)
    print("GREW", fcntl.fcntl(w, F_GETPIPE_SZ))
except OSError as e:
    print("REFUSED", errno.errorcode.get(e.errno, e.errno), fcntl.fcntl(w, F_GETPIPE_SZ))
