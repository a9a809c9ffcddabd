"""GL408's claim priced per image: the host CPU time of decoding and resizing one JPEG file, which a loader
without a cache spends again on every epoch, against reading the decoded array back from a cache.

    python bench/rules/GL408/decode_cost.py [--rounds R] [--no-write]

The images are scikit-learn's two sample photographs (640x427 JPEGs), resized and saved as JPEG
(quality 90) at a few sizes of common data sets, written to files so that a decode reads its file
as a loader does. Each decoder (PIL, TensorFlow's `tf.io.decode_jpeg`, and OpenCV where
opencv-python-headless is installed: the dev extra does not install it) opens, decodes and resizes
every file to 128x128; the reads back take one decoded 128x128x3 array from an in-memory cache (a
stacked batch of 32, as a loader draws it) or from a `.npy` file mapped in memory (in the page cache).
Times are process CPU seconds (every thread of the process, what the host's cores spend), the median
of R rounds; the ratio is decode over read back. Writes bench/rules/GL408/decode_cost.json.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image
from sklearn.datasets import load_sample_image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from report import machine  # noqa: E402 - bench/report.py, the benchmarks' one description of the machine

RESULTS = HERE / "decode_cost.json"
#: (width, height) of the encoded files: CelebA's aligned faces, pix2pix's facades halves, a typical
#: Pascal VOC / ImageNet photograph, and a large photograph.
SIZES = ((178, 218), (256, 256), (500, 375), (1024, 768))
#: The decoded array every decoder produces, as the loaders the rule reports resize to.
TARGET = (128, 128)
BATCH = 32
#: CPU seconds each measurement runs for at least (many calls, so the timer's resolution does not count).
SPAN_S = 0.5


def cpu_per_call(fn: Callable[[int], object], count: int) -> float:
    """Process CPU seconds per call of *fn* over items 0..count-1, repeated until SPAN_S is spent."""
    fn(0)  # warm-up (imports, TensorFlow's first-call set-up)
    calls, start = 0, time.process_time()
    while time.process_time() - start < SPAN_S:
        for i in range(count):
            fn(i)
        calls += count
    return (time.process_time() - start) / calls


def encoded_files(folder: Path) -> dict[tuple[int, int], list[str]]:
    """Per size, the JPEG files written from the sample photographs."""
    photos = [Image.fromarray(load_sample_image(name)) for name in ("china.jpg", "flower.jpg")]
    files: dict[tuple[int, int], list[str]] = {}
    for size in SIZES:
        files[size] = []
        for n, photo in enumerate(photos):
            buffer = io.BytesIO()
            photo.resize(size, Image.LANCZOS).save(buffer, "JPEG", quality=90)
            path = folder / f"{size[0]}x{size[1]}-{n}.jpg"
            path.write_bytes(buffer.getvalue())
            files[size].append(str(path))
    return files


def decoders() -> tuple[dict[str, Callable[[str], np.ndarray]], dict[str, str]]:
    """Decode and resize one file to TARGET, per library installed; and the libraries' versions."""

    def pil(path: str) -> np.ndarray:
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB").resize(TARGET, Image.BILINEAR))

    found: dict[str, Callable[[str], np.ndarray]] = {"PIL": pil}
    versions = {"PIL": Image.__version__}
    try:
        import cv2
    except ImportError:
        pass
    else:
        found["OpenCV"] = lambda path: cv2.resize(cv2.imread(path), TARGET)
        versions["OpenCV"] = cv2.__version__
    try:
        import tensorflow as tf
    except ImportError:
        pass
    else:
        found["tf.io.decode_jpeg"] = lambda path: tf.image.resize(
            tf.io.decode_jpeg(tf.io.read_file(path), channels=3), TARGET
        ).numpy()
        versions["tf.io.decode_jpeg"] = f"TensorFlow {tf.__version__}"
    return found, versions


def read_backs(folder: Path) -> dict[str, Callable[[int], object]]:
    """Read one decoded TARGET array back from a cache of 1,024 of them, per kind of cache."""
    rng = np.random.default_rng(0)
    decoded = rng.integers(0, 256, (1024, *TARGET, 3), dtype=np.uint8)
    kept = list(decoded)
    order = rng.permutation(len(kept))
    np.save(folder / "cache.npy", decoded)
    mapped = np.load(folder / "cache.npy", mmap_mode="r")

    def batch_from_memory(i: int) -> object:  # a shuffled batch of BATCH arrays kept in a list, per array
        return np.stack([kept[j] for j in order[(i * BATCH) % 1024:][:BATCH]])

    def batch_from_file(i: int) -> object:
        return np.array(mapped[np.sort(order[(i * BATCH) % 1024:][:BATCH])])

    return {"memory (list of arrays, stacked)": batch_from_memory, "file (.npy, memory-mapped)": batch_from_file}


def run(rounds: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="gl408-cost-") as tmp:
        folder = Path(tmp)
        files = encoded_files(folder)
        decode: dict[str, dict[str, float]] = {}
        by_library, versions = decoders()
        for name, fn in by_library.items():
            for size, paths in files.items():
                times = [cpu_per_call(lambda i, p=paths, f=fn: f(p[i % len(p)]), len(paths)) for _ in range(rounds)]
                decode.setdefault(name, {})[f"{size[0]}x{size[1]}"] = statistics.median(times)
        read = {
            name: statistics.median(cpu_per_call(fn, 1024 // BATCH) for _ in range(rounds)) / BATCH
            for name, fn in read_backs(folder).items()
        }
        file_kb = {f"{w}x{h}": round(statistics.mean(os.path.getsize(p) for p in paths) / 1000, 1)
                   for (w, h), paths in files.items()}
    slowest_read = max(read.values())
    return {
        "command": "python bench/rules/GL408/decode_cost.py" + (f" --rounds {rounds}" if rounds != 3 else ""),
        "machine": f"{machine()}, load average {os.getloadavg()[0]:.1f}",
        "versions": versions,
        "target": f"{TARGET[0]}x{TARGET[1]}x3 uint8",
        "jpeg_kb": file_kb,
        "decode_ms": {name: {size: round(1000 * s, 3) for size, s in by.items()} for name, by in decode.items()},
        "read_back_us": {name: round(1e6 * s, 2) for name, s in read.items()},
        "lowest_ratio": round(min(s for by in decode.values() for s in by.values()) / slowest_read, 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.rounds)
    text = json.dumps(result, indent=1) + "\n"
    print(text, end="")
    if not args.no_write:
        RESULTS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
