# Process environments (init's, our own, any visible) hold no host secret.
# expect-status: ok
# expect-stdout: (?s).*SCANNED \d+
import os
n = 0
for pid in ["1", "self"] + [p for p in os.listdir("/proc") if p.isdigit()]:
    try:
        print(open("/proc/%s/environ" % pid, "rb").read().decode("utf-8", "replace"))
        n += 1
    except OSError as e:
        print(pid, type(e).__name__)
print("SCANNED", n)
