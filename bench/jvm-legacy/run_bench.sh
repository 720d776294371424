#!/bin/sh
# Legacy parser benchmark: builds the ~200 MB ParNew/CMS log (not stored), then runs the native driver
# 5 times (CPU-time MB/s; report the median) and once under /usr/bin/time -v for the
# peak RSS. Usage: bench/jvm-legacy/run_bench.sh [corpus dir]
set -e
cd "$(dirname "$0")/../.."
CORPUS=${1:-../shared/corpus}
LOG=build/bench/cms-206MB.log
mkdir -p build/bench
[ -f "$LOG" ] || python3 bench/jvm-legacy/make_cms_log.py "$CORPUS/jvm/gctoolkit/preunified/cms/parnew/details/TC_oy579c2n5.gc.out" "$LOG" 58
ls -l "$LOG"
bench/jvm-legacy/build_driver.sh
for i in 1 2 3 4 5; do build/native/legacy_driver "$LOG" | tail -1; done
/usr/bin/time -v build/native/legacy_driver "$LOG" 2>&1 | grep -E "MB/s|Maximum resident"
