# A million empty files: the wall clock ends it long before.
# expect-status: timeout
# policy-wall: 2s
import os
os.mkdir("d")
for i in range(1000000):
    open("d/%d" % i, "w").close()
print("MADE ALL")
