# subprocess with start_new_session outlives nothing.
# expect-status: ok
# expect-stdout: SPAWNED
import os, subprocess
subprocess.Popen([os.environ["MARK"], "1000"], executable="/usr/bin/sleep", start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("SPAWNED")
