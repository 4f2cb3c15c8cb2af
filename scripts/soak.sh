#!/usr/bin/env bash
# The long run of TestSetupUnderStorms: 20,000 sandbox starts from four apps
# side by side, under storms of signals, with two busy loops beside them, in
# rounds of 2,000 so a long soak shows how far it got. Prints the count of
# starts and of failures (docs/sandbox-limits.md); fails on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
starts=${SOAK_STARTS:-20000}
round=2000
busy=()
for _ in 1 2; do
  (while :; do :; done) &
  busy+=($!)
done
work=$(mktemp -d)
trap 'kill "${busy[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
go test -c -o "$work/soak.test" ./sandbox/
done_starts=0
failed=0
while [ "$done_starts" -lt "$starts" ]; do
  n=$((starts - done_starts < round ? starts - done_starts : round))
  if (cd sandbox && KIDCODER_REQUIRE_SANDBOX=1 KIDCODER_SOAK_STARTS=$n \
        "$work/soak.test" -test.count=1 -test.timeout=0 -test.run '^TestSetupUnderStorms$' -test.v) >"$work/round.log" 2>&1; then
    :
  else
    failed=1
  fi
  grep -E 'apps:|_test.go' "$work/round.log" | head -25
  done_starts=$((done_starts + n))
  echo "soak: $done_starts of $starts starts done"
done
[ "$failed" -eq 0 ] && echo "soak: $starts starts, 0 failures" || { echo "soak: FAILED (see above)"; exit 1; }
