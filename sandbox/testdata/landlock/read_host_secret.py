# A host folder bound into the sandbox by mistake: the secret in it stays unread.
import os
try:
    print("ESCAPED", open(os.environ["SECRET_PATH"]).read())
except OSError as e:
    print("BLOCKED", type(e).__name__)
