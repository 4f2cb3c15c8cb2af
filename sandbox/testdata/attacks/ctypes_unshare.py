# New namespaces (unshare, clone flags, setns) are refused.
# expect-status: ok
# expect-stdout: BLOCKED
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
ok = []
for flag, name in [(0x10000000, "user"), (0x00020000, "mount"), (0x40000000, "net"), (0x20000000, "pid")]:
    if libc.unshare(flag) == 0:
        ok.append(name)
fd = os.open("/proc/1/ns/net", os.O_RDONLY) if os.path.exists("/proc/1/ns/net") else -1
if fd >= 0 and libc.setns(fd, 0) == 0:
    ok.append("setns")
print("DID %s" % ok if ok else "BLOCKED")
