# System V message queues and semaphore sets are kernel memory that no
# process maps. 32,000 queues of 16 KiB each (the bounds of a new IPC
# namespace) held 488 MiB beside a 512 MiB run, which per-process limits cannot see,
# and semaphore sets reach further. The sandbox refuses every System V IPC
# call with EPERM, whether or not the id exists. (This tries 4,000 queues,
# 62 MiB, where the calls are allowed.)
# expect-status: ok
# expect-stdout: REFUSED msgget EPERM REFUSED msgsnd EPERM REFUSED msgrcv EPERM REFUSED msgctl EPERM REFUSED semget EPERM REFUSED semop EPERM REFUSED semtimedop EPERM REFUSED semctl EPERM REFUSED shmat EPERM REFUSED shmdt EPERM REFUSED shmctl EPERM
# policy-mem: 256M
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_long
IPC_PRIVATE, IPC_CREAT, IPC_NOWAIT, IPC_RMID = 0, 0o1000, 0o4000, 0
res = []

def outcome(name, rc):
    if rc >= 0:
        res.append("MADE " + name)
        return True
    e = ctypes.get_errno()
    res.append("REFUSED %s %s" % (name, errno.errorcode.get(e, e)))
    return False

msg = ctypes.create_string_buffer(8 + 8192)
ctypes.c_long.from_buffer(msg).value = 1
qid = libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)
if outcome("msgget", qid):
    # Two messages of 8 KiB (msgmax) fill a queue (msgmnb 16 KiB).
    held = 0
    for _ in range(4000):
        q = libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)
        if q < 0:
            break
        while libc.msgsnd(q, msg, 8192, IPC_NOWAIT) == 0:
            held += 8192
    res.append("HELD %d MiB" % (held >> 20))
# An id that does not exist is refused by the filter before the kernel looks.
qid = max(qid, 0)
outcome("msgsnd", libc.msgsnd(qid, msg, 8192, IPC_NOWAIT))
outcome("msgrcv", libc.msgrcv(qid, msg, 8192, 0, IPC_NOWAIT))
outcome("msgctl", libc.msgctl(qid, IPC_RMID, None))
sid = libc.semget(IPC_PRIVATE, 32000, IPC_CREAT | 0o600)
outcome("semget", sid)
sid = max(sid, 0)
sop = (ctypes.c_short * 3)(0, 1, IPC_NOWAIT)
outcome("semop", libc.semop(sid, sop, 1))
outcome("semtimedop", libc.semtimedop(sid, sop, 1, None))
outcome("semctl", libc.semctl(sid, 0, IPC_RMID))
outcome("shmat", libc.shmat(0, None, 0))
outcome("shmdt", libc.shmdt(ctypes.c_void_p(4096)))
outcome("shmctl", libc.shmctl(0, IPC_RMID, None))
print(" ".join(res))
