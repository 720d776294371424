#!/usr/bin/env bash
# Input generator for bench/harness.py: generate.sh OUTDIR QUICK(0|1) → "name<TAB>path" lines.
# A ~3 MB TuneMyGC payload recorded with the project's recorder (4600 units of work; 300 quick).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1; quick=${2:-0}
units=4600; [ "$quick" = 1 ] && units=300
mkdir -p "$out"
dst="$out/rubygc-$units.json"
[ -s "$dst" ] || UNITS=$units sh "$here/make_payload.sh" "$dst" >&2
printf 'rubygc-payload\t%s\n' "$dst"
