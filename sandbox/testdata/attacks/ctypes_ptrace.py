# ptrace and process_vm_readv are refused, even on our own child.
# expect-status: ok
# expect-stdout: BLOCKED
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    time.sleep(5)
    os._exit(0)
ok = []
if libc.ptrace(16, pid, None, None) == 0: ok.append("attach")   # PTRACE_ATTACH
if libc.ptrace(16, 1, None, None) == 0: ok.append("attach init")
if libc.ptrace(0, 0, None, None) == 0: ok.append("traceme")
buf = ctypes.create_string_buffer(8)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
local = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)
remote = iovec(0x400000, 8)
if libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) >= 0: ok.append("vm_readv")
os.kill(pid, 9)
print("DID %s" % ok if ok else "BLOCKED")
