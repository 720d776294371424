#!/usr/bin/env bash
# The tracing formats' stacks through the shared stack model (wasm/profile/), from the CLI: every
# expected value comes from the input files themselves, read by the few lines of awk below (folded
# text is one stack per line, "root;...;leaf WEIGHT"), or from a real tool's folding of the same
# capture (FlameGraph's stackcollapse-perf.pl and stackcollapse.pl, kept beside the inputs).
#   cli_stacks.sh repo     the repository's fixtures (fixtures/tracing/)
#   cli_stacks.sh corpus   the shared corpus (GCSCOPE_CORPUS_DIR, else ../shared/corpus)
set -u
part=${1:?repo or corpus}
. "$(dirname "$0")/lib.sh"

# One transform over folded text: T = focus | merge | drop | hide, A = the frame name (hide: an
# extended regular expression). One output line per input line, lines left without frames dropped.
transform() {
  awk -v T="$1" -v A="$2" '{
    w = $NF; s = $0; sub(/ [^ ]*$/, "", s); n = split(s, f, ";"); out = ""; keep = (T != "focus")
    for (i = 1; i <= n; i++) {
      if (T == "drop" && f[i] == A) next
      if (T == "focus" && !keep && f[i] == A) keep = 1
      if ((T == "merge" && f[i] == A) || (T == "hide" && f[i] ~ A)) continue
      if (keep) out = out (out == "" ? "" : ";") f[i]
    }
    if (out != "") print out " " w
  }' "$3"
}

# Per frame of folded text: "name<TAB>self<TAB>total"; self = weight of the lines it ends, total =
# weight of the lines holding it (once per line, recursion or not).
frame_sums() {
  awk '{
    w = $NF; s = $0; sub(/ [^ ]*$/, "", s); n = split(s, f, ";"); self[f[n]] += w; total[f[n]] += 0
    split("", seen)
    for (i = 1; i <= n; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; total[f[i]] += w }
  } END { for (k in total) printf "%s\t%.0f\t%.0f\n", k, self[k], total[k] }' "$1"
}

weight_sum() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"; }

# The engine's stacks.folded answer for FILE with ARGS (JSON), as text.
engine_folded() {
  "$G" query "$1" --method stacks.folded --args "$2" | python3 -c 'import json, sys; sys.stdout.write(json.load(sys.stdin)["result"])'
}

# compare.json's per-frame rows against the frame sums of the two sides' folded texts.
# FILES=1: the frames have files and lines (rbkit), else none (tracers print symbols only).
frames_agree() {
  python3 - "$1" "$2" "$3" "${FILES:-0}" <<'PY'
import json, sys
cmp = json.load(open(sys.argv[1]))["compare"]
with_files = sys.argv[4] == "1"
def sums(path):
    out = {}
    for line in open(path):
        name, s, t = line.rstrip("\n").split("\t")
        out[name] = (float(s), float(t))
    return out
a, b = sums(sys.argv[2]), sums(sys.argv[3])
# Frames that share a name (two <main>s of two files) are one frame of the folding: their selves
# add up, and a line holding both counts once, as the outermost of them does (the largest total).
rows = {}
for r in cmp["frames"]:
    got = rows.get(r["name"], (0, 0, 0, 0))
    rows[r["name"]] = (got[0] + r["self_a"], max(got[1], r["total_a"]), got[2] + r["self_b"], max(got[3], r["total_b"]))
    assert with_files or (r["file"] == "" and r["line"] is None)
assert set(rows) == set(a) | set(b), (sorted(set(rows) ^ (set(a) | set(b))))
for name, got in rows.items():
    want = a.get(name, (0, 0)) + b.get(name, (0, 0))
    assert got == want, (name, got, want)
assert cmp["totals"]["a"] == sum(v[0] for v in a.values()) and cmp["totals"]["b"] == sum(v[0] for v in b.values())
PY
}

