#!/usr/bin/env bash
# `gcscope analyze --follow`: a background writer appends fixtures/jvm/jdk17-serial-mixed-stdout.log
# to a file in pieces cut anywhere (mid-line too), truncates the file half way (copytruncate) and
# writes the rest, while the CLI follows it; Ctrl+C (SIGINT) ends the follow after the writer is done.
# Hand counts (F=fixtures/jvm/jdk17-serial-mixed-stdout.log):
#   grep -cE 'GC\([0-9]+\) Pause.*ms$' $F                                                → 138 pauses
#   grep -E 'GC\([0-9]+\) Pause.*ms$' $F | grep -oE '[0-9.]+ms$' | tr -d ms | paste -sd+ | bc
#                                                                                        → 7141.241 ms
#   those lines before GC(70)'s (where the file is truncated)                            → 70 pauses
set -u
. "$(dirname "$0")/lib.sh"
log="$tmp/gc.log"; : > "$log"

"$G" analyze --follow "$log" --interval 0.1 --follow-for 120 > "$tmp/out.ndjson" &
cli=$!
python3 - "$ROOT/fixtures/jvm/jdk17-serial-mixed-stdout.log" "$log" <<'PY'
import sys, time, random
data = open(sys.argv[1], 'rb').read()
split = data.rfind(b'\n', 0, data.find(b'GC(70) ')) + 1
random.seed(32)
def write(path, part, mode):
    with open(path, mode) as f:
        at = 0
        while at < len(part):
            n = random.randint(500, 4000)
            f.write(part[at:at + n]); f.flush()
            at += n
            time.sleep(0.05)
write(sys.argv[2], data[:split], 'ab')
time.sleep(0.5)
write(sys.argv[2], data[split:], 'wb')  # truncated to 0, then the JVM writes on
time.sleep(0.5)
PY
kill -INT $cli; wait $cli; rc=$?
check "SIGINT ends the follow with exit 0" '[ $rc -eq 0 ]'
check "one JSON line per interval, pauses growing to the hand count" 'python3 - "$tmp/out.ndjson" <<PY
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) >= 3, len(lines)
counts = [l["pauses"] for l in lines]
assert counts == sorted(counts), counts
assert 0 < max(c for c in counts if c < 138) and counts[-1] == 138, counts
assert 70 in counts, counts
last = lines[-1]
assert abs(last["pause_total_s"] - 7.141241) < 1e-9, last
assert last["files"] == 2 and sum(1 for l in lines if l["rotated"]) == 1, lines
assert sum(l["new"]["pauses"] for l in lines) == 138, [l["new"] for l in lines]
assert last["format"] == "jvm-gc-log" and last["errors"] == 0, last
assert all(k in last for k in ("time", "elapsed_s", "bytes", "pause_max_s", "events")), last
PY'

# fixtures/jvm/jdk17-g1.log: grep -cE 'GC\([0-9]+\) Pause.*ms$' → 27 pauses, all there at the first read.
"$G" analyze --follow "$ROOT/fixtures/jvm/jdk17-g1.log" --max-intervals 2 --interval 0.1 > "$tmp/two.ndjson"; rc=$?
check "--max-intervals N prints N lines" '[ $rc -eq 0 ] && [ $(wc -l < "$tmp/two.ndjson") -eq 2 ] && python3 -c "import json; l=[json.loads(x) for x in open(\"$tmp/two.ndjson\")]; assert l[0][\"pauses\"]==27 and l[1][\"new\"][\"pauses\"]==0, l"'
"$G" analyze --follow "$log" x > /dev/null 2>&1; rc=$?
check "--follow takes one FILE only (2)" '[ $rc -eq 2 ]'
"$G" analyze --follow "$log" --interval 0 > /dev/null 2>&1; rc=$?
check "--interval needs seconds > 0 (2)" '[ $rc -eq 2 ]'

finish "cli_follow"
