# Forged input, input_done, listen and loop frames, 98 bytes a set, as fast
# as the pipe takes them, on the runner's private frame pipe; Stop is
# ignored. The window hears the run's state only as changes, a few times a
# second, and Stop ends the run.
import fcntl, os, struct
fds = []
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    try:
        if fd > 2 and os.readlink("/proc/self/fd/%d" % fd).startswith("pipe:") and \
                fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
            fds.append(fd)
    except OSError:
        pass
print("FRAME FDS", len(fds), flush=True)
one = b"".join(struct.pack(">I", len(f)) + f for f in (
    b'{"type":"input","prompt":"?"}', b'{"type":"input_done"}', b'{"type":"listen"}', b'{"type":"loop"}'))
block = one * 256
sent = 0
while True:
    try:
        while True:
            for fd in fds:
                try:
                    os.write(fd, block)
                except OSError:
                    pass
            sent += 256
            if sent == 102400:
                print("SENT", sent, flush=True)
    except BaseException:
        pass
