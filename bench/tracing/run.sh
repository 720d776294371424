#!/bin/bash
# Tracing benchmark: native MB/s (input MB / CPU seconds, median of 5) and peak RSS of
# `gcscope analyze` over a 100 MB bpftrace -f json printf stream and a 100 MB folded-stack file.
# usage: bench/tracing/run.sh [BUILD_DIR]   (inputs are generated into bench/out/tracing/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build/native}
out=$root/bench/out/tracing
[ -f "$out/events.ndjson" ] && [ -f "$out/stacks.folded" ] || python3 "$here/gen.py" "$out" 100
for f in events.ndjson stacks.folded; do
  bytes=$(stat -c %s "$out/$f")
  rates=()
  rss=0
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%U %S %M" -o "$out/time.txt" "$build/gcscope" analyze "$out/$f" > "$out/report.json"
    read -r u s m < "$out/time.txt"
    rates+=("$(python3 -c "print('%.1f' % ($bytes / 1e6 / ($u + $s)))")")
    rss=$m
  done
  median=$(printf '%s\n' "${rates[@]}" | sort -n | sed -n 3p)
  echo "$f: $(python3 -c "print('%.1f' % ($bytes/1e6))") MB, median ${median} MB/s (runs: ${rates[*]}), peak RSS $((rss / 1024)) MiB"
done
