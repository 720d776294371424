#!/usr/bin/env bash
# Input generator for bench/harness.py: generate.sh OUTDIR QUICK(0|1) → "name<TAB>path" lines.
# A bpftrace -f json printf event stream and a folded-stack file, 100 MB each (5 MB quick), seeded.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1; quick=${2:-0}
mb=100; [ "$quick" = 1 ] && mb=5
dir="$out/tracing-$mb"
[ -s "$dir/events.ndjson" ] && [ -s "$dir/stacks.folded" ] || python3 "$here/gen.py" "$dir" "$mb" >&2
printf 'tracing-events\t%s\ntracing-folded\t%s\n' "$dir/events.ndjson" "$dir/stacks.folded"
