#!/bin/sh
# Legacy parser in WebAssembly (node/V8): builds the driver with emscripten and times it on the first
# 60 MB of the benchmark log (CPU time via /usr/bin/time; subtract the 5 MB run's start-up time).
set -e
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs
LOG=build/bench/cms-206MB.log
[ -f "$LOG" ] || bench/jvm-legacy/run_bench.sh
head -c 60000000 "$LOG" > build/bench/cms-60MB.log
head -c 5000000 "$LOG" > build/bench/cms-5MB.log
em++ -std=c++17 -O2 -fwasm-exceptions -Iwasm bench/jvm-legacy/legacy_driver.cpp wasm/jvm/legacy/legacy_parser.cpp \
  -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB --pre-js wasm/bindings/pre.js -o build/bench/legacy_driver.js
for f in build/bench/cms-5MB.log build/bench/cms-60MB.log build/bench/cms-60MB.log build/bench/cms-60MB.log; do
  /usr/bin/time -f "$f user %U s" node build/bench/legacy_driver.js "$f" | tail -1
done
