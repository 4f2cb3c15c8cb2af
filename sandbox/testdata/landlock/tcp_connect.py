# The host's network shared by mistake: a listener on its loopback is out of reach.
import os, socket
try:
    socket.create_connection(("127.0.0.1", int(os.environ["BAIT_TCP"])), timeout=30).close()
    print("ESCAPED")
except OSError as e:
    print("BLOCKED", type(e).__name__)
