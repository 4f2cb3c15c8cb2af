# IPv6 sockets are refused like IPv4.
# expect-status: ok
# expect-stdout: BLOCKED
import os, socket
try:
    socket.create_connection(("::1", int(os.environ["BAIT_TCP"])), timeout=1)
    print("CONNECTED")
except OSError:
    print("BLOCKED")
