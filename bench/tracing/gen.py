#!/usr/bin/env python3
"""Generates the tracing benchmark inputs (seeded, reproducible), shaped like the corpus:

  events.ndjson  bpftrace -f json printf stream of the capture recipe's exact-latency one-liner
                 printf("%llu %s %llu\\n", nsecs, probe, arg1) over ruby-static-tracing probes
                 (probe paths as bpftrace 0.17 prints them, see corpus malformed/bt_text_crlf.txt)
  stacks.folded  folded stacks as BCC profile -f / stackcollapse print them, repeated stacks
                 (profile -f repeats identical stacks), frames from the corpus's Ruby perf capture
                 and Ruby caller strings

usage: gen.py OUTDIR [MB]
"""
import os
import random
import sys

out = sys.argv[1]
mb = int(sys.argv[2]) if len(sys.argv) > 2 else 100
target = mb * 1000 * 1000
rng = random.Random(20261121)
os.makedirs(out, exist_ok=True)

# ---- events.ndjson ------------------------------------------------------------------------
probes = [
    ("default_url_options", 2_000), ("current_user", 12_000), ("index", 1_200_000),
    ("show", 1_750_000), ("create", 5_400_000),
]
weights = [670, 1396, 650, 632, 143]  # call counts of the corpus capture (bt_text_with_stderr_mixed.txt)
path = "usdt:/proc/24205/root/tmp/my_controller-jNudzY.so:my_controller:"
ts = 516_581_820_000
with open(os.path.join(out, "events.ndjson"), "w") as f:
    f.write('{"type": "attached_probes", "data": {"probes": 5}}\n\n\n')
    size = 0
    buf = []
    while size < target:
        name, median = rng.choices(probes, weights)[0]
        dur = max(1, int(rng.lognormvariate(0, 0.6) * median))
        ts += rng.randint(50_000, 2_000_000)
        line = '{"type": "printf", "data": "%d %s%s %d\\n"}\n' % (ts, path, name, dur)
        buf.append(line)
        size += len(line)
        if len(buf) >= 10000:
            f.write("".join(buf))
            buf = []
    f.write("".join(buf))

# ---- stacks.folded ------------------------------------------------------------------------
native = ["[unknown]", "[libruby-3.1.so.3.1.2]", "rb_str_comparable", "rb_str_buf_append", "_int_malloc",
          "malloc", "rb_check_typeddata", "__getpid", "entry_SYSCALL_64_after_hwframe", "do_syscall_64",
          "vm_exec_core", "rb_vm_exec", "rb_funcallv", "rb_call0", "gc_mark_children", "gc_sweep_step"]
ruby = ["app/controllers/my_controller.rb:%d:in `%s'" % (rng.randint(1, 300), m)
        for m in ["index", "show", "create", "current_user", "default_url_options", "render", "call",
                  "block in <main>", "each", "map", "find_by", "where", "to_json", "serialize"]]
vocab = native + ruby
stacks = []
for _ in range(3000):
    depth = rng.randint(3, 40)
    stacks.append("ruby;" + ";".join(rng.choice(vocab) for _ in range(depth)))
with open(os.path.join(out, "stacks.folded"), "w") as f:
    size = 0
    buf = []
    while size < target:
        line = "%s %d\n" % (rng.choice(stacks), rng.randint(1, 100))
        buf.append(line)
        size += len(line)
        if len(buf) >= 10000:
            f.write("".join(buf))
            buf = []
    f.write("".join(buf))
