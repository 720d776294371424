#!/bin/sh
# Benchmark of the fleet report, native: N payloads of one app analyzed together (`gcscope analyze
# P1 .. PN`: one analyzer per payload, then groups, the per-process table, outliers, merged advice).
# Payloads: 8 real recordings of the fixture workload (project recorder, Debian ruby, 120 requests
# each), copied with other pids until there are N (a copy is another process of the same group).
#   sh bench/rubygc/fleet.sh 10 100 1000       (from the repository root; needs build/native)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=/tmp/gcscope-bench-fleet
mkdir -p "$out/real"
cd "$root/fixtures/rubygc"
for i in 1 2 3 4 5 6 7 8; do
  [ -f "$out/real/p$i.json" ] || RUBY_GC_TUNE_OUTPUT="$out/real/p$i.json" UNITS=120 \
    ruby -r "$root/recorder/tunemygc_recorder.rb" workload.rb
done
for n in "$@"; do
  dir="$out/n$n"
  rm -rf "$dir" && mkdir -p "$dir"
  python3 - "$out/real" "$dir" "$n" <<'EOF'
import json, sys
real, dest, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
payloads = [json.load(open(f"{real}/p{i}.json")) for i in range(1, 9)]
for k in range(n):
    p = payloads[k % 8]
    p[0][11] = 100000 + k  # header pid
    json.dump(p, open(f"{dest}/tunemygc-{100000 + k}.json", "w"))
EOF
  bytes=$(cat "$dir"/*.json | wc -c)
  for run in 1 2 3; do
    /usr/bin/time -f "%U %S %M" "$root/build/native/gcscope" analyze "$dir"/*.json 2>>"$dir.time" >"$dir.report"
  done
  python3 - "$dir.time" "$n" "$bytes" "$dir.report" <<'EOF'
import json, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
cpu = statistics.median(float(u) + float(s) for u, s, _ in rows)
rss = max(int(m) for _, _, m in rows) / 1024
n, size = int(sys.argv[2]), int(sys.argv[3]) / 2**20
text = open(sys.argv[4]).read()
print(f"N={n}: {size:.1f} MiB, CPU median of 3 {cpu:.2f} s ({1000 * cpu / n:.1f} ms a payload), "
      f"peak RSS {rss:.0f} MiB, report {len(text) / 2**20:.1f} MiB")
EOF
  rm -f "$dir.time"
done
