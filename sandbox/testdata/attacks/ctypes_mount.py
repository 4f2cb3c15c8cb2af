# mount, the new mount API and chroot through libc are refused.
# expect-status: ok
# expect-stdout: BLOCKED
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
ok = []
if libc.mount(b"none", b"/kid/home", b"tmpfs", 0, None) == 0: ok.append("mount")
if libc.umount2(b"/proc", 2) == 0: ok.append("umount2")
if libc.chroot(b"/tmp") == 0: ok.append("chroot")
if libc.syscall(430, b"tmpfs", 0) >= 0: ok.append("fsopen")
if libc.syscall(428, -100, b"/", 1) >= 0: ok.append("open_tree")
print("DID %s" % ok if ok else "BLOCKED")
