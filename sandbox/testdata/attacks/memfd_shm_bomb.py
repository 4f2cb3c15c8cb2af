# Memory no process maps (memfd, SysV and POSIX shared memory, message
# queues), filled from three processes: per-process limits cannot see it,
# so the sandbox refuses the calls that make it.
# expect-status: ok
# expect-stdout: REFUSED memfd REFUSED shmget REFUSED posix_shm
# policy-mem: 256M
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
res = []
try:
    fds = []
    for i in range(64):
        fd = os.memfd_create("x%d" % i)
        os.ftruncate(fd, 64 << 20)
        os.pwrite(fd, b"x" * (64 << 20), 0)
        fds.append(fd)
    res.append("FILLED memfd")
except OSError:
    res.append("REFUSED memfd")
IPC_PRIVATE, IPC_CREAT = 0, 0o1000
ids = []
for i in range(3):
    shmid = libc.shmget(IPC_PRIVATE, 256 << 20, IPC_CREAT | 0o600)
    if shmid >= 0:
        ids.append(shmid)
res.append("REFUSED shmget" if not ids else "MADE shmget %d" % len(ids))
try:
    from multiprocessing import shared_memory
    shared_memory.SharedMemory(create=True, size=64 << 20)
    res.append("MADE posix_shm")
except (OSError, ImportError):
    res.append("REFUSED posix_shm")
print(" ".join(res))
