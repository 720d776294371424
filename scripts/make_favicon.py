#!/usr/bin/env python3
"""Writes web/favicon.png: the drawing of web/favicon.svg (a ring and a dot on 32x32) as a PNG.

The page links the PNG because Chromium downloads and decodes the favicon again at every change of
the URL fragment, and an SVG favicon is decoded as a whole SVG document on the page's main thread.
Each pixel's coverage is sampled 16x16 times; the colour is #2563eb.
"""
import struct
import sys
import zlib

SIZE, SUB = 32, 16
COLOR = (0x25, 0x63, 0xEB)


def covered(x, y):
    d2 = (x - 16) ** 2 + (y - 16) ** 2
    return d2 <= 5 ** 2 or 11 ** 2 <= d2 <= 15 ** 2  # the dot (r 5) and the ring (r 13, stroke 4)


def alpha(px, py):
    hits = sum(covered(px + (i + 0.5) / SUB, py + (j + 0.5) / SUB) for i in range(SUB) for j in range(SUB))
    return round(255 * hits / (SUB * SUB))


def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)


rows = b''.join(b'\0' + b''.join(bytes(COLOR) + bytes([alpha(x, y)]) for x in range(SIZE)) for y in range(SIZE))
png = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', SIZE, SIZE, 8, 6, 0, 0, 0))
       + chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b''))
with open(sys.argv[1] if len(sys.argv) > 1 else 'web/favicon.png', 'wb') as out:
    out.write(png)
