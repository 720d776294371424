#!/usr/bin/env bash
# Benchmark of `gcscope tables` on a fleet, native: N inputs, each one of the corpus's JVM logs (its
# .log and .txt files, taken in turn in a fixed shuffled order; a log appears under several service names once N passes their
# number), written as CSV by J workers. Prints, per N: the inputs' MiB, wall and CPU seconds, MiB of
# input per wall second, the peak RSS (which must not grow with N: the command streams) and the rows
# of pauses.csv.
#   bench/tables/fleet.sh [-j J] N...      (from the repository root; needs build/native)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
jobs=2
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
corpus=${GCSCOPE_CORPUS_DIR:-$root/../shared/corpus}/jvm
work=${TMPDIR:-/tmp}/gcscope-bench-tables
# In an order fixed by a hash of each path, so that any first N are a fair sample of sizes and formats.
mapfile -t logs < <(find "$corpus" -type f \( -name '*.log' -o -name '*.txt' \) | python3 -c '
import hashlib, sys
for p in sorted(sys.stdin.read().split("\n")[:-1], key=lambda p: hashlib.md5(p.encode()).hexdigest()): print(p)')
[ ${#logs[@]} -gt 0 ] || { echo "no JVM logs under $corpus" >&2; exit 2; }
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); ${#logs[@]} corpus logs; -j $jobs"
for n in "$@"; do
  rm -rf "$work" && mkdir -p "$work/in"
  for ((k = 0; k < n; k++)); do
    ln -s "${logs[k % ${#logs[@]}]}" "$work/in/svc-$(printf %05d "$k").log"
    echo "$work/in/svc-$(printf %05d "$k").log"
  done > "$work/list"
  mib=$(cat "$work"/in/*.log | wc -c | awk '{ printf "%.1f", $1 / 1048576 }')
  # A failed run (a write error, or no input analyzed) is reported, not measured.
  status=0
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    "$root/build/native/gcscope" tables --from "$work/list" --out "$work/out" -j "$jobs" > "$work/summary" 2> "$work/stderr" || status=$?
  if [ "$status" != 0 ]; then
    echo "gcscope tables failed (exit $status):" >&2; cat "$work/stderr" >&2; exit 1
  fi
  tail -n 1 "$work/time" > "$work/time.last"
  read -r wall user sys rss < "$work/time.last"
  analyzed=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["analyzed"])' "$work/summary")
  if [ "$analyzed" = 0 ] || ! compgen -G "$work/out/pauses*.csv" > /dev/null; then
    echo "no input analyzed into pauses tables:" >&2; cat "$work/stderr" >&2; exit 1
  fi
  pauses=$(($(cat "$work"/out/pauses*.csv | wc -l) - $(ls "$work"/out/pauses*.csv | wc -l)))
  awk -v n="$n" -v mib="$mib" -v wall="$wall" -v cpu="$user" -v sys="$sys" -v rss="$rss" -v p="$pauses" -v a="$analyzed" 'BEGIN {
    printf "N=%d (%d analyzed): %s MiB in, %.2f s wall, %.2f s CPU, %.1f MiB/s, %.1f ms an input, peak RSS %.0f MiB, %d pause rows\n",
      n, a, mib, wall, cpu + sys, mib / wall, 1000 * wall / n, rss / 1024, p }'
done
rm -rf "$work"
