#!/usr/bin/env bash
# The live session of a big unified G1 log in Chromium (bench/jvm/zoom_bench.js): first report and
# first chart, zooms (jvm.summary + jvm.series, rendered), event-table pages (jvm.events) and the
# worker's wasm heap, for each size asked. Logs are built at benchmark time under $TMPDIR (never
# stored) and deleted afterwards unless GCSCOPE_KEEP_LOGS=1.
# Usage: bench/jvm/zoom.sh [SITE_DIR] [MB...]      (defaults: build/wasm/site, 200 2000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
site=${1:-$here/../../build/wasm/site}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200 2000)
tmp=${TMPDIR:-/tmp}
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for mb in "${sizes[@]}"; do
  log=$tmp/gcscope-zoom-g1-${mb}mb.log
  [ -f "$log" ] || python3 "$here/make_big_g1.py" "$log" "$mb" >&2
  node "$here/zoom_bench.js" "$site" "$log" "${GCSCOPE_ZOOMS:-60}" "${GCSCOPE_PAGES:-30}"
  [ "${GCSCOPE_KEEP_LOGS:-0}" = 1 ] || rm -f "$log"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
