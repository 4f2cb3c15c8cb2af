# Frames of length 0 add no bytes, but each one costs the host a read:
# every frame counts against the frame budget with a fixed overhead, the
# host reads at most maxFrames of them and then closes the pipe, so the
# program gets EPIPE instead of the host's time.
# expect-status: timeout
# policy-wall: 2s
# frames: true
import os
empty = b"\0\0\0\0" * 16384
while True:
    try:
        os.write(3, empty)
    except OSError:
        pass
