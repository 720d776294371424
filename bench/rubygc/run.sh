#!/bin/sh
# Benchmark of the TuneMyGC tuner, native. Needs build/native (cmake --build build/native).
#   sh bench/rubygc/run.sh            (from the repository root)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
payload=/tmp/gcscope-bench-rubygc.json
[ -f "$payload" ] || sh "$root/bench/rubygc/make_payload.sh" "$payload"
g++ -O2 -std=c++17 -I"$root/wasm" "$root/bench/rubygc/bench_tuner.cpp" "$root/build/native/libgcscope_core.a" -lz \
  -o /tmp/gcscope-bench-rubygc
/tmp/gcscope-bench-rubygc "$payload" 5
# Peak RSS of the whole CLI on the same payload (reads, analyzes, prints the report).
/usr/bin/time -v "$root/build/native/gcscope" analyze "$payload" 2>/tmp/gcscope-bench-rubygc.time >/dev/null
grep -E "Maximum resident|Elapsed|User time" /tmp/gcscope-bench-rubygc.time
