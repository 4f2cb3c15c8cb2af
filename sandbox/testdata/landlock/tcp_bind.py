# The host's network shared by mistake: no port of the host is listened on.
import os, socket
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(os.environ["BIND_PORT"])))
    s.listen(1)
except OSError as e:
    print("BLOCKED", type(e).__name__)
else:
    s.settimeout(60)
    s.accept()[0].close()  # the host's own connection proves the port is the host's
    print("ESCAPED")
