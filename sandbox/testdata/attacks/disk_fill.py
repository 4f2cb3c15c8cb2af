# Files are bounded by RLIMIT_FSIZE and the scratch tmpfs by its size.
# expect-status: ok
# expect-stdout: FULL EFBIG ENOSPC
import errno, os, signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
seen = set()
chunk = b"x" * (1 << 20)
for i in range(200):
    try:
        with open("fill%d" % i, "wb") as f:
            while True:
                f.write(chunk)
                f.flush()
    except OSError as e:
        seen.add(errno.errorcode[e.errno])
        if e.errno == errno.ENOSPC:
            break
print("FULL", " ".join(sorted(seen)))
