# Netlink, packet and raw sockets are refused by the seccomp filter.
# expect-status: ok
# expect-stdout: BLOCKED
import errno, socket
opened = []
for fam, typ in [(socket.AF_NETLINK, socket.SOCK_RAW), (socket.AF_PACKET, socket.SOCK_RAW),
                 (socket.AF_INET, socket.SOCK_RAW), (socket.AF_INET6, socket.SOCK_DGRAM)]:
    try:
        socket.socket(fam, typ)
        opened.append(fam)
    except OSError as e:
        assert e.errno in (errno.EAFNOSUPPORT, errno.EPERM), e
print("OPENED %s" % opened if opened else "BLOCKED")
