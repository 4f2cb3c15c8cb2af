# Writes to the host's home folders and to / must not land anywhere.
# expect-status: ok
# expect-stdout: BLOCKED
import os
hits = []
for p in [os.path.expanduser("~/escape.txt"), "/home/escape.txt", "/root/escape.txt",
          "/x.txt", "/usr/x.txt", "/etc/x.txt", "/kid/x.txt", "/dev/x.txt", "/proc/x.txt",
          os.environ["HOST_HOME"] + "/escape.txt"]:
    try:
        with open(p, "w") as f:
            f.write("escaped")
        if not p.startswith("/kid/home/"):
            hits.append(p)
    except OSError:
        pass
print("WROTE %s" % hits if hits else "BLOCKED")
