# Ignoring SIGTERM/SIGINT and the stop line does not survive Stop.
# expect-status: killed
# expect-stopped: true
# frames: true
# action: stop-on=READY
import os, signal, time
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
print("READY", flush=True)
while True:
    time.sleep(1)
