# Endless output is cut at the output limit and the run is ended.
# expect-status: output_limit
# expect-truncated: true
import sys
while True:
    print("flood " * 20)
    print("err", file=sys.stderr)
