#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each one.
#   fuzz/run.sh smoke        ~10 s per target (CI)
#   fuzz/run.sh long [SECS]  SECS per target (default 600), then merges what was found into the
#                            target's kept corpus and writes its archive back (commit it)
#   fuzz/run.sh minimize     shrinks each kept corpus to a minimal set with the same features
#                            (long runs' merges only ever add inputs) and writes the archive back
# Each target's kept corpus is one archive in the repository, fuzz/corpus/<target>.tar.xz, holding
# the folder <target>/ (inputs named by their SHA-1, as libFuzzer names them). Every mode first
# unpacks it into build/fuzz/corpus/<target>/ unless that folder already holds the archive's bytes.
# Environment: JOBS=N runs N targets at a time in long mode (default 1; each target is one process);
# FUZZ_TARGETS="fuzz_any fuzz_stackprof" runs only those; BUILD_JOBS=N for the build (default 2);
# RUN_ID=b keeps this run's work folder and log apart (build/fuzz/work/<target>-b/), so two runs of
# one target can share it out over two cores (their finds are merged into the same corpus, one
# merge at a time under a lock). New interesting inputs go to build/fuzz/work/<target>/ (never
# into the kept corpus); a crash is
# written to build/fuzz/crashes/ and fails the run. Prints executions per target for FUZZING.md and
# appends them, with the date and the command, to build/fuzz/runs.log. A long run can be cut short
# with `pkill -INT -f build/fuzz/fuzz_`: its figures are still counted and what it found is merged.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-smoke}
case $mode in smoke|long|minimize) ;; *) echo "usage: fuzz/run.sh smoke|long [SECS]|minimize" >&2; exit 2 ;; esac
secs=${2:-600}
[ "$mode" = smoke ] && secs=${FUZZ_SMOKE_SECONDS:-10}
jobs=1; [ "$mode" = long ] && jobs=${JOBS:-1}
CC=clang CXX=clang++ cmake -S . -B build/fuzz -DGCSCOPE_FUZZ=ON -DGCSCOPE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# The targets and their domains come from the registry: the build writes them (fuzz/targets.cmake).
cmake --build build/fuzz -j"${BUILD_JOBS:-2}" --target fuzz_targets >/dev/null
targets=$(cut -d' ' -f1 build/fuzz/fuzz_targets.txt | tr '\n' ' ')
targets=${FUZZ_TARGETS:-$targets}
# ASan's defaults keep 256 MB of freed memory in quarantine and fill every new block: each input
# here makes ~1,200 small allocations (the report), so those defaults cost ~390 MB RSS per target
# and page faults on every run. Freed blocks wait in the quarantine (poisoned, so a use after free
# is caught) until it is full; an input's whole pipeline allocates ~115 KB, so a 1 MB quarantine
# (and 64 KB per thread before it) still holds everything the current input and the few before it
# freed, and cycles through memory that stays in the core's L2 cache: with 16 MB, every new block
# was a cache miss, and a third of the CPU went to ASan's Allocate (FUZZING.md, "Harness").
# malloc_context_size=2: every allocation records its caller's stack for reports, and 8 frames (the
# run's earlier setting) cost ~8% of the CPU; detection is the same, only the allocation stack
# printed with a report is shorter (replay the crash file with the binary and no ASAN_OPTIONS for
# the full stack).
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=1:thread_local_quarantine_size_kb=64:max_malloc_fill_size=0:malloc_context_size=2}
# -max_len=4096: the kept corpus holds inputs of at most 4 KiB (the merge below keeps no more), so
# longer mutants found coverage that could not be kept; the fixtures used as seeds are cut to 4 KiB.
# -entropic=0: libFuzzer's entropic schedule spent ~20-40% of the CPU in UpdateFeatureFrequency
# (every input runs the whole pipeline: ~16k features); in equal runs the plain schedule reached
# the same coverage at less CPU (FUZZING.md, "Harness").
# The limits are shared with the merges (after a long run, and in minimize), so that a merge keeps
# only inputs the fuzzing itself could make.
limit_flags=(-max_len=4096 -rss_limit_mb=2048 -timeout=20)
fuzz_flags=("${limit_flags[@]}" -entropic=0 -print_final_stats=1)
merge_flags=(-merge=1 "${limit_flags[@]}")
mkdir -p build/fuzz/crashes build/fuzz/corpus
archive_of() { echo "fuzz/corpus/$1.tar.xz"; }
kept_of() { echo "build/fuzz/corpus/$1"; }
# Unpacks target $1's archive into its kept folder unless the folder holds it already (the stamp
# beside the folder is the SHA-1 of the archive it was unpacked from). Without an archive the
# target starts from an empty kept corpus.
unpack_corpus() {
  local archive kept sum; archive=$(archive_of "$1") kept=$(kept_of "$1")
  if [ ! -f "$archive" ]; then mkdir -p "$kept"; return 0; fi
  sum=$(sha1sum < "$archive")
  [ -d "$kept" ] && [ "$(cat "$kept.sha1" 2>/dev/null)" = "$sum" ] && return 0
  rm -rf "$kept" "$kept.sha1"
  tar -xJf "$archive" -C build/fuzz/corpus
  mkdir -p "$kept"
  echo "$sum" > "$kept.sha1"
}
# Packs the kept folder back into the archive: names sorted, owner, mode and time fixed and xz
# single-threaded, so the same inputs always make the same bytes (an unchanged corpus leaves git
# nothing to commit).
pack_corpus() {
  local archive kept; archive=$(archive_of "$1") kept=$(kept_of "$1")
  tar -C build/fuzz/corpus --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
      --mode=u=rwX,go=rX -cf - "$1" | xz -T1 -9 > "$archive.tmp"
  mv "$archive.tmp" "$archive"
  sha1sum < "$archive" > "$kept.sha1"
}
# Runs "$@" holding target $1's corpus lock (two runs of one target merge one after the other).
with_corpus_lock() {
  local name=$1; shift
  ( flock 8; "$@" ) 8>"build/fuzz/corpus/$name.lock"
}
# minimize: merge the kept corpus into an empty folder, which keeps only inputs that add features
# not already covered by those kept before them (smallest first), and keep that folder instead.
# The old corpus stays unless the merge ran to its end and kept at least one input.
minimize_target() {
  local name=$1 kept fresh=build/fuzz/minimized/$1 log=build/fuzz/$1.minimize.log before after
  unpack_corpus "$name"; kept=$(kept_of "$name")
  rm -rf "$fresh"; mkdir -p "$fresh"
  if "build/fuzz/$name" "${merge_flags[@]}" "$fresh" "$kept" > "$log" 2>&1 \
      && [ -n "$(ls -A "$fresh")" ]; then
    before=$(ls "$kept" | wc -l) after=$(ls "$fresh" | wc -l)
    rm -rf "$kept"; mv "$fresh" "$kept"
    pack_corpus "$name"
    echo "$name: $before -> $after inputs; $(grep -ao 'MERGE-OUTER: [0-9]* new files with [0-9]* new features' "$log" | tail -1 | cut -d' ' -f2-)"
  else
    echo "$name: minimizing failed, corpus left as it was (see $log)"; return 1
  fi
}
if [ "$mode" = minimize ]; then
  for name in $targets; do
    [ -x "build/fuzz/$name" ] && [ -f "$(archive_of "$name")" ] || continue
    with_corpus_lock "$name" minimize_target "$name" || exit 1
  done
  exit 0
