#!/usr/bin/env bash
# Input generator for bench/harness.py: generate.sh OUTDIR QUICK(0|1) → "name<TAB>path" lines.
# A raw object-mode dump made by Debian's ruby + ruby-stackprof (~25 MB full, ~1 MB quick), and its
# JSON twin written by stackprof's own CLI (the speedscope comparison reads JSON).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1; quick=${2:-0}
n=260000; [ "$quick" = 1 ] && n=10000
mkdir -p "$out"
dump="$out/stackprof-object-$n.dump"; json="${dump%.dump}.json"
[ -s "$dump" ] || ruby "$here/generate.rb" "$dump" "$n" >&2
[ -s "$json" ] || stackprof "$dump" --json > "$json"
printf 'stackprof-dump\t%s\nstackprof-json\t%s\n' "$dump" "$json"
