# One 50 MB line without a newline is bounded like any output.
# expect-status: output_limit
# expect-truncated: true
import sys
sys.stdout.write("x" * 50_000_000)
sys.stdout.flush()
