#!/usr/bin/env bash
# The CLI contract that outside checks rely on: document shape, exit statuses 0/2/3, directories.
set -u
G=${GCSCOPE:?path to the gcscope binary}
C=${GCSCOPE_CORPUS_DIR:?}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fail=0; pass=0
check() { if eval "$2"; then pass=$((pass+1)); else echo "FAIL: $1"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" "$ROOT/fixtures/stackprof/fib-cpu-raw.dump" > "$tmp/ok.json"; rc=$?
check "analyzed inputs exit 0" '[ $rc -eq 0 ]'
check "document has the four keys" 'python3 -c "import json,sys; d=json.load(open(\"$tmp/ok.json\")); assert set(d)>={\"gcscope\",\"inputs\",\"reports\",\"errors\"}; assert [i[\"format\"] for i in d[\"inputs\"]]==[\"jvm-gc-log\",\"stackprof\"]"'

head -c 4096 /dev/urandom > "$tmp/garbage.bin"; printf 'plain words\n' > "$tmp/words.txt"
"$G" analyze "$tmp/garbage.bin" "$tmp/words.txt" > "$tmp/bad.json"; rc=$?
check "all rejected exits 3" '[ $rc -eq 3 ]'
check "each rejection has path, offset and message" 'python3 -c "import json; d=json.load(open(\"$tmp/bad.json\")); e=d[\"errors\"]; assert len(e)==2 and e[0][\"path\"].endswith(\"garbage.bin\") and e[0][\"offset\"]==0 and \"unrecognized\" in e[0][\"message\"]"'

"$G" analyze > /dev/null 2>&1; rc=$?
check "no path is a usage error (2)" '[ $rc -eq 2 ]'
"$G" analyze --format nonsense x > /dev/null 2>&1; rc=$?
check "unknown format is a usage error (2)" '[ $rc -eq 2 ]'
"$G" frobnicate > /dev/null 2>&1; rc=$?
check "unknown command is a usage error (2)" '[ $rc -eq 2 ]'

"$G" analyze "$C/jvm/gctoolkit/streaming/rotating_directory" > "$tmp/dir.json"; rc=$?
check "a directory is one input set" '[ $rc -eq 0 ] && python3 -c "import json; d=json.load(open(\"$tmp/dir.json\")); assert len(d[\"inputs\"])==2 and len(d[\"reports\"])==1 and len(d[\"reports\"][0][\"inputs\"])==2"'
"$G" analyze "$tmp/does-not-exist" > "$tmp/missing.json"; rc=$?
check "a missing path is an error, exit 3" '[ $rc -eq 3 ] && grep -q "no such file" "$tmp/missing.json"'

"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" --html "$tmp/r.html" > /dev/null; rc=$?
check "--html writes one self-contained file" '[ $rc -eq 0 ] && grep -q "id=\"gcscope-data\"" "$tmp/r.html" && ! grep -qiE "(src|href)=\"https?:" "$tmp/r.html"'
"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" --fail-on bogus > /dev/null 2>&1; rc=$?
check "--fail-on needs a known severity (2)" '[ $rc -eq 2 ]'
"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" --max-p99-ms x > /dev/null 2>&1; rc=$?
check "--max-p99-ms needs a number (2)" '[ $rc -eq 2 ]'

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
