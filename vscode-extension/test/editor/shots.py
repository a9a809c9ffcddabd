"""Screenshots that change only when what they show changes.

Two runs of the real-editor test show the same screen with a few different pixels (a scrollbar
fading out, the cursor blinking): writing each run's picture would change docs/img/ every time.
`save_picture` keeps the picture already there when the new one differs in fewer than
KEEP_BELOW of its pixels, and writes the new one otherwise (a new hint, another figure, another
size). PNGs are compared pixel by pixel after decoding (zlib and the five PNG row filters, 8-bit
RGB or RGBA, as Chromium writes them): their bytes differ even where the pixels do not.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

#: The share of pixels two pictures of one screen may differ in (a blinking cursor is ~40 pixels,
#: a fading scrollbar a few hundred; one more inlay hint or hover line is thousands).
KEEP_BELOW = 0.0005
_CHANNELS = {2: 3, 6: 4}  # PNG colour type -> bytes per pixel at 8 bits


def pixels(png: bytes) -> np.ndarray:
    """A PNG's pixels, height × width × channels (8-bit RGB or RGBA, not interlaced)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    offset, header, data = 8, None, []
    while offset < len(png):
        (length,), kind = struct.unpack(">I", png[offset:offset + 4]), png[offset + 4:offset + 8]
        body = png[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data.append(body)
        offset += 12 + length
    if header is None:
        raise ValueError("a PNG without IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace:
        raise ValueError(f"unsupported PNG (bit depth {depth}, colour type {colour}, interlace {interlace})")
    bpp = _CHANNELS[colour]
    stride = width * bpp
    raw = np.frombuffer(zlib.decompress(b"".join(data)), dtype=np.uint8).reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        kind, row = raw[y, 0], raw[y, 1:]
        if kind == 0:
            line = row.copy()
        elif kind == 1:  # Sub: each byte adds the one bpp before it, a running sum per channel
            line = (np.cumsum(row.reshape(-1, bpp).astype(np.int64), axis=0) % 256).astype(np.uint8).reshape(-1)
        elif kind == 2:  # Up
            line = (row.astype(np.int64) + previous) % 256
        elif kind in (3, 4):  # Average, Paeth: each byte depends on the one just rebuilt
            line = _sequential(row, previous, bpp, kind)
        else:
            raise ValueError(f"PNG row filter {kind}")
        out[y] = line
        previous = out[y]
    return out.reshape(height, width, bpp)


def _sequential(row: np.ndarray, above: np.ndarray, bpp: int, kind: int) -> np.ndarray:
    data, up, line = row.tolist(), above.tolist(), [0] * len(row)
    for i, value in enumerate(data):
        left = line[i - bpp] if i >= bpp else 0
        if kind == 3:
            line[i] = (value + (left + up[i]) // 2) & 0xFF
            continue
        corner = up[i - bpp] if i >= bpp else 0
        estimate = left + up[i] - corner
        near = min((abs(estimate - left), 0, left), (abs(estimate - up[i]), 1, up[i]), (abs(estimate - corner), 2, corner))
        line[i] = (value + near[2]) & 0xFF
    return np.array(line, dtype=np.uint8)


def differing_pixels(old: bytes, new: bytes) -> int | None:
    """How many pixels differ between two PNGs; None when their sizes (or formats) differ."""
    a, b = pixels(old), pixels(new)
    return None if a.shape != b.shape else int(np.any(a != b, axis=2).sum())


def save_picture(path: Path, png: bytes, keep_below: float = KEEP_BELOW) -> bytes:
    """Write *png* to *path* unless the picture there shows the same (fewer than *keep_below* of its
    pixels differ, sizes equal); return the bytes *path* now holds."""
    if path.exists():
        old = path.read_bytes()
        if old == png:
            return old
        try:
            changed = differing_pixels(old, png)
        except ValueError:  # the old file is not a picture this reads: replace it
            changed = None
        height, width = pixels(png).shape[:2]
        if changed is not None and changed < keep_below * height * width:
            return old
    path.write_bytes(png)
    return png
