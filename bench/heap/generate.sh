#!/usr/bin/env bash
# Input generator for bench/harness.py: generate.sh OUTDIR QUICK(0|1) → "name<TAB>path" lines.
# ObjectSpace.dump_all of a synthetic app heap made by Debian's ruby: ~53 MB (the issue's reference
# size; heapy runs on it as the peer), ~5 MB quick. The ~1 GB dump: HEAP_BENCH_BIG=1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1; quick=${2:-0}
mb=53; [ "$quick" = 1 ] && mb=5
mkdir -p "$out"
for size in $mb ${HEAP_BENCH_BIG:+1000}; do
  dump="$out/heap-$size.heap.json"
  [ -s "$dump" ] || ruby --disable-gems "$here/make_dump.rb" "$dump" "$size" >&2
  printf 'heap-%s\t%s\n' "$size" "$dump"
done
