# Forged screen, draw, dialog and bye frames, a new drawing step in each
# draw frame, as fast as the pipe takes them, on the runner's private frame
# pipe; Stop is ignored. The window hears the drawing at most one event of
# each kind per 16 ms (plus a frame per MiB of steps), and Stop ends the run.
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
def frame(b):
    return struct.pack(">I", len(b)) + b
screen = frame(b'{"type":"screen","width":400,"height":400,"bg":"#ffffff","scale":[1,1],"view":[-200,-200,400,400],"title":"x"}')
dialog = frame(b'{"type":"dialog","kind":"text","title":"x","prompt":"x"}')
bye = frame(b'{"type":"bye"}')
sent = 0
while True:
    try:
        while True:
            block = b"".join(screen + frame(b'{"type":"draw","from":%d,"steps":[{"k":"dot","t":0,"s":0,"x":0,"y":0,"d":1,"c":"#000000"}]}' % (sent + i)) + dialog + bye
                             for i in range(256))
            for fd in fds:
                try:
                    os.write(fd, block)
                except OSError:
                    pass
            sent += 256
            if sent == 51200:
                print("SENT", sent, flush=True)
    except BaseException:
        pass
