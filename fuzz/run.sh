#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each one.
#   fuzz/run.sh smoke        ~10 s per target (CI)
#   fuzz/run.sh long [SECS]  SECS per target (default 600), then merges what was found into the
#                            minimized corpus kept in the repo, fuzz/corpus/<target>/ (commit it)
# New interesting inputs go to build/fuzz/work/<target>/ (never into the seed folders); a crash is
# written to build/fuzz/crashes/ and fails the run. Prints executions per target for FUZZING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-smoke}
secs=${2:-600}
[ "$mode" = smoke ] && secs=${FUZZ_SMOKE_SECONDS:-10}
CC=clang CXX=clang++ cmake -S . -B build/fuzz -DGCSCOPE_FUZZ=ON -DGCSCOPE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets="fuzz_any fuzz_byte_sources"
for f in jvm-gc-log tunemygc-payload stackprof ruby-heap-dump rbkit-capture bpftrace-text bpftrace-json folded-stacks perf-script bcc-output; do
  targets="$targets fuzz_$f"
done
cmake --build build/fuzz -j"${JOBS:-2}" --target $targets >/dev/null
# ASan's defaults keep 256 MB of freed memory in quarantine and fill every new block: each input
# here makes thousands of small allocations (the report), so those defaults cost ~390 MB RSS per
# target and page faults on every run. A 16 MB quarantine still catches use-after-free of the
# current input; it keeps a target near 70 MB.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:max_malloc_fill_size=0:malloc_context_size=8}
mkdir -p build/fuzz/crashes
status=0
for bin in build/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  work=build/fuzz/work/$name; mkdir -p "$work"
  # Seeds: the target's minimized corpus kept in the repo, plus the real fixtures of its domain.
  case $name in
    fuzz_jvm-gc-log) dom=jvm ;; fuzz_tunemygc-payload) dom=rubygc ;; fuzz_stackprof) dom=stackprof ;;
    fuzz_ruby-heap-dump) dom=heap ;; fuzz_rbkit-capture) dom=rbkit ;; fuzz_bpftrace-*|fuzz_folded-stacks|fuzz_perf-script|fuzz_bcc-output) dom=tracing ;;
    *) dom="" ;;
  esac
  seeds=(); for d in fuzz/corpus/$name ${dom:+fixtures/$dom}; do [ -d "$d" ] && seeds+=("$d"); done
  [ -z "$dom" ] && seeds+=(fixtures/jvm fixtures/stackprof fixtures/rbkit fixtures/tracing fixtures/rubygc)
  log=build/fuzz/$name.log
  if ! "$bin" "$work" "${seeds[@]}" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 -timeout=20 \
      -artifact_prefix=build/fuzz/crashes/"$name"- -print_final_stats=1 > "$log" 2>&1; then
    echo "CRASH in $name (see $log)"; status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "$name: $execs executions in ${secs}s"
  if [ "$mode" = long ]; then
    mkdir -p fuzz/corpus/$name
    "$bin" -merge=1 -max_len=4096 -rss_limit_mb=2048 -timeout=20 fuzz/corpus/$name "$work" > build/fuzz/$name.merge.log 2>&1 || true
  fi
done
exit $status