# compare.json's per-frame rows against count_figures.rb --frames of side A and of side B: every
# row's (name, file, line) and its self and total on each side, and each side's sample count.
frames_counted() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
cmp = json.load(open(sys.argv[1]))["compare"]
def counts(path):
    rows, samples = {}, None
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "samples" and len(f) == 2:
            samples = int(f[1])
        else:
            rows[tuple(f[:3])] = (int(f[3]), int(f[4]))
    return rows, samples
(a, na), (b, nb) = counts(sys.argv[2]), counts(sys.argv[3])
got = {}
for r in cmp["frames"]:
    key = (r["name"], r["file"], "" if r["line"] is None else str(r["line"]))
    assert key not in got, ("two rows", key)
    got[key] = (r["self_a"], r["total_a"], r["self_b"], r["total_b"])
assert set(got) == set(a) | set(b), sorted(set(got) ^ (set(a) | set(b)))
for key, g in got.items():
    want = a.get(key, (0, 0)) + b.get(key, (0, 0))
    assert g == want, (key, g, want)
assert b != a and cmp["totals"] == {"a": na, "b": nb, "delta": nb - na}, (cmp["totals"], na, nb)
PY
}

# The largest growth of a frame's total share (percentage points) between two frame-sum files.
max_growth() {
  python3 - "$1" "$2" <<'PY'
import sys
def sums(path):
    return {l.split("\t")[0]: (float(l.split("\t")[1]), float(l.split("\t")[2])) for l in open(path)}
a, b = sums(sys.argv[1]), sums(sys.argv[2])
ta, tb = sum(v[0] for v in a.values()), sum(v[0] for v in b.values())
print(max(100 * b.get(k, (0, 0))[1] / tb - 100 * a.get(k, (0, 0))[1] / ta for k in set(a) | set(b)))
PY
}

# A gzipped pprof profile decoded by npm pprof-format: each function's flat/cum equals self/total of
# a frame_sums file.
pprof_agrees() {
  node -e '
const fs = require("fs"), zlib = require("zlib");
const { Profile } = require(process.argv[1] + "/node_modules/pprof-format");
const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(process.argv[2])));
const str = (i) => p.stringTable.strings[Number(i)];
const fn = new Map(p.function.map((f) => [Number(f.id), str(f.name)]));
const loc = new Map(p.location.map((l) => [Number(l.id), fn.get(Number(l.line[0].functionId))]));
const flat = new Map(), cum = new Map();
for (const s of p.sample) {
  const v = Number(s.value[0]), names = s.locationId.map((id) => loc.get(Number(id)));
  flat.set(names[0], (flat.get(names[0]) || 0) + v);
  for (const n of new Set(names)) cum.set(n, (cum.get(n) || 0) + v);
}
const lines = fs.readFileSync(process.argv[3], "utf8").trim().split("\n");
if (lines.length !== cum.size) throw new Error(lines.length + " frames, " + cum.size + " functions");
for (const l of lines) {
  const [name, self, total] = l.split("\t");
  if ((flat.get(name) || 0) !== Number(self) || cum.get(name) !== Number(total)) throw new Error(l);
}' "$ROOT" "$1" "$2"
}

