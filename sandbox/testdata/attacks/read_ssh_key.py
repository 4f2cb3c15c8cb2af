# The planted private key must be invisible, by its real path and by ~.
# expect-status: ok
# expect-stdout: BLOCKED
import os
found = []
for p in [os.environ["SECRET_PATH"], os.path.expanduser("~/.ssh/id_rsa"), "/root/.ssh/id_rsa"]:
    try:
        found.append(open(p).read())
    except OSError:
        pass
print("FOUND %s" % found if found else "BLOCKED")
