# The mount table inside shows no host path: no home, no cache or temp
# folder, no user name. Only system folders bound at their own path, and
# bwrap's own tmpfs files, may appear as a mount's source.
# expect-status: ok
# expect-stdout: CLEAN
import os
bad = []
for line in open("/proc/self/mountinfo"):
    f = line.split()
    root, point = f[3], f[4]
    ok = (root == "/" or root == point or root.startswith("/newroot")
          or root.startswith("/bindfile") or root.startswith("/usr/") or root.startswith("/etc/")
          or (root.startswith("/") and point.startswith("/dev/") and root == point[4:]))
    if not ok:
        bad.append(root + " -> " + point)
text = open("/proc/self/mountinfo").read()
for word in (os.environ.get("HOST_HOME"), os.environ.get("HOST_TMP"), "kidcoder-", "/var/cache", "/tmp/"):
    if word and word in text:
        bad.append("mentions " + word)
print("CLEAN" if not bad else "LEAK " + "; ".join(bad))
