#!/usr/bin/env bash
# The CLI contract that outside checks rely on: document shape, exit statuses 0/2/3, directories.
#   cli_contract.sh repo     the checks on the repository's own fixtures
#   cli_contract.sh corpus   the checks on the shared corpus (GCSCOPE_CORPUS_DIR, else ../shared/corpus
#                            beside the checkout; CTest: cli_contract_corpus, label corpus)
set -u
part=${1:?repo or corpus}
. "$(dirname "$0")/lib.sh"

if [ "$part" = repo ]; then
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

"$G" analyze "$tmp/does-not-exist" > "$tmp/missing.json"; rc=$?
check "a missing path is an error, exit 3" '[ $rc -eq 3 ] && grep -q "no such file" "$tmp/missing.json"'

"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" --html "$tmp/r.html" > /dev/null; rc=$?
check "--html writes one self-contained file" '[ $rc -eq 0 ] && grep -q "id=\"gcscope-data\"" "$tmp/r.html" && ! grep -qiE "(src|href)=\"https?:" "$tmp/r.html"'
"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" --fail-on bogus > /dev/null 2>&1; rc=$?
check "--fail-on needs a known severity (2)" '[ $rc -eq 2 ]'
"$G" analyze "$ROOT/fixtures/jvm/jdk17-g1.log" --max-p99-ms x > /dev/null 2>&1; rc=$?
check "--max-p99-ms needs a number (2)" '[ $rc -eq 2 ]'

# stackprof --json on frame names that are not UTF-8 by RFC 3629 (fixtures/stackprof/utf8/make.rb):
# exit 1 with Ruby JSON's message for an overlong form and a surrogate, as the real CLI; the real CLI
# too, when it is on this machine.
U=$ROOT/fixtures/stackprof/utf8
for k in overlong surrogate valid; do
  "$G" stackprof --json "$U/$k.dump" > "$tmp/u8.json" 2> "$tmp/u8.err"; rc=$?
  want=1; [ $k = valid ] && want=0
  if command -v stackprof > /dev/null; then stackprof --json "$U/$k.dump" > /dev/null 2>&1; want=$?; fi
  if [ $k = valid ]; then
    check "stackprof --json of a valid UTF-8 frame name prints it" '[ $rc -eq $want ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [f[\"name\"] for f in d[\"frames\"].values()]==[\"caf\u00e9\"]" "$tmp/u8.json"'
  else
    check "stackprof --json fails on a $k frame name, as stackprof" '[ $rc -eq $want ] && grep -q "source sequence is illegal/malformed utf-8" "$tmp/u8.err"'
  fi
done

"$G" stackprof --file source_lines.rb "$ROOT/fixtures/stackprof/source-lines.dump" > "$tmp/file.txt"; rc=$?
# The dump records the absolute path of the machine that made it: where that file exists, the CLI
# prints it annotated (= the real CLI's golden), elsewhere SOURCE UNAVAILABLE, as stackprof does.
recorded=$(sed -n '1s/.*(\(.*\):[0-9]*)$/\1/p' "$ROOT/fixtures/stackprof/source-lines.method-format_row.txt")
if [ -e "$recorded" ] && cmp -s "$recorded" "$ROOT/fixtures/stackprof/source_lines.rb"; then
  check "stackprof --file with the source on disk = the real CLI's bytes" '[ $rc -eq 0 ] && cmp -s "$tmp/file.txt" "$ROOT/fixtures/stackprof/source-lines.file.txt"'
else
  check "stackprof --file without the source on disk: SOURCE UNAVAILABLE" '[ $rc -eq 0 ] && [ "$(cat "$tmp/file.txt")" = "        SOURCE UNAVAILABLE" ]'
