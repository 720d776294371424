#!/bin/sh
# Legacy parser speed, four figures, on one log (default: the harness's
# 200 MiB ParNew/CMS log, `python3 bench/harness.py --only jvm-legacy` writes it):
#   1. native parser alone   (legacy_driver.cpp built from the sources, g++ -O2)
#   2. native full report    (build/native/gcscope analyze LOG > /dev/null)
#   3. wasm parser alone     (the same driver, em++ with the project's wasm flags, in node)
#   4. wasm full report      (bench/node_bench.js on build/wasm/site, as the worker runs it)
# Each is run RUNS times pinned to one core (taskset -c 1); printed: user+sys CPU seconds of every run,
# their min and median, and MiB/s = log MiB / CPU s. The machine is shared and noisy: compare minimums
# and medians of runs made in the same period, never single runs.
# The wasm runs include node's start-up and the module's compilation: the same commands on an empty log
# give that constant (printed last). To measure another version, point SRC at its sources (a `git archive`
# of the commit), GCSCOPE at its CLI and SITE at its build/wasm/site.
# PARTS="native-parser" (a subset of "native-parser native-analyze wasm-parser wasm-analyze", the
# default) measures only those; the native parser alone needs no build of the repository.
# Usage: bench/jvm-legacy/run_speed.sh [LOG] [RUNS]   (needs build/native and build/wasm built)
set -e
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs
LOG=${1:-bench/out/jvm-legacy-parnew-cms.log}
RUNS=${2:-5}
SRC=${SRC:-.}
GCSCOPE=${GCSCOPE:-build/native/gcscope}
SITE=${SITE:-build/wasm/site}
OUT=${OUT:-build/bench/speed}
PARTS=${PARTS:-native-parser native-analyze wasm-parser wasm-analyze}
part() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
mkdir -p $OUT
: > $OUT/empty.log
# The parser's files: the line core, the record core and one file per collector family.
PARSER=$(ls $SRC/wasm/jvm/legacy/legacy_*.cpp | grep -v -e legacy_findings -e legacy_log_parser)
part native-parser && g++ -std=c++17 -O2 -DNDEBUG -I$SRC/wasm $SRC/bench/jvm-legacy/legacy_driver.cpp $PARSER -o $OUT/legacy_parser_native
part wasm-parser && em++ -std=c++17 -O3 -msimd128 -fwasm-exceptions -DNDEBUG -I$SRC/wasm $SRC/bench/jvm-legacy/legacy_driver.cpp \
  $PARSER $SRC/wasm/core/wasm_string_ops.cpp -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 \
  -sINITIAL_MEMORY=64MB --pre-js wasm/bindings/pre.js -o $OUT/legacy_parser_wasm.js
MIB=$(stat -c %s "$LOG" | awk '{printf "%.1f", $1 / 1048576}')
echo "log $LOG: $MIB MiB, $RUNS runs each"

measure() {  # name, command...
  name=$1
  shift
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f "%U %S" -o $OUT/time.txt taskset -c 1 "$@" > /dev/null
    awk '{print $1 + $2}' $OUT/time.txt
  done | sort -n | awk -v name="$name" -v mib="$MIB" '
    { t[NR] = $1; all = all " " $1 }
    END { med = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
          printf "%-22s cpu s:%s | min %.2f s = %.0f MiB/s | median %.2f s = %.0f MiB/s\n", name, all, t[1], mib / t[1], med, mib / med }'
}

part native-parser && measure "native parser" $OUT/legacy_parser_native "$LOG"
part native-analyze && measure "native analyze" "$GCSCOPE" analyze "$LOG"
part wasm-parser && measure "wasm parser (node)" node $OUT/legacy_parser_wasm.js "$LOG"
part wasm-analyze && measure "wasm analyze (node)" node bench/node_bench.js "$SITE" "$LOG"
RUNS=3 MIB=0
part wasm-parser && measure "node start, parser" node $OUT/legacy_parser_wasm.js $OUT/empty.log
part wasm-analyze && measure "node start, analyze" node bench/node_bench.js "$SITE" $OUT/empty.log
exit 0
