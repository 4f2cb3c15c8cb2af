# Empty files cost kernel memory, not bytes: the scratch is bounded in file
# count too, and the run ends when it passes it.
# expect-status: killed
# expect-limit: files
# policy-wall: 60s
import os
os.mkdir("d")
for i in range(2000000):
    open("d/%d" % i, "w").close()
print("MADE ALL")