fi
# Probe listings (fixtures/tracing/make_listings.sh): bpftrace -l and tplist over one libruby, 22 lines each.
"$G" analyze "$ROOT/fixtures/tracing/bpftrace-l-usdt-libruby.txt" "$ROOT/fixtures/tracing/tplist-l-libruby.txt" > "$tmp/listing.json"; rc=$?
check "probe listings: bpftrace-text and bcc-output list the same 22 provider:name probes" '[ $rc -eq 0 ] && python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); r={x[\"format\"]: x for x in d[\"reports\"]}
a=[p[\"probe\"] for p in r[\"bpftrace-text\"][\"probes\"]]; b=[p[\"probe\"] for p in r[\"bcc-output\"][\"probes\"]]
assert len(a)==22 and sorted(a)==sorted(b) and \"ruby:method__entry\" in a, (a, b)" "$tmp/listing.json"'
fi

if [ "$part" = corpus ]; then
"$G" analyze "$C/jvm/gctoolkit/streaming/rotating_directory" > "$tmp/dir.json"; rc=$?
check "a directory is one input set" '[ $rc -eq 0 ] && python3 -c "import json; d=json.load(open(\"$tmp/dir.json\")); assert len(d[\"inputs\"])==2 and len(d[\"reports\"])==1 and len(d[\"reports\"][0][\"inputs\"])==2"'

# gcscope query: the JVM session's KPIs of a time range, against the pauses the log's text shows
# starting in it (each "GC(n) Pause <Kind> ... <d>ms" line, started at its "[gc,start] GC(n) Pause
# <Kind>" line; nearest-rank p99), counted here by a script that does not use the parser.
L=$C/jvm/generated/jdk17_g1_gc-all-safepoint_default-decorations.log
"$G" query "$L" --method jvm.summary --args '{"t0": 5, "t1": 10}' > "$tmp/q.json"; rc=$?
check "query jvm.summary: the range's pauses as the text counts them" '[ $rc -eq 0 ] && python3 -c "
import json, math, re, sys
starts, d = {}, []
for line in open(sys.argv[1]):
    m = re.match(r\"\[(\d+\.\d+)s\]\[info\s*\]\[gc,start\s*\] GC\((\d+)\) (Pause \w+)\", line)
    if m: starts[(m[2], m[3])] = float(m[1]); continue
    m = re.match(r\"\[\d+\.\d+s\]\[info\s*\]\[gc\s*\] GC\((\d+)\) (Pause \w+).* (\d+)\.(\d{3})ms$\", line)
    if m and 5 <= starts[(m[1], m[2])] <= 10: d.append(int(m[3]) * 1000 + int(m[4]))
d.sort(); p = json.load(open(sys.argv[2]))[\"result\"][\"pauses\"]
assert len(d) > 100 and p[\"count\"] == len(d), (p[\"count\"], len(d))
assert p[\"total_s\"] == sum(d) / 1e6 and p[\"max_s\"] == d[-1] / 1e6 and p[\"min_s\"] == d[0] / 1e6, p
assert p[\"p99_s\"] == d[math.ceil(0.99 * len(d)) - 1] / 1e6, p
" "$L" "$tmp/q.json"'
"$G" query "$L" --method jvm.summary --args '{"t0": 10, "t1": 5}' > "$tmp/qbad.json"; rc=$?
check "query with a bad range: an error answer, exit 3" '[ $rc -eq 3 ] && grep -q "must not be before" "$tmp/qbad.json"'
"$G" query "$L" --method jvm.events --args '{"sort": "duration_s", "desc": true, "limit": 3}' > "$tmp/qe.json"; rc=$?
check "query jvm.events: a page of the event table" '[ $rc -eq 0 ] && python3 -c "
import json, sys; r = json.load(open(sys.argv[1]))[\"result\"]; d = [x[\"duration_s\"] for x in r[\"rows\"]]
assert len(d) == 3 and d == sorted(d, reverse=True) and r[\"total\"] > 2657, r[\"total\"]" "$tmp/qe.json"'

# stackprof's report options (the byte-for-byte comparisons are in tests/stackprof; here: the CLI wiring).
P=$C/prof/blocks-cpu-raw
"$G" stackprof --flamegraph "$P/blocks-cpu-raw.dump" > "$tmp/fg.js"; rc=$?
check "stackprof --flamegraph = the real CLI's bytes" '[ $rc -eq 0 ] && cmp -s "$tmp/fg.js" "$P/golden/flamegraph.js"'
"$G" stackprof --alphabetical-flamegraph "$P/blocks-cpu-raw.json" > "$tmp/afg.js"; rc=$?
check "stackprof --alphabetical-flamegraph (JSON dump) = the real CLI's bytes" '[ $rc -eq 0 ] && cmp -s "$tmp/afg.js" "$P/golden/alphabetical-flamegraph.js"'
"$G" stackprof --flamegraph "$C/prof/blocks-cpu-agg/blocks-cpu-agg.dump" > /dev/null 2> "$tmp/fg.err"; rc=$?
check "stackprof --flamegraph without raw fails with stackprof's message" '[ $rc -eq 1 ] && grep -q "profile does not include raw samples" "$tmp/fg.err"'
"$G" stackprof --d3-flamegraph "$P/blocks-cpu-raw.dump" > "$tmp/d3.html"; rc=$?
check "stackprof --d3-flamegraph: one self-contained page with the profile (486 samples)" '[ $rc -eq 0 ] && grep -q "id=\"gcscope-data\"" "$tmp/d3.html" && ! grep -qiE "(src|href)=\"https?:" "$tmp/d3.html" && python3 -c "
import json,re,sys; t=open(sys.argv[1]).read(); m=re.search(r\"<script[^>]*id=.gcscope-data.[^>]*>(.*?)</script>\", t, re.S); d=json.loads(m.group(1)); r=[x for x in d[\"reports\"] if x[\"format\"]==\"stackprof\"][0]; assert r[\"samples\"]==486 and r[\"has_raw\"], r[\"samples\"]" "$tmp/d3.html"'

# A forced format that reads nothing is a rejected input (exit 3), not an empty report.
for f in empty.dump marshal-4.9.dump truncated-in-header.dump not-a-profile.dump; do
  "$G" analyze "$C/prof/broken/$f" --format stackprof > "$tmp/broken.json"; rc=$?
  check "analyze $f --format stackprof exits 3 with no report" '[ $rc -eq 3 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"reports\"]==[] and d[\"errors\"]" "$tmp/broken.json"'
done
"$G" analyze "$C/prof/broken/truncated-60pct.dump" > /dev/null; rc=$?
check "a truncated dump whose frames were read is a partial result (exit 0)" '[ $rc -eq 0 ]'

# Profiles: compare with a regression gate, exports that decode.
"$G" compare "$P/blocks-cpu-raw.dump" "$C/prof/blocks-cpu-agg/blocks-cpu-agg.dump" --fail-on-regression 4 > "$tmp/cmp.json"; rc=$?
check "compare --fail-on-regression 4: exit 4, Array#select grew by 4.9 points" '[ $rc -eq 4 ] && python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); r=d[\"regressions\"]; assert [x[\"name\"] for x in r]==[\"Array#select\"], r" "$tmp/cmp.json"'
"$G" compare "$P/blocks-cpu-raw.dump" "$C/prof/blocks-cpu-agg/blocks-cpu-agg.dump" --fail-on-regression 5 > /dev/null; rc=$?
check "compare --fail-on-regression 5: exit 0" '[ $rc -eq 0 ]'
"$G" export "$P/blocks-cpu-raw.dump" --to pprof -o "$tmp/p.pb.gz"; rc=$?
check "export --to pprof writes a gzip file" '[ $rc -eq 0 ] && [ "$(head -c 2 "$tmp/p.pb.gz" | od -An -tx1 | tr -d " ")" = "1f8b" ]'
"$G" export "$P/blocks-cpu-raw.dump" --to speedscope --transforms '[{"drop_function": "(garbage collection)"}]' -o "$tmp/s.json"; rc=$?
check "export --to speedscope --transforms: the samples without GC (486 - 49)" '[ $rc -eq 0 ] && python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); assert d[\"profiles\"][0][\"endValue\"]==437, d[\"profiles\"][0][\"endValue\"]" "$tmp/s.json"'
"$G" export "$C/prof/blocks-cpu-agg/blocks-cpu-agg.dump" --to pprof -o "$tmp/agg.pb.gz" 2> "$tmp/agg.err"; rc=$?
check "export of a dump without raw samples: exit 3 with stackprof's reason" '[ $rc -eq 3 ] && grep -q "raw samples" "$tmp/agg.err"'
fi

finish "cli_contract $part"
