#!/usr/bin/env bash
# stackprof benchmark: our reports vs the real stackprof 0.2.21 CLI on one large dump generated
# here (Debian ruby + ruby-stackprof). Usage: bench/stackprof/run.sh [ALLOCATIONS]
# Prints one line per measurement: command, median wall s, median CPU s (user+sys) of 5 runs, MB/s
# (input MB / CPU s), peak RSS of the last run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${BENCH_OUT:-$root/build/bench/stackprof}
gcscope=${GCSCOPE:-$root/build/native/gcscope}
runs=${RUNS:-5}
mkdir -p "$out"
dump=$out/large.dump
if [ ! -s "$dump" ]; then
  ruby "$here/generate.rb" "$dump" "${1:-260000}"
fi
mb=$(awk -v b="$(stat -c %s "$dump")" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "dump: $dump ($mb MB)"
ruby -rstackprof -e 'd = Marshal.load(File.binread(ARGV[0])); r = d[:raw]; n = 0; i = 0; while i < r.size; n += 1; i += r[i] + 2; end; puts "samples #{d[:samples]}, frames #{d[:frames].size}, raw records #{n}, raw ints #{r.size}"' "$dump"

measure() {  # name, command...
  local name=$1; shift
  local walls=() cpus=() rss=0
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" "$@" > "$out/stdout.txt"
    read -r wall user sys kb < "$out/time.txt"
    walls+=("$wall"); cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"); rss=$kb
  done
  local mw mc
  mw=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  mc=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  printf '%-34s wall %7.3f s  cpu %7.3f s  %8.1f MB/s  peak RSS %6d MB  (out %s bytes)\n' "$name" "$mw" "$mc" \
    "$(awk -v m="$mb" -v c="$mc" 'BEGIN { print (c > 0 ? m / c : 0) }')" "$((rss / 1024))" "$(stat -c %s "$out/stdout.txt")"
}

measure "gcscope stackprof --text" "$gcscope" stackprof --text "$dump"
cp "$out/stdout.txt" "$out/ours-text.txt"
measure "stackprof --text" stackprof "$dump" --text
cp "$out/stdout.txt" "$out/theirs-text.txt"
measure "gcscope stackprof --stackcollapse" "$gcscope" stackprof --stackcollapse "$dump"
measure "gcscope analyze (report JSON)" "$gcscope" analyze "$dump"
# Same header and rows (tie order aside): compare sorted.
if diff <(sort "$out/ours-text.txt") <(sort "$out/theirs-text.txt") > /dev/null; then
  echo "text reports: identical lines"
else
  echo "text reports DIFFER"; diff "$out/ours-text.txt" "$out/theirs-text.txt" | head
fi
# stackprof --stackcollapse is quadratic in the dump size (minutes on a 25 MB dump);
# STACKCOLLAPSE_BASELINE=1 runs it once.
if [ "${STACKCOLLAPSE_BASELINE:-0}" = 1 ]; then
  RUNS=1 runs=1 measure "stackprof --stackcollapse" stackprof "$dump" --stackcollapse
fi
