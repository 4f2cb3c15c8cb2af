#!/usr/bin/env bash
# The long run of TestSetupUnderStorms: 20,000 sandbox starts from four apps
# side by side, under storms of signals, with two busy loops beside them.
# Prints the count of starts and of failures (docs/sandbox-limits.md).
set -euo pipefail
cd "$(dirname "$0")/.."
starts=${SOAK_STARTS:-20000}
busy=()
for _ in 1 2; do
  (while :; do :; done) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null || true' EXIT
KIDCODER_REQUIRE_SANDBOX=1 KIDCODER_SOAK_STARTS=$starts \
  go test -count=1 -timeout 0 -run '^TestSetupUnderStorms$' -v ./sandbox/ | grep -v '^=== RUN'
