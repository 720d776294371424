#!/bin/bash
# Heap-dump benchmark: generates dumps with Debian's ruby at benchmark time, then measures
#   1. class/location summaries only (option heap_retention=false), native CLI, CPU seconds;
#   2. the full report (summaries + Lengauer-Tarjan dominator tree + retention tables);
#   3. heapy (Debian ruby-heapy 0.2.0) `heapy read` on the same dump, if installed;
#   4. Ruby reading the lines alone (File.foreach), the floor for any Ruby tool.
# Median of 5 CPU times (user+sys) and peak RSS (/usr/bin/time -v).
#   bench/heap/run.sh [--big]     (--big also makes and measures a ~1 GB dump: minutes, ~3 GB RAM)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cli=${GCSCOPE_CLI:-$root/build/native/gcscope}
work=${BENCH_DIR:-/tmp/gcscope-bench-heap}
mkdir -p "$work"
sizes=(53)
[[ "${1:-}" == "--big" ]] && sizes+=(1000)

cpu() {  # prints "cpu_seconds peak_rss_kb" of one run of "$@"
  /usr/bin/time -f "%U %S %M" -o "$work/time.txt" "$@" > /dev/null 2> "$work/stderr.txt" || { cat "$work/stderr.txt" >&2; }
  awk '{printf "%.3f %d\n", $1 + $2, $3}' "$work/time.txt"
}
median5() {  # runs "$@" 5 times; prints "median_cpu max_rss_kb"
  local cpus=() rss=0 out
  for _ in 1 2 3 4 5; do
    out=$(cpu "$@"); cpus+=("${out% *}"); (( ${out#* } > rss )) && rss=${out#* }
  done
  printf '%s\n' "${cpus[@]}" | sort -n | sed -n 3p | tr '\n' ' '; echo "$rss"
}

for mb in "${sizes[@]}"; do
  dump="$work/app_${mb}mb.heap.json"
  [[ -s "$dump" ]] || ruby --disable-gems "$here/make_dump.rb" "$dump" "$mb"
  bytes=$(stat -c %s "$dump")
  mbytes=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}')
  echo "== $dump ($mbytes MB)"
  read -r s_cpu s_rss < <(median5 "$cli" analyze --set heap_retention=false "$dump")
  echo "summaries only:        cpu ${s_cpu}s  $(awk -v b="$bytes" -v c="$s_cpu" 'BEGIN{printf "%.0f", b/1e6/c}') MB/s  peak RSS $((s_rss/1024)) MB"
  read -r f_cpu f_rss < <(median5 "$cli" analyze "$dump")
  echo "full (+dominators):    cpu ${f_cpu}s  $(awk -v b="$bytes" -v c="$f_cpu" 'BEGIN{printf "%.0f", b/1e6/c}') MB/s  peak RSS $((f_rss/1024)) MB"
  if [[ "$mb" -le 100 ]]; then
    if command -v heapy > /dev/null; then
      read -r h_cpu h_rss < <(median5 heapy read "$dump")
      echo "heapy read:            cpu ${h_cpu}s  peak RSS $((h_rss/1024)) MB"
    fi
    read -r r_cpu r_rss < <(median5 ruby --disable-gems -e 'n = 0; File.foreach(ARGV[0]) { n += 1 }' "$dump")
    echo "ruby File.foreach:     cpu ${r_cpu}s"
  fi
done
