#!/usr/bin/env bash
# Native throughput of the rbkit-capture analyzer: input MB / CPU seconds (user+sys), median of 5,
# plus the peak RSS, on a capture built from the real one by make_big_capture.py.
# Usage: bench/rbkit/run.sh [REPEATS] (run from the repository root after the native build)
set -euo pipefail
repeats=${1:-20}
big=/tmp/rbkit-big-$repeats.rbkit
[ -f "$big" ] || python3 "$(dirname "$0")/make_big_capture.py" "$repeats" "$big"
bin=./build/native/gcscope
bytes=$(stat -c %s "$big")
rates=()
for i in 1 2 3 4 5; do
  /usr/bin/time -f "%U %S %M" -o /tmp/rbkit-bench-time "$bin" analyze "$big" > /dev/null
  read -r user sys rss < /tmp/rbkit-bench-time
  rate=$(python3 -c "print(f'{$bytes/1e6/($user+$sys):.1f}')")
  echo "run $i: user ${user}s sys ${sys}s peak RSS ${rss} KiB -> ${rate} MB/s"
  rates+=("$rate")
done
printf '%s\n' "${rates[@]}" | sort -n | sed -n 3p | xargs -I{} echo "median: {} MB/s over $((bytes/1000000)) MB"
