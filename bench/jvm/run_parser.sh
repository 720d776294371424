#!/bin/sh
# The unified parser alone (no report layer): bench/jvm/unified_driver.cpp built natively (g++ -O2) and
# with emscripten (the project's wasm flags: -O3 -msimd128, core/wasm_string_ops.cpp), run on the ~200 MB G1
# log of run.sh: native 5 times (MB/s from process CPU time), wasm in node 5 times plus once on the first
# 5 MB (node start-up, to subtract; CPU time via /usr/bin/time).
# Usage: bench/jvm/run_parser.sh [TARGET_MB]
set -e
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs
mb=${1:-200}
log=${TMPDIR:-/tmp}/gcscope-bench-g1-${mb}mb.log
[ -f "$log" ] || python3 bench/jvm/make_big_g1.py "$log" "$mb"
mkdir -p build/bench
head -c 5000000 "$log" > build/bench/g1-5MB.log
# The parser's files: the shared core (unified_parser.cpp) and one file per collector family.
PARSER=$(ls wasm/jvm/unified/unified_*.cpp)
g++ -std=c++17 -O2 -Iwasm bench/jvm/unified_driver.cpp $PARSER -o build/bench/unified_driver
em++ -std=c++17 -O3 -msimd128 -fwasm-exceptions -Iwasm bench/jvm/unified_driver.cpp $PARSER \
  wasm/core/wasm_string_ops.cpp -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB --pre-js wasm/bindings/pre.js \
  -o build/bench/unified_driver.js
for i in 1 2 3 4 5; do build/bench/unified_driver "$log" | tail -1; done
for f in build/bench/g1-5MB.log "$log" "$log" "$log" "$log" "$log"; do
  /usr/bin/time -f "wasm $f user %U s sys %S s" node build/bench/unified_driver.js "$f" | tail -1
done
