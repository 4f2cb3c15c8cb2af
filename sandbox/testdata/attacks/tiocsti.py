# TIOCSTI (typing into the terminal) is refused even on a pty.
# expect-status: ok
# expect-stdout: BLOCKED
import errno, fcntl, os, termios
results = []
fds = [0, 1, 2]
try:
    m, s = os.openpty()
    fds.append(s)
except OSError:
    pass
for fd in fds:
    for req in (termios.TIOCSTI, 0x541C):
        try:
            fcntl.ioctl(fd, req, b"x")
            results.append("OK")
        except OSError as e:
            if e.errno != errno.EPERM:
                results.append(errno.errorcode.get(e.errno, e.errno))
print("BLOCKED" if not results or set(results) <= {"ENOTTY", "EPERM"} and "OK" not in results else results)
