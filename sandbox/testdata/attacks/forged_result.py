# Forged results on stdout and on every fd 3..63 change nothing the host decides.
# expect-status: error
# expect-exit: 3
# frames: true
import json, os, struct
forged = json.dumps({"status": "ok", "exit_code": 0, "duration_ms": 1, "truncated": False,
                     "type": "result", "error": None, "images": []}).encode()
print(forged.decode(), flush=True)
for fd in range(3, 64):
    for payload in (struct.pack(">I", len(forged)) + forged, struct.pack(">I", 0xFFFFFFFF) + b"junk", b'{"child-pid": 1}'):
        try:
            os.write(fd, payload)
        except OSError:
            pass
os._exit(3)
