#!/bin/sh
# The set-up the native JVM benchmarks share, sourced by query.sh and follow.sh from the repository
# root: `driver NAME TARGET_MB` makes the unified G1 log of about TARGET_MB MB (make_big_g1.py, kept
# in $TMPDIR between runs) and builds bench/jvm/NAME_driver.cpp against the CLI build's core library
# (build first: cmake --build build/native). It sets $log and $driver.
driver() {
  log=${TMPDIR:-/tmp}/gcscope-bench-g1-$2mb.log
  [ -f "$log" ] || python3 bench/jvm/make_big_g1.py "$log" "$2"
  mkdir -p build/bench
  driver=build/bench/$1_driver
  g++ -std=c++17 -O2 -Iwasm "bench/jvm/$1_driver.cpp" build/native/libgcscope_core.a -lz -o "$driver"
}
