#!/usr/bin/env bash
# Native throughput of `gcscope analyze` on a ~200 MB unified G1 log (built at benchmark time, never
# stored): MB/s = input MB / CPU seconds (user+sys), median of 5 runs; peak RSS from /usr/bin/time -v.
# Usage: [GCSCOPE_ARGS="--set jvm_series=false"] bench/jvm/run.sh [build/native/gcscope] [TARGET_MB]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/native/gcscope}
mb=${2:-200}
log=${TMPDIR:-/tmp}/gcscope-bench-g1-${mb}mb.log
[ -f "$log" ] || python3 "$here/make_big_g1.py" "$log" "$mb"
size=$(stat -L -c %s "$log")
echo "input: $log ($size bytes)"
results=()
for i in 1 2 3 4 5; do
  /usr/bin/time -v "$bin" analyze ${GCSCOPE_ARGS:-} "$log" > /dev/null 2> /tmp/gcscope-bench-time.txt
  user=$(awk -F': ' '/User time/{print $2}' /tmp/gcscope-bench-time.txt)
  sys=$(awk -F': ' '/System time/{print $2}' /tmp/gcscope-bench-time.txt)
  rss=$(awk -F': ' '/Maximum resident/{print $2}' /tmp/gcscope-bench-time.txt)
  cpu=$(echo "$user + $sys" | bc -l)
  mbs=$(echo "$size / 1000000 / $cpu" | bc -l)
  printf 'run %d: cpu %.2f s, %.0f MB/s, peak RSS %d KB\n' "$i" "$cpu" "$mbs" "$rss"
  results+=("$mbs")
done
printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END{printf "median: %.0f MB/s\n", a[3]}'
