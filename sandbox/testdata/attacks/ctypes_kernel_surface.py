# bpf, perf_event_open, userfaultfd, io_uring and keyrings are refused.
# expect-status: ok
# expect-stdout: BLOCKED
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
ok = []
for name, nr, args in [("bpf", 321, (0, buf, 128)), ("perf_event_open", 298, (buf, 0, -1, -1, 0)),
                       ("userfaultfd", 323, (0,)), ("io_uring_setup", 425, (4, buf)),
                       ("add_key", 248, (b"user", b"k", b"v", 1, -3)), ("keyctl", 250, (0, -3, 0))]:
    if libc.syscall(nr, *args) >= 0:
        ok.append(name)
print("DID %s" % ok if ok else "BLOCKED")