fi
# long: merges what this run found into the kept corpus (unpacked again first if another run of
# the target wrote the archive meanwhile) and writes the archive back.
merge_found() {
  local name=$1 work=$2
  unpack_corpus "$name"
  "build/fuzz/$name" "${merge_flags[@]}" "$(kept_of "$name")" "$work" \
    > "build/fuzz/$name${RUN_ID:+-$RUN_ID}.merge.log" 2>&1 || true
  pack_corpus "$name"
}
run_target() {
  local bin=$1 name dom work log execs
  name=$(basename "$bin")
  work=build/fuzz/work/$name${RUN_ID:+-$RUN_ID}; mkdir -p "$work"
  # Seeds: the target's kept corpus (unpacked from its archive), plus the real fixtures of its domain.
  dom=$(awk -v t="$name" '$1 == t && $2 != "-" { print $2 }' build/fuzz/fuzz_targets.txt)
  with_corpus_lock "$name" unpack_corpus "$name"
  local seeds=(); for d in "$(kept_of "$name")" ${dom:+fixtures/$dom}; do [ -d "$d" ] && seeds+=("$d"); done
  [ -z "$dom" ] && seeds+=(fixtures/jvm fixtures/stackprof fixtures/rbkit fixtures/tracing fixtures/rubygc)
  log=build/fuzz/$name${RUN_ID:+-$RUN_ID}.log
  local crashed=0 rc=0 outcome=''
  "$bin" "$work" "${seeds[@]}" -max_total_time="$secs" "${fuzz_flags[@]}" \
      -artifact_prefix=build/fuzz/crashes/"$name"- > "$log" 2>&1 || rc=$?
  # libFuzzer exits 72 when stopped by SIGINT (kill -INT on the target: a long run cut short, say
  # before a CI run needs the cores); it prints its final figures first, and what it found is merged.
  if [ $rc = 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
    outcome=' interrupted'
  elif [ $rc != 0 ]; then
    echo "CRASH in $name (see $log)"; crashed=1; outcome=' CRASH'
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "$name: $execs executions in ${secs}s$outcome"
  echo "$(date -u '+%Y-%m-%d %H:%M') UTC $name $execs executions, fuzz/run.sh $mode $secs (JOBS=$jobs${RUN_ID:+ RUN_ID=$RUN_ID})$outcome" >> build/fuzz/runs.log
  [ "$mode" != long ] || with_corpus_lock "$name" merge_found "$name" "$work"
  return $crashed
}
status=0
rm -f build/fuzz/crashed.*
for name in $targets; do
  bin=build/fuzz/$name
  [ -x "$bin" ] || continue
  if [ "$jobs" -le 1 ]; then
    run_target "$bin" || status=1
  else
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    ( run_target "$bin" || touch build/fuzz/crashed."$name" ) &
  fi
done
wait
ls build/fuzz/crashed.* >/dev/null 2>&1 && status=1
exit $status
