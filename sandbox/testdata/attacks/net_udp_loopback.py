# UDP datagrams to the host's loopback go nowhere.
# expect-status: ok
# expect-stdout: BLOCKED
import os, socket
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"escaped", ("127.0.0.1", int(os.environ["BAIT_UDP"])))
    print("SENT")
except OSError:
    print("BLOCKED")
