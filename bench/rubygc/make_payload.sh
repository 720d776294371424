#!/bin/sh
# Generates a ~3 MB TuneMyGC payload with the project's recorder and the fixture workload (real Ruby,
# no synthesis): 4600 requests, sample cap lifted. Output: $1 (default /tmp/gcscope-bench-rubygc.json).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/gcscope-bench-rubygc.json}
cd "$here/../../fixtures/rubygc"
RUBY_GC_TUNE_OUTPUT="$out" RUBY_GC_MAX_SAMPLES=1000000 UNITS=${UNITS:-4600} \
  ruby -r "$here/../../recorder/tunemygc_recorder.rb" workload.rb
ls -l "$out"
