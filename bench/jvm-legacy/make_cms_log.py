#!/usr/bin/env python3
"""Builds the ~200 MB ParNew/CMS benchmark log: N copies of a corpus log, each copy's uptimes (and date
stamps, when present) shifted past the end of the previous copy so time stays monotonic.

usage: make_cms_log.py SOURCE_LOG OUT [COPIES]   (default source: TC_oy579c2n5.gc.out, 58 copies ~206 MB)
"""
import re
import sys
from datetime import datetime, timedelta

src = sys.argv[1]
out = sys.argv[2]
copies = int(sys.argv[3]) if len(sys.argv) > 3 else 58

text = open(src, encoding="latin-1").read()
uptime = re.compile(r"(?<![\d.])(\d+\.\d{3}): ")
date = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})([+-]\d{4}): ")
last = max(float(m.group(1)) for m in uptime.finditer(text))
span = last + 10.0

with open(out, "w", encoding="latin-1") as f:
    for k in range(copies):
        shift = k * span
        if k == 0:
            f.write(text)
            continue
        def up(m):
            return "%.3f: " % (float(m.group(1)) + shift)
        def dt(m):
            t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f") + timedelta(seconds=shift)
            return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (t.microsecond // 1000) + m.group(2) + ": "
        shifted = date.sub(dt, uptime.sub(up, text))
        f.write(shifted)
