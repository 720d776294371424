#!/usr/bin/env bash
# Input generator for bench/harness.py: generate.sh OUTDIR QUICK(0|1) → one "name<TAB>path" line.
# Full: the real capture's frames repeated 20 times (~114 MB); quick: 1 repetition (~5.6 MB).
set -euo pipefail
out=$1
quick=${2:-0}
repeats=20
[ "$quick" = 1 ] && repeats=1
mkdir -p "$out"
dst="$out/rbkit-capture-x$repeats.rbkit"
[ -f "$dst" ] || python3 "$(dirname "$0")/make_big_capture.py" "$repeats" "$dst" >&2
printf 'rbkit-capture-x%s\t%s\n' "$repeats" "$dst"
