# Abstract unix sockets belong to the network namespace: the host's is not here.
# expect-status: ok
# expect-stdout: BLOCKED
import os, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect("\0" + os.environ["BAIT_ABSTRACT"])
    s.sendall(b"escaped")
    print("CONNECTED")
except OSError:
    print("BLOCKED")
