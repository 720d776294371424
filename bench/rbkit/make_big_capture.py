#!/usr/bin/env python3
"""Builds a large rbkit capture for benchmarking from the real capture of the shared corpus
(rbkit/real_stock_threaddeath.rbkit: handshake reply + 325 event_collection frames): the handshake
once, then the 325 frames repeated N times with
  - message_counter renumbered 0, 1, 2, ... (no gaps, no duplicates),
  - timestamps shifted by N * (capture span + 1 s) so time keeps moving forward,
  - object ids shifted by N * 10_000_000 so every repetition creates/destroys its own objects.
Messages are re-encoded the way rbkit's msgpack-c packs them (smallest integers, float64, str family).
Standard library only (a minimal msgpack codec below), so CI needs no msgpack package.
Usage: make_big_capture.py REPEATS OUT    (20 repeats ~ 114 MB)"""
import os
import struct
import sys


def unpack(b, i):
    c = b[i]
    if c <= 0x7f: return c, i + 1
    if c >= 0xe0: return c - 256, i + 1
    if 0x80 <= c <= 0x8f: return unpack_map(b, i + 1, c & 0x0f)
    if 0x90 <= c <= 0x9f: return unpack_array(b, i + 1, c & 0x0f)
    if 0xa0 <= c <= 0xbf: n = c & 0x1f; return b[i + 1:i + 1 + n].decode('utf-8', 'surrogateescape'), i + 1 + n
    if c == 0xc0: return None, i + 1
    if c == 0xc2: return False, i + 1
    if c == 0xc3: return True, i + 1
    if c == 0xcb: return struct.unpack('>d', b[i + 1:i + 9])[0], i + 9
    if c == 0xca: return struct.unpack('>f', b[i + 1:i + 5])[0], i + 5
    sizes = {0xcc: ('>B', 1), 0xcd: ('>H', 2), 0xce: ('>I', 4), 0xcf: ('>Q', 8),
             0xd0: ('>b', 1), 0xd1: ('>h', 2), 0xd2: ('>i', 4), 0xd3: ('>q', 8)}
    if c in sizes:
        f, n = sizes[c]
        return struct.unpack(f, b[i + 1:i + 1 + n])[0], i + 1 + n
    strs = {0xd9: ('>B', 1), 0xda: ('>H', 2), 0xdb: ('>I', 4)}
    if c in strs:
        f, n = strs[c]
        ln = struct.unpack(f, b[i + 1:i + 1 + n])[0]
        s = i + 1 + n
        return b[s:s + ln].decode('utf-8', 'surrogateescape'), s + ln
    if c == 0xdc: return unpack_array(b, i + 3, struct.unpack('>H', b[i + 1:i + 3])[0])
    if c == 0xdd: return unpack_array(b, i + 5, struct.unpack('>I', b[i + 1:i + 5])[0])
    if c == 0xde: return unpack_map(b, i + 3, struct.unpack('>H', b[i + 1:i + 3])[0])
    if c == 0xdf: return unpack_map(b, i + 5, struct.unpack('>I', b[i + 1:i + 5])[0])
    raise ValueError(f'unsupported msgpack byte 0x{c:02x} at {i}')


def unpack_array(b, i, n):
    out = []
    for _ in range(n):
        v, i = unpack(b, i)
        out.append(v)
    return out, i


def unpack_map(b, i, n):
    out = {}
    for _ in range(n):
        k, i = unpack(b, i)
        v, i = unpack(b, i)
        out[k] = v
    return out, i


def pack(v, out):
    if v is None: out.append(0xc0)
    elif v is True: out.append(0xc3)
    elif v is False: out.append(0xc2)
    elif isinstance(v, int):
        if 0 <= v <= 0x7f: out.append(v)
        elif v < 0 and v >= -32: out.append(v + 256)
        elif 0 <= v <= 0xff: out += b'\xcc' + struct.pack('>B', v)
        elif 0 <= v <= 0xffff: out += b'\xcd' + struct.pack('>H', v)
        elif 0 <= v <= 0xffffffff: out += b'\xce' + struct.pack('>I', v)
        elif v >= 0: out += b'\xcf' + struct.pack('>Q', v)
        else: out += b'\xd3' + struct.pack('>q', v)
    elif isinstance(v, float): out += b'\xcb' + struct.pack('>d', v)
    elif isinstance(v, str):
        s = v.encode('utf-8', 'surrogateescape')
        n = len(s)
        if n <= 31: out.append(0xa0 | n)
        elif n <= 0xff: out += b'\xd9' + struct.pack('>B', n)
        elif n <= 0xffff: out += b'\xda' + struct.pack('>H', n)
        else: out += b'\xdb' + struct.pack('>I', n)
        out += s
    elif isinstance(v, list):
        n = len(v)
        if n <= 15: out.append(0x90 | n)
        elif n <= 0xffff: out += b'\xdc' + struct.pack('>H', n)
        else: out += b'\xdd' + struct.pack('>I', n)
        for x in v: pack(x, out)
    elif isinstance(v, dict):
        n = len(v)
        if n <= 15: out.append(0x80 | n)
        elif n <= 0xffff: out += b'\xde' + struct.pack('>H', n)
        else: out += b'\xdf' + struct.pack('>I', n)
        for k, x in v.items():
            pack(k, out)
            pack(x, out)
    else:
        raise TypeError(type(v))


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    out_path = sys.argv[2] if len(sys.argv) > 2 else '/tmp/rbkit-big.rbkit'
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = os.environ.get('GCSCOPE_CORPUS_DIR', os.path.join(here, '..', '..', '..', 'shared', 'corpus'))
    data = open(os.path.join(corpus, 'heap', 'rbkit', 'real_stock_threaddeath.rbkit'), 'rb').read()
    messages, i = [], 0
    while i < len(data):
        m, i = unpack(data, i)
        messages.append(m)
    handshake, collections = messages[0], messages[1:]
    stamps = [c[1] for c in collections] + [e[1] for c in collections for e in c[2]]
    span_ms = max(stamps) - min(stamps) + 1000.0
    with open(out_path, 'wb') as f:
        buf = bytearray()
        pack(handshake, buf)
        f.write(buf)
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
                buf = bytearray()
                pack({0: 7, 1: c[1] + dt, 9: counter, 2: events}, buf)
                f.write(buf)
                counter += 1
    print(f'{out_path}: {os.path.getsize(out_path)} bytes, {repeats * len(collections)} collections', file=sys.stderr)


if __name__ == '__main__':
    main()
