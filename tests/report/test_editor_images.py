"""The README's editor pictures are the ones `make test-editor` wrote: each one it shows is listed,
with its hash, in docs/img/editor-test.json, which only the real-editor test writes."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "docs" / "img" / "editor-test.json"


def test_readme_pictures_are_the_real_editor_tests():
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    shown = set(re.findall(r"\]\(docs/img/([\w.-]+\.png)\)", (ROOT / "README.md").read_text(encoding="utf-8")))
    assert shown, "the README shows no editor pictures"
    assert shown == set(manifest["images"]), "README pictures and the test's differ"
    for name, digest in manifest["images"].items():
        assert hashlib.sha256((ROOT / "docs" / "img" / name).read_bytes()).hexdigest() == digest, (
            f"docs/img/{name} is not the picture make test-editor wrote; run it again")


def _shots():
    """vscode-extension/test/editor/shots.py (the real-editor test's folder is no package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("shots", ROOT / "vscode-extension" / "test" / "editor" / "shots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _png(pixels, row_filter: int = 0) -> bytes:
    """A PNG of an RGB array; row_filter 1 writes each row Sub-filtered, as encoders may."""
    import struct
    import zlib

    import numpy as np

    height, width, _ = pixels.shape
    rows = []
    for y in range(height):
        row = pixels[y].astype(np.int16).reshape(-1)
        if row_filter == 1:
            row = np.concatenate([row[:3], row[3:] - row[:-3]]) % 256
        rows.append(bytes([row_filter]) + row.astype(np.uint8).tobytes())

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")


def test_a_screenshot_differing_in_a_few_pixels_leaves_the_picture_as_it_was(tmp_path: Path):
    """make test-editor must not rewrite docs/img/ when only a cursor blinked or a scrollbar faded."""
    import numpy as np

    shots = _shots()
    screen = np.random.default_rng(7).integers(0, 256, size=(200, 300, 3), dtype=np.uint8)
    assert (shots.pixels(_png(screen, row_filter=1)) == screen).all()  # filters decoded, not just stored rows
    picture = tmp_path / "editor-hover.png"
    picture.write_bytes(_png(screen))
    blink = screen.copy()
    blink[10:28, 40] = 255  # a cursor: 18 pixels of 60,000
    assert shots.save_picture(picture, _png(blink, row_filter=1)) == _png(screen)
    assert picture.read_bytes() == _png(screen)  # kept, though the new file's bytes differ
    hint = screen.copy()
    hint[100:120, 50:250] = 0  # a new inlay hint: 4,000 pixels
    assert shots.save_picture(picture, _png(hint)) == _png(hint) == picture.read_bytes()
    smaller = _png(screen[:100])
    assert shots.save_picture(picture, smaller) == picture.read_bytes() == smaller  # another size: written
