#!/bin/sh
# Legacy parser in WebAssembly (node/V8): builds the driver with emscripten using the project's wasm flags
# (-O3 -msimd128, core/wasm_string_ops.cpp) and times it on the whole benchmark log and on its first 5 MB
# (node start-up + compilation, to subtract). CPU time via /usr/bin/time (emscripten's clock() is wall time).
# Usage: bench/jvm-legacy/run_bench_wasm.sh [extra em++ flags, e.g. "-O2" to compare]
set -e
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs
LOG=build/bench/cms-206MB.log
[ -f "$LOG" ] || bench/jvm-legacy/run_bench.sh
head -c 5000000 "$LOG" > build/bench/cms-5MB.log
# The parser's files: the line core, the record core and one file per collector family.
PARSER=$(ls wasm/jvm/legacy/legacy_*.cpp | grep -v -e legacy_findings -e legacy_log_parser)
em++ -std=c++17 -O3 -msimd128 ${1:-} -fwasm-exceptions -Iwasm bench/jvm-legacy/legacy_driver.cpp $PARSER \
  wasm/core/wasm_string_ops.cpp -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB --pre-js wasm/bindings/pre.js \
  -o build/bench/legacy_driver.js
for f in build/bench/cms-5MB.log "$LOG" "$LOG" "$LOG" "$LOG" "$LOG"; do
  /usr/bin/time -f "$f user %U s sys %S s" node build/bench/legacy_driver.js "$f" | tail -1
done
