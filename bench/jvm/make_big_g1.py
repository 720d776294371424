#!/usr/bin/env python3
"""Builds a ~200 MB unified G1 log by concatenating time-shifted copies of a real JDK 17 G1 log
(the corpus' generated/jdk17_g1_gc-all-safepoint_default-decorations.log, -Xlog:gc*,safepoint with
default decorations). Each copy's [uptime] stamps and GC(n) ids are shifted past the previous copy,
so the result reads as one long run. Usage: make_big_g1.py OUT [TARGET_MB]"""
import re
import sys

SRC = __file__.rsplit('/', 3)[0] + '/../shared/corpus/jvm/generated/jdk17_g1_gc-all-safepoint_default-decorations.log'
out_path = sys.argv[1]
target = int(float(sys.argv[2] if len(sys.argv) > 2 else 200) * 1e6)
lines = open(SRC, encoding='utf-8').read().splitlines(keepends=True)
stamp = re.compile(r'^\[(\d+\.\d+)s\]')
gcid = re.compile(r'GC\((\d+)\)')
last_t = max(float(m.group(1)) for l in lines if (m := stamp.match(l)))
max_id = max(int(x) for l in lines for x in gcid.findall(l))
# The header (lines before the first GC) appears once.
first_gc = next(i for i, l in enumerate(lines) if 'GC(' in l)
body = lines[first_gc:]
written = 0
with open(out_path, 'w', encoding='utf-8') as out:
    out.writelines(lines[:first_gc])
    copy = 0
    while written < target:
        dt = copy * (last_t + 0.001)
        did = copy * (max_id + 1)
        chunk = []
        for l in body:
            m = stamp.match(l)
            if m:
                l = '[%.3fs]' % (float(m.group(1)) + dt) + l[m.end():]
            if did:
                l = gcid.sub(lambda g: 'GC(%d)' % (int(g.group(1)) + did), l)
            chunk.append(l)
        s = ''.join(chunk)
        out.write(s)
        written += len(s)
        copy += 1
print(out_path, written, 'bytes,', copy, 'copies')
