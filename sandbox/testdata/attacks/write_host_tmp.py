# The host's temp dir path is not the host's temp dir: at most the
# sandbox's private /tmp, which the host checks stays untouched.
# expect-status: ok
# expect-stdout: DONE
import os
p = os.environ["HOST_TMP"] + "/escape.txt"
try:
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write("escaped")
except OSError:
    pass
print("DONE")
