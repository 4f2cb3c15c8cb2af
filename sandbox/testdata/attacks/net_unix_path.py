# A host unix socket, even at its real path, cannot be reached.
# expect-status: ok
# expect-stdout: BLOCKED
import os, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(os.environ["BAIT_UNIX"])
    s.sendall(b"escaped")
    print("CONNECTED")
except OSError:
    print("BLOCKED")
