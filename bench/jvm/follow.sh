#!/bin/sh
# Following a growing log (bench/jvm/follow_driver.cpp) on the ~200 MB G1 log of run.sh: append
# throughput and the cost of each report as the log grows, natively, linked against the CLI build's
# core library (build first: cmake --build build/native).
# Usage: bench/jvm/follow.sh [TARGET_MB] [APPEND_KB] [SNAPSHOT_MB]
set -e
cd "$(dirname "$0")/../.."
. bench/jvm/driver.sh
driver follow "${1:-200}"
"$driver" "$log" "${2:-64}" "${3:-25}"
