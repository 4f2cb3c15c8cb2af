# The host's environment variables do not reach the program.
# expect-status: ok
# expect-stdout: (?s).*CLEAN
import os
print(sorted(os.environ))
print("LEAK" if "KIDCODER_TEST_SECRET" in os.environ else "CLEAN")
