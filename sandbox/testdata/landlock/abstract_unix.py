# The host's network shared by mistake: the host's abstract unix socket is out of reach.
import os, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect("\0" + os.environ["BAIT_ABSTRACT"])
    print("ESCAPED")
except OSError as e:
    print("BLOCKED", type(e).__name__)
