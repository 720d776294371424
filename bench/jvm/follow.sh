#!/bin/sh
# Following a growing log (bench/jvm/follow_driver.cpp) on the ~200 MB G1 log of run.sh: append
# throughput and the cost of each report as the log grows, natively, linked against the CLI build's
# core library (build first: cmake --build build/native).
# Usage: bench/jvm/follow.sh [TARGET_MB] [APPEND_KB] [SNAPSHOT_MB]
set -e
cd "$(dirname "$0")/../.."
mb=${1:-200}
log=${TMPDIR:-/tmp}/gcscope-bench-g1-${mb}mb.log
[ -f "$log" ] || python3 bench/jvm/make_big_g1.py "$log" "$mb"
mkdir -p build/bench
g++ -std=c++17 -O2 -Iwasm bench/jvm/follow_driver.cpp build/native/libgcscope_core.a -lz -o build/bench/follow_driver
build/bench/follow_driver "$log" "${2:-64}" "${3:-25}"
