#!/usr/bin/env python3
"""Builds a large rbkit capture for benchmarking from the real capture of the shared corpus
(rbkit/real_stock_threaddeath.rbkit: handshake reply + 325 event_collection frames): the handshake
once, then the 325 frames repeated N times with
  - message_counter renumbered 0, 1, 2, ... (no gaps, no duplicates),
  - timestamps shifted by N * (capture span + 1 s) so time keeps moving forward,
  - object ids shifted by N * 10_000_000 so every repetition creates/destroys its own objects.
Messages are re-encoded the way rbkit's msgpack-c packs them (smallest integers, float64, str family).
Standard library only (the msgpack codec of fixtures/rbkit/rbkit_frames.py), so CI needs no msgpack
package.
Usage: make_big_capture.py REPEATS OUT    (20 repeats ~ 114 MB)"""
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "rbkit"))
from rbkit_frames import decode, encode  # noqa: E402  (the fixtures' msgpack codec)


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    out_path = sys.argv[2] if len(sys.argv) > 2 else '/tmp/rbkit-big.rbkit'
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = os.environ.get('GCSCOPE_CORPUS_DIR', os.path.join(here, '..', '..', '..', 'shared', 'corpus'))
    data = open(os.path.join(corpus, 'heap', 'rbkit', 'real_stock_threaddeath.rbkit'), 'rb').read()
    messages, i = [], 0
    while i < len(data):
        m, i = decode(data, i, "surrogateescape")
        messages.append(m)
    handshake, collections = messages[0], messages[1:]
    stamps = [c[1] for c in collections] + [e[1] for c in collections for e in c[2]]
    span_ms = max(stamps) - min(stamps) + 1000.0
    with open(out_path, 'wb') as f:
        f.write(encode(handshake))
        counter = 0
        for rep in range(repeats):
            dt, did = rep * span_ms, rep * 10_000_000
            for c in collections:
                events = []
                for e in c[2]:
                    e2 = {0: e[0], 1: e[1] + dt}
                    if isinstance(e.get(2), dict):
                        p = dict(e[2])
                        if isinstance(p.get(3), int): p[3] += did
                        e2[2] = p
                    events.append(e2)
                f.write(encode({0: 7, 1: c[1] + dt, 9: counter, 2: events}))
                counter += 1
    print(f'{out_path}: {os.path.getsize(out_path)} bytes, {repeats * len(collections)} collections', file=sys.stderr)


if __name__ == '__main__':
    main()
