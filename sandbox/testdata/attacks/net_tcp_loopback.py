# A TCP listener on the host's loopback is out of reach.
# expect-status: ok
# expect-stdout: BLOCKED
import os, socket
try:
    socket.create_connection(("127.0.0.1", int(os.environ["BAIT_TCP"])), timeout=1)
    print("CONNECTED")
except OSError:
    print("BLOCKED")
