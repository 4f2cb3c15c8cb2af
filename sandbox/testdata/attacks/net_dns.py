# Name resolution fails: no resolver config, no sockets to reach one.
# expect-status: ok
# expect-stdout: BLOCKED
import socket
try:
    print(socket.getaddrinfo("example.com", 80))
except OSError:
    print("BLOCKED")
