# A host folder bound read-write by mistake: nothing is written into it.
import os
try:
    with open(os.path.join(os.environ["HOST_TMP"], "escaped.txt"), "w") as f:
        f.write("escaped")
    print("ESCAPED")
except OSError as e:
    print("BLOCKED", type(e).__name__)
