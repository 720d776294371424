#!/bin/sh
# The JVM session's questions natively (bench/jvm/query_driver.cpp) on a big unified G1 log built
# by make_big_g1.py, linked against the CLI build's core library (build first: cmake --build
# build/native). Usage: bench/jvm/query.sh [TARGET_MB] [ZOOMS_PER_WIDTH] [PAGES]
set -e
cd "$(dirname "$0")/../.."
mb=${1:-200}
log=${TMPDIR:-/tmp}/gcscope-bench-g1-${mb}mb.log
[ -f "$log" ] || python3 bench/jvm/make_big_g1.py "$log" "$mb"
mkdir -p build/bench
g++ -std=c++17 -O2 -Iwasm bench/jvm/query_driver.cpp build/native/libgcscope_core.a -lz -o build/bench/query_driver
/usr/bin/time -f "peak RSS %M KiB" build/bench/query_driver "$log" "${2:-30}" "${3:-30}"
