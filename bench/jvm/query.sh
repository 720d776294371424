#!/bin/sh
# The JVM session's questions natively (bench/jvm/query_driver.cpp) on a big unified G1 log built
# by make_big_g1.py, linked against the CLI build's core library (build first: cmake --build
# build/native). Usage: bench/jvm/query.sh [TARGET_MB] [ZOOMS_PER_WIDTH] [PAGES]
set -e
cd "$(dirname "$0")/../.."
. bench/jvm/driver.sh
driver query "${1:-200}"
/usr/bin/time -f "peak RSS %M KiB" "$driver" "$log" "${2:-30}" "${3:-30}"
