# A program that says "waiting for input" on the frame pipe, then computes
# and sleeps, gets no pause of the wall clock: only the host's own evidence
# (blocked reading stdin) pauses it.
# expect-status: timeout
# frames: true
# policy-wall: 2s
# policy-cpu: 30s
import os, struct, time
def frame(b):
    os.write(3, struct.pack(">I", len(b)) + b)
for i in range(200):
    frame(b'{"type":"input","prompt":"? "}')
    time.sleep(0.05)
print("OUTLASTED THE WALL CLOCK")
