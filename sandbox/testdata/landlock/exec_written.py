# A program the run wrote itself does not run: only the runtime's do.
import os, subprocess
p = "/tmp/tool"
with open(p, "w") as f:
    f.write("#!/bin/sh\necho ran\n")
os.chmod(p, 0o755)
try:
    subprocess.run([p], check=True, stdout=subprocess.DEVNULL)
    print("ESCAPED")
except OSError as e:
    print("BLOCKED", type(e).__name__)