# stacks.folded with transforms = the awk transform of the same folded file (line for line), or,
# with --input CAPTURE first, the engine's answers for CAPTURE = the awk transforms of its folding.
transforms_match() {  # [--input CAPTURE] FILE, then T A JSON triples
  local input=
  if [ "$1" = --input ]; then input=$2; shift 2; fi
  local file=$1; shift
  while [ $# -ge 3 ]; do
    transform "$1" "$2" "$file" > "$tmp/want.txt"
    engine_folded "${input:-$file}" "{\"transforms\": [$3]}" > "$tmp/got.txt"
    check "$(basename "${input:-$file}"): $3 = awk's $1 (${2})" '[ -s "$tmp/want.txt" ] && cmp -s "$tmp/want.txt" "$tmp/got.txt"'
    shift 3
  done
}

if [ "$part" = repo ]; then
F=$ROOT/fixtures/tracing/perf-script-ruby.folded.txt
P=$ROOT/fixtures/tracing/perf-script-ruby.txt
engine_folded "$F" '{}' > "$tmp/untransformed.txt"
check "folded: stacks.folded without transforms is the file (its lines are distinct)" 'cmp -s "$F" "$tmp/untransformed.txt"'
transforms_match "$F" \
  merge '[unknown]' '{"merge_function": "[unknown]"}' \
  drop '[unknown]' '{"drop_function": "[unknown]"}' \
  focus '[libruby-3.1.so.3.1.2]' '{"focus_function": "[libruby-3.1.so.3.1.2]"}' \
  hide '^(\[unknown\]|do_syscall_64)$' '{"hide": "^(\\[unknown\\]|do_syscall_64)$"}'

# perf script: the engine's folding is stackcollapse-perf.pl's (order aside: the script sorts).
engine_folded "$P" '{}' | sort > "$tmp/perf.txt"
check "perf script: stacks.folded = stackcollapse-perf.pl's output" 'sort "$F" | cmp -s - "$tmp/perf.txt"'
engine_folded "$P" '{"transforms": [{"merge_function": "[unknown]"}]}' | sort > "$tmp/perf-merged.txt"
check "perf script: merge_function = awk's merge of stackcollapse-perf.pl's output" \
  'transform merge "[unknown]" "$F" | sort | cmp -s - "$tmp/perf-merged.txt"'

# Exports: speedscope's samples add up to the file's weights; pprof decoded by npm pprof-format
# gives each function's flat/cum = its self/total in the folded text.
"$G" export "$F" --to speedscope -o "$tmp/s.json"; rc=$?
check "export --to speedscope of folded stacks: total = the file's weight sum" '[ $rc -eq 0 ] && [ "$(python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
assert d[\"\$schema\"] == \"https://www.speedscope.app/file-format-schema.json\"
print(sum(sum(p[\"weights\"]) for p in d[\"profiles\"]))" "$tmp/s.json")" = "$(weight_sum "$F")" ]'
"$G" export "$P" --to pprof -o "$tmp/p.pb.gz"; rc=$?
frame_sums "$F" > "$tmp/sums-f.tsv"
check "export --to pprof of a perf script: flat/cum per function = self/total of its folding" '[ $rc -eq 0 ] && pprof_agrees "$tmp/p.pb.gz" "$tmp/sums-f.tsv"'

# compare: two folded files (B: the samples holding ppoll twice as heavy), two perf scripts (B: the
# samples holding ppoll removed), a perf script against its folding (no frame moves).
awk '/ppoll/ { $NF = 2 * $NF } { print }' "$F" > "$tmp/b.folded"
frame_sums "$tmp/b.folded" > "$tmp/sums-b.tsv"
"$G" compare "$F" "$tmp/b.folded" > "$tmp/cmp.json"; rc=$?
check "compare of two folded files: per-frame self/total = awk's sums of each file" '[ $rc -eq 0 ] && frames_agree "$tmp/cmp.json" "$tmp/sums-f.tsv" "$tmp/sums-b.tsv"'
grow=$(max_growth "$tmp/sums-f.tsv" "$tmp/sums-b.tsv")
below=$(python3 -c "print(float('$grow') - 0.01)"); above=$(python3 -c "print(float('$grow') + 0.01)")
"$G" compare "$F" "$tmp/b.folded" --fail-on-regression "$below" > "$tmp/reg.json"; rc=$?
check "compare --fail-on-regression just below the largest growth ($grow points): exit 4" '[ $rc -eq 4 ] && python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); assert len(d[\"regressions\"]) >= 1, d" "$tmp/reg.json"'
"$G" compare "$F" "$tmp/b.folded" --fail-on-regression "$above" > /dev/null; rc=$?
check "compare --fail-on-regression just above it: exit 0" '[ $rc -eq 0 ]'

awk 'BEGIN { RS = ""; ORS = "\n\n" } !/ppoll/' "$P" > "$tmp/b.perf"
grep -v ppoll "$F" > "$tmp/b-perf.folded"
frame_sums "$tmp/b-perf.folded" > "$tmp/sums-bp.tsv"
"$G" compare "$P" "$tmp/b.perf" > "$tmp/cmp-perf.json"; rc=$?
check "compare of two perf scripts: per-frame self/total = awk's sums of their foldings" '[ $rc -eq 0 ] && frames_agree "$tmp/cmp-perf.json" "$tmp/sums-f.tsv" "$tmp/sums-bp.tsv"'
"$G" compare "$P" "$F" > "$tmp/cmp-same.json"; rc=$?
check "compare of a perf script with its folding: every frame the same on both sides" '[ $rc -eq 0 ] && frames_agree "$tmp/cmp-same.json" "$tmp/sums-f.tsv" "$tmp/sums-f.tsv"'

# A folder of captures is one side, their sum: the folded file split in two compares as the whole.
mkdir "$tmp/set"
head -n 5 "$F" > "$tmp/set/p1.folded"; tail -n +6 "$F" > "$tmp/set/p2.folded"
"$G" compare "$tmp/set" "$tmp/b.folded" > "$tmp/cmp-set.json"; rc=$?
check "compare of a folder of two folded files: frames are awk's sums of the whole file" '[ $rc -eq 0 ] && frames_agree "$tmp/cmp-set.json" "$tmp/sums-f.tsv" "$tmp/sums-b.tsv" && python3 -c "
import json, sys; a = json.load(open(sys.argv[1]))[\"compare\"][\"a\"]
assert a[\"set\"][\"captures\"] == 2 and a[\"set\"][\"not_summed\"] == [], a" "$tmp/cmp-set.json"'

# rbkit cpu_samples: the capture (fixtures/rbkit/generate_cpu.rb) carries the raw samples of a real
# stackprof profile, so its folding is stackprof's own --stackcollapse of that profile, and each
# transform is awk's transform of that text.
R=$ROOT/fixtures/rbkit/cpu-workload.rbkit
RF=$ROOT/fixtures/rbkit/cpu-workload.folded.txt
engine_folded "$R" '{}' > "$tmp/rbkit.txt"
check "rbkit: stacks.folded = stackprof --stackcollapse of the sampled profile" 'cmp -s "$RF" "$tmp/rbkit.txt"'
transforms_match --input "$R" "$RF" \
  focus 'Report#histogram' '{"focus_function": "Report#histogram"}' \
  merge 'Array#each' '{"merge_function": "Array#each"}' \
  drop 'Report#fib' '{"drop_function": "Report#fib"}' \
  hide '^(<main>|block in <main>)$' '{"hide": "^(<main>|block in <main>)$"}'
"$G" export "$R" --to speedscope -o "$tmp/rbkit.speedscope.json"; rc=$?
check "rbkit: export --to speedscope holds every sample" '[ $rc -eq 0 ] && [ "$(python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
print(sum(sum(p[\"weights\"]) for p in d[\"profiles\"]))" "$tmp/rbkit.speedscope.json")" = "$(weight_sum "$RF")" ]'
"$G" export "$R" --to pprof -o "$tmp/rbkit.pb.gz"; rc=$?
frame_sums "$RF" > "$tmp/sums-rbkit.tsv"
check "rbkit: export --to pprof, flat/cum per function = self/total of stackprof's folding" '[ $rc -eq 0 ] && pprof_agrees "$tmp/rbkit.pb.gz" "$tmp/sums-rbkit.tsv"'

# rbkit compare: B is the capture without the samples holding Report#fib (re-encoded by the fixture's
# own msgpack codec), so B's expected sums are awk's over stackprof's folding without those lines.
python3 "$ROOT/fixtures/rbkit/rbkit_frames.py" without 'Report#fib' "$R" "$tmp/nofib.rbkit"
grep -v 'Report#fib' "$RF" > "$tmp/nofib.folded"
frame_sums "$tmp/nofib.folded" > "$tmp/sums-nofib.tsv"
"$G" compare "$R" "$tmp/nofib.rbkit" > "$tmp/cmp-rbkit.json"; rc=$?
check "rbkit compare: per-frame self/total = awk's sums of stackprof's folding, without fib on B" '[ $rc -eq 0 ] && FILES=1 frames_agree "$tmp/cmp-rbkit.json" "$tmp/sums-rbkit.tsv" "$tmp/sums-nofib.tsv"'
# The same rows against counts of each capture's own cpu_samples, decoded by Ruby's msgpack gem
# (count_figures.rb --frames), frame by frame: name, file and line, not the name alone.
ruby "$ROOT/fixtures/rbkit/count_figures.rb" --frames "$R" > "$tmp/count-rbkit.tsv"
ruby "$ROOT/fixtures/rbkit/count_figures.rb" --frames "$tmp/nofib.rbkit" > "$tmp/count-nofib.tsv"
check "rbkit compare: per-frame rows = count_figures.rb's counts of both captures (msgpack gem)" \
  '[ $rc -eq 0 ] && frames_counted "$tmp/cmp-rbkit.json" "$tmp/count-rbkit.tsv" "$tmp/count-nofib.tsv"'
grow=$(max_growth "$tmp/sums-rbkit.tsv" "$tmp/sums-nofib.tsv")
below=$(python3 -c "print(float('$grow') - 0.01)"); above=$(python3 -c "print(float('$grow') + 0.01)")
"$G" compare "$R" "$tmp/nofib.rbkit" --fail-on-regression "$below" > /dev/null; rc=$?
check "rbkit compare --fail-on-regression just below the largest growth ($grow points): exit 4" '[ $rc -eq 4 ]'
"$G" compare "$R" "$tmp/nofib.rbkit" --fail-on-regression "$above" > /dev/null; rc=$?
check "rbkit compare --fail-on-regression just above it: exit 0" '[ $rc -eq 0 ]'

# rbkit time order: each run of consecutive samples of one stack lasts the sum of its samples' gaps
# to the cpu_sample before each, in µs, as the capture decoded in Python says.
"$G" query "$R" --method stacks.tree > "$tmp/rbkit-tree.json"
check "rbkit: stacks.tree durations = the capture's cpu_sample gaps per run" 'python3 - "$R" "$tmp/rbkit-tree.json" <<'"'"'PY'"'"'
import json, sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from rbkit_frames import events_of
runs, prev = [], None
for e in events_of(open(sys.argv[1], "rb").read()):
    if e.get(0) != 9:
        continue
    gap = 0 if prev is None else max(0.0, (e[1] - prev) * 1000)
    prev = e[1]
    if not e.get(2):
        continue
    text = ";".join(f.get(13) or "" for f in reversed(e[2]))
    if runs and runs[-1][0] == text:
        runs[-1][1] += gap
    else:
        runs.append([text, gap])
got = json.load(open(sys.argv[2]))["result"]["durations"]
assert [r[1] for r in runs] == got, (len(runs), len(got))
PY'

# A heap dump's dominator tree as stacks, weights in retained bytes: every reachable byte is in the
# folding once, as a walk over the dump's own records counts them (from the ROOT records along
# "references" and "class", summing "memsize"); pprof names the sample type after bytes.
H=$ROOT/fixtures/heap/points.heap.json.gz
engine_folded "$H" '{}' > "$tmp/heap.txt"
reach=$(python3 - "$H" <<'PY'
import gzip, json, sys
objs, todo = {}, []
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    if r.get("type") == "ROOT":
        todo += r.get("references", [])
    elif "address" in r:
        objs[r["address"]] = r
seen = set()
while todo:
    a = todo.pop()
    if a in seen or a not in objs:
        continue
    seen.add(a)
    todo += objs[a].get("references", []) + ([objs[a]["class"]] if "class" in objs[a] else [])
print(sum(objs[a].get("memsize", 0) for a in seen))
PY
)
check "heap: stacks.folded weighs every reachable byte once ($reach, walked in Python)" '[ -n "$reach" ] && [ "$(weight_sum "$tmp/heap.txt")" = "$reach" ]'
transforms_match --input "$H" "$tmp/heap.txt" \
  drop 'String' '{"drop_function": "String"}' \
  merge 'Array' '{"merge_function": "Array"}'
"$G" export "$H" --to pprof -o "$tmp/heap.pb.gz"; rc=$?
check "heap: export --to pprof, sample type retained_space/bytes summing to the reachable bytes" '[ $rc -eq 0 ] && node -e "
const fs = require(\"fs\"), zlib = require(\"zlib\");
const { Profile } = require(process.argv[1] + \"/node_modules/pprof-format\");
const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(process.argv[2])));
const str = (i) => p.stringTable.strings[Number(i)];
const t = p.sampleType.map((v) => str(v.type) + \"/\" + str(v.unit)).join();
if (t !== \"retained_space/bytes\") throw new Error(t);
const sum = p.sample.reduce((s, x) => s + Number(x.value[0]), 0);
if (sum !== Number(process.argv[3])) throw new Error(sum + \" bytes\");" "$ROOT" "$tmp/heap.pb.gz" "$reach"'

# Two real bpftrace kernel-stack captures (fixtures/tracing/make_bpftrace_stacks.sh: dd with 4 KiB and
# 1 MiB blocks): per-frame self/total on each side = awk's sums over the captures' own text, folded
# here the way stackcollapse-bpftrace.pl does (frames leaf-first in the key, "+offset" dropped), but
# for the key "@[]: N" (samples taken in user mode: no kernel frame), which stackcollapse-bpftrace.pl
# drops and the engine counts as the one-frame stack "[unknown]" (perf's name for a frame it cannot
# name), so that the totals are the whole capture's samples.
bpftrace_folded() {
  awk '/^@[A-Za-z0-9_]*\[$/ { n = 0; next }
    /^@[A-Za-z0-9_]*\[\]: [0-9]+$/ { print "[unknown] " $2; next }
    /^\]: [0-9]+$/ { s = ""; for (i = n; i >= 1; i--) s = s (s == "" ? "" : ";") f[i]; print s " " $2; n = 0; next }
    /^ +[^ ]/ { sub(/^ +/, ""); sub(/\+[0-9]+$/, ""); f[++n] = $0 }' "$1"
}
K1=$ROOT/fixtures/tracing/bpftrace-kstack-dd-4k.txt
K2=$ROOT/fixtures/tracing/bpftrace-kstack-dd-1m.txt
bpftrace_folded "$K1" > "$tmp/k1.folded"; bpftrace_folded "$K2" > "$tmp/k2.folded"
frame_sums "$tmp/k1.folded" > "$tmp/sums-k1.tsv"; frame_sums "$tmp/k2.folded" > "$tmp/sums-k2.tsv"
"$G" compare "$K1" "$K2" > "$tmp/cmp-k.json"; rc=$?
check "compare of two bpftrace kstack captures: per-frame self/total = awk's sums of each capture" \
  '[ $rc -eq 0 ] && [ "$(grep -c "^@\[$\|^@\[\]: " "$K1")" = "$(wc -l < "$tmp/k1.folded")" ] && frames_agree "$tmp/cmp-k.json" "$tmp/sums-k1.tsv" "$tmp/sums-k2.tsv"'
# The samples without a kernel frame, summed straight from the capture's "@[]: N" lines.
stackless=$(awk -F': ' '/^@\[\]: [0-9]+$/ { s += $2 } END { print s + 0 }' "$K1")
check "bpftrace kstack: the $stackless samples of \"@[]\" are the frame [unknown]'s self and total" \
  '[ "$stackless" -gt 0 ] && python3 -c "
import json, sys; f = [r for r in json.load(open(sys.argv[1]))[\"compare\"][\"frames\"] if r[\"name\"] == \"[unknown]\"]
assert len(f) == 1 and f[0][\"self_a\"] == f[0][\"total_a\"] == int(sys.argv[2]), f" "$tmp/cmp-k.json" "$stackless"'
check "bpftrace kstack compare: totals are the captures' counts ($(weight_sum "$tmp/k1.folded"), $(weight_sum "$tmp/k2.folded"))" \
  'python3 -c "
import json, sys; t = json.load(open(sys.argv[1]))[\"compare\"][\"totals\"]
assert [t[\"a\"], t[\"b\"]] == [int(sys.argv[2]), int(sys.argv[3])], t" "$tmp/cmp-k.json" "$(weight_sum "$tmp/k1.folded")" "$(weight_sum "$tmp/k2.folded")"'

"$G" query "$ROOT/fixtures/tracing/bpftrace-hist.txt" --method stacks.folded > "$tmp/none.json"; rc=$?
check "a capture without stacks says so (exit 3)" '[ $rc -eq 3 ] && grep -q "holds no stacks" "$tmp/none.json"'
fi

if [ "$part" = corpus ]; then
D=$C/trace/dtrace/example-dtrace-stacks.head.folded.txt
DA=$C/trace/dtrace/example-dtrace-stacks.head.txt
engine_folded "$D" '{}' > "$tmp/d.txt"
check "folded (DTrace's, by stackcollapse.pl): stacks.folded without transforms is the file" 'cmp -s "$D" "$tmp/d.txt"'
transforms_match "$D" \
  focus 'genunix`lookuppnvp' '{"focus_function": "genunix`lookuppnvp"}' \
  merge 'genunix`fop_lookup' '{"merge_function": "genunix`fop_lookup"}' \
  drop 'genunix`vn_rele' '{"drop_function": "genunix`vn_rele"}' \
  hide '^(genunix`lookup|unix`)' '{"hide": "^(genunix`lookup|unix`)"}'
engine_folded "$DA" '{"transforms": [{"drop_function": "genunix`vn_rele"}]}' | sort > "$tmp/da.txt"
check "DTrace stack aggregation: drop_function = awk's drop over stackcollapse.pl's folding" \
  'transform drop "genunix\`vn_rele" "$D" | sort | cmp -s - "$tmp/da.txt"'
frame_sums "$D" > "$tmp/sums-d.tsv"
"$G" compare "$DA" "$D" > "$tmp/cmp-d.json"; rc=$?
check "compare of a DTrace aggregation with its folding: frames agree with awk's sums" '[ $rc -eq 0 ] && frames_agree "$tmp/cmp-d.json" "$tmp/sums-d.tsv" "$tmp/sums-d.tsv"'
"$G" compare "$D" "$ROOT/fixtures/tracing/perf-script-ruby.folded.txt" > "$tmp/units.json"; rc=$?
check "compare of counts with perf periods: no per-frame deltas, and why" '[ $rc -eq 0 ] && python3 -c "
import json, sys; c = json.load(open(sys.argv[1]))[\"compare\"]
assert \"frames\" not in c and \"samples\" in c[\"frames_omitted\"] and \"period\" in c[\"frames_omitted\"], c.get(\"frames_omitted\")" "$tmp/units.json"'
fi

if [ "$part" = corpus ]; then
# A real rbkit server's cpu_sample (rbkit-client's test capture): the engine's folding is the one of
# fixtures/rbkit/rbkit_frames.py, a msgpack reader of its own.
L=$C/heap/rbkit/legacy_rbkit_client_fixtures/cpusample.rbkit
python3 "$ROOT/fixtures/rbkit/rbkit_frames.py" folded "$L" > "$tmp/legacy-want.txt"
engine_folded "$L" '{}' > "$tmp/legacy-got.txt"
check "rbkit (real server): stacks.folded = rbkit_frames.py's folding" '[ -s "$tmp/legacy-want.txt" ] && cmp -s "$tmp/legacy-want.txt" "$tmp/legacy-got.txt"'
fi

if [ "$part" = corpus ]; then
# Sets of stackprof cpu dumps per side (a folder each): the side's total is the sum of the dumps'
# "Samples:" and each frame's self/total the sum of its rows in `stackprof --text` of each dump. The
# rows of frames that share name, file and line (two <main>s of gen.rb, without a line, in each dump,
# as the dump's JSON twin lists them) are one frame to the engine: their selves add up, and as one
# calls the other in every sample, the frame holds the outer one's total (the larger).
mkdir "$tmp/prof-a" "$tmp/prof-b"
for d in blocks-cpu-raw recursion-cpu-agg; do cp "$C/prof/$d/$d.dump" "$tmp/prof-a/"; done
for d in blocks-cpu-agg gc-cpu-raw manyframes-cpu-agg; do cp "$C/prof/$d/$d.dump" "$tmp/prof-b/"; done
"$G" compare "$tmp/prof-a" "$tmp/prof-b" > "$tmp/cmp-prof.json"; rc=$?
check "compare of two folders of stackprof dumps: totals and frames = sums of stackprof --text" '[ $rc -eq 0 ] && python3 - "$tmp/cmp-prof.json" "$tmp/prof-a" "$tmp/prof-b" "$C/prof" <<'"'"'PY'"'"'
import glob, json, re, subprocess, sys
row = re.compile(r"^\s*(\d+)\s+\(\s*[\d.]+%\)\s+(\d+)\s+\(\s*[\d.]+%\)\s+(.*)$")
def side(folder):
    frames, samples, dumps = {}, 0, sorted(glob.glob(folder + "/*.dump"))
    for dump in dumps:
        text = subprocess.run(["stackprof", "--text", "--limit", "1000000", dump],
                              capture_output=True, text=True, check=True).stdout
        samples += int(re.search(r"^\s*Samples: (\d+)", text, re.M).group(1))
        base = dump.rsplit("/", 1)[1][: -len(".dump")]
        twin = json.load(open(f"{sys.argv[4]}/{base}/{base}.json"))
        ids = {}
        for f in twin["frames"].values():
            ids.setdefault(f["name"], []).append((f.get("file"), f.get("line")))
        here = {}
        for m in filter(None, map(row.match, text.splitlines())):
            s, t = here.get(m.group(3), (0, 0))
            one = len(set(ids[m.group(3)])) == 1
            assert one or len(set(ids[m.group(3)])) == len(ids[m.group(3)]), ids[m.group(3)]
            here[m.group(3)] = (s + int(m.group(2)), max(t, int(m.group(1))) if one else t + int(m.group(1)))
        for name, (s, t) in here.items():
            frames[name] = tuple(x + y for x, y in zip(frames.get(name, (0, 0)), (s, t)))
    assert len(dumps) >= 2 and len(frames) > 10, (folder, len(dumps), len(frames))
    return frames, samples
c = json.load(open(sys.argv[1]))["compare"]
(fa, na), (fb, nb) = side(sys.argv[2]), side(sys.argv[3])
assert (c["totals"]["a"], c["totals"]["b"]) == (na, nb), (c["totals"], na, nb)
got = {}
for r in c["frames"]:
    g = got.get(r["name"], (0, 0, 0, 0))
    got[r["name"]] = (g[0] + r["self_a"], g[1] + r["total_a"], g[2] + r["self_b"], g[3] + r["total_b"])
want = {n: fa.get(n, (0, 0)) + fb.get(n, (0, 0)) for n in set(fa) | set(fb)}
assert set(got) == set(want), sorted(set(got) ^ set(want))[:10]
bad = [(n, got[n], want[n]) for n in want if got[n] != want[n]]
assert not bad, (len(bad), bad[:5])
PY'
fi

finish "cli_stacks $part"
