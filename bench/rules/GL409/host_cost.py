"""GL409's host side priced per element: the CPU time one thread spends decoding, resizing and warping
one image, per element of the array it hands the model (what `HIDING_FLOPS` weighs a step against).

    python bench/rules/GL409/host_cost.py [--repeats R] [--no-write]

Two inputs of the programs GL409 reports, made from scikit-learn's two sample photographs (640x427)
and written to files, so that a decode reads its file as a generator does: a 512x512 grayscale PNG
brought to 256x256x1 (a U-Net's masks and slices, `flow_from_directory(target_size=(256, 256),
color_mode="grayscale")`), and a 500x375 RGB JPEG (quality 90) brought to 512x512x3 (a detector's
photographs). Each is run by PIL with SciPy (what Keras' `load_img` and `ImageDataGenerator` call:
PIL's decode and nearest resize, then `scipy.ndimage.affine_transform` of order 1 per channel, fill
mode nearest) and by OpenCV where opencv-python-headless is installed (`imread`, `resize`,
`warpAffine`, one thread; the dev extra does not install it), and by Keras' own legacy
`load_img`/`ImageDataGenerator` where Keras is installed, in two stages: decode and resize; then the same with a random affine
warp (rotation, shift and zoom, as `rotation_range`/`width_shift_range`/`zoom_range` draw). Times are
`time.thread_time` (this thread's CPU, so other processes on a loaded machine count only through
shared caches and clocks), at least SPAN_S per measurement, the median and range of R repeats.
Writes bench/rules/GL409/host_cost.json.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy
import scipy.ndimage
from PIL import Image
from sklearn.datasets import load_sample_image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from report import machine  # noqa: E402 - bench/report.py, the benchmarks' one description of the machine

RESULTS = HERE / "host_cost.json"
#: name -> (file format, PIL mode, size written, size handed to the model, channels)
INPUTS = {
    "png-gray-512-to-256": ("PNG", "L", (512, 512), (256, 256), 1),
    "jpeg-rgb-500x375-to-512": ("JPEG", "RGB", (500, 375), (512, 512), 3),
}
#: CPU seconds each measurement runs for at least.
SPAN_S = 0.5


def thread_cpu_per_call(fn: Callable[[int], object]) -> float:
    """This thread's CPU seconds per call of *fn* (given a counter), repeated until SPAN_S is spent."""
    fn(0)  # warm-up
    calls, start = 0, time.thread_time()
    while time.thread_time() - start < SPAN_S:
        fn(calls)
        calls += 1
    return (time.thread_time() - start) / calls


def written(folder: Path) -> dict[str, list[str]]:
    """Per input, the files made from the two sample photographs."""
    photos = [Image.fromarray(load_sample_image(name)) for name in ("china.jpg", "flower.jpg")]
    files: dict[str, list[str]] = {}
    for name, (fmt, mode, size, _, _) in INPUTS.items():
        files[name] = []
        for n, photo in enumerate(photos):
            path = folder / f"{name}-{n}.{fmt.lower()}"
            photo.convert(mode).resize(size, Image.LANCZOS).save(path, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
            files[name].append(str(path))
    return files


def affine(seed: int, rows: int, cols: int) -> np.ndarray:
    """A 3x3 transform as ImageDataGenerator draws one (rotation_range=10, shifts and zoom of 0.1),
    about the image's centre."""
    rng = np.random.default_rng(seed)
    theta = np.deg2rad(rng.uniform(-10, 10))
    tx, ty = rng.uniform(-0.1, 0.1) * rows, rng.uniform(-0.1, 0.1) * cols
    zx, zy = rng.uniform(0.9, 1.1, 2)
    rotate = np.array([[math.cos(theta), -math.sin(theta), 0], [math.sin(theta), math.cos(theta), 0], [0, 0, 1]])
    shift = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
    zoom = np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
    centre = np.array([[1, 0, rows / 2 - 0.5], [0, 1, cols / 2 - 0.5], [0, 0, 1]])
    back = np.array([[1, 0, -rows / 2 + 0.5], [0, 1, -cols / 2 + 0.5], [0, 0, 1]])
    return centre @ rotate @ shift @ zoom @ back


def pil_scipy(name: str, warp: bool) -> Callable[[str, int], np.ndarray]:
    _, mode, _, target, _ = INPUTS[name]

    def run(path: str, seed: int) -> np.ndarray:
        with open(path, "rb") as f:  # keras.utils.load_img
            image = Image.open(io.BytesIO(f.read()))
            x = np.asarray(image.convert(mode).resize(target, Image.NEAREST), dtype="float32")
        if x.ndim == 2:
            x = x[:, :, None]
        if not warp:
            return x
        matrix = affine(seed, x.shape[0], x.shape[1])  # keras' apply_affine_transform, channels last
        channels = [scipy.ndimage.affine_transform(x[:, :, c], matrix[:2, :2], matrix[:2, 2], order=1, mode="nearest")
                    for c in range(x.shape[2])]
        return np.stack(channels, axis=-1)

    return run


def opencv(name: str, warp: bool) -> Callable[[str, int], np.ndarray] | None:
    try:
        import cv2
    except ImportError:
        return None
    cv2.setNumThreads(1)
    _, mode, _, target, _ = INPUTS[name]
    flag = cv2.IMREAD_GRAYSCALE if mode == "L" else cv2.IMREAD_COLOR

    def run(path: str, seed: int) -> np.ndarray:
        x = cv2.resize(cv2.imread(path, flag), target, interpolation=cv2.INTER_NEAREST)
        if warp:
            matrix = affine(seed, x.shape[0], x.shape[1])
            x = cv2.warpAffine(x, matrix[:2], target, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return x.astype("float32")

    return run


def keras_legacy(name: str, warp: bool) -> Callable[[str, int], np.ndarray] | None:
    """Keras' own `load_img`, `img_to_array` and `ImageDataGenerator.random_transform` (the calls above,
    with Keras' Python around them), where Keras is installed."""
    try:
        from keras.src.legacy.preprocessing.image import ImageDataGenerator  # (tf.keras's, not exported by Keras 3)
        from keras.utils import img_to_array, load_img
    except ImportError:
        return None
    _, mode, _, target, _ = INPUTS[name]
    augment = ImageDataGenerator(rotation_range=10, width_shift_range=0.1, height_shift_range=0.1, zoom_range=0.1)

    def run(path: str, seed: int) -> np.ndarray:
        x = img_to_array(load_img(path, color_mode="grayscale" if mode == "L" else "rgb", target_size=target))
        return augment.random_transform(x, seed=seed) if warp else x

    return run


def versions() -> dict[str, str]:
    found = {"PIL": Image.__version__, "SciPy": scipy.__version__, "NumPy": np.__version__}
    for module, label in (("cv2", "OpenCV"), ("keras", "Keras")):
        try:
            found[label] = __import__(module).__version__
        except ImportError:
            pass
    return found


def run(repeats: int) -> dict:
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="gl409-host-") as tmp:
        files = written(Path(tmp))
        for name, (_, _, _, target, channels) in INPUTS.items():
            elements = target[0] * target[1] * channels
            for library, make in (("PIL+SciPy", pil_scipy), ("OpenCV", opencv), ("Keras", keras_legacy)):
                for stage, warp in (("decode+resize", False), ("decode+resize+affine", True)):
                    fn = make(name, warp)
                    if fn is None:
                        continue
                    paths = files[name]
                    times = [thread_cpu_per_call(lambda i, f=fn, p=paths: f(p[i % len(p)], i)) for _ in range(repeats)]
                    ns = sorted(1e9 * t / elements for t in times)
                    results.setdefault(name, {}).setdefault(library, {})[stage] = {
                        "median_ns_per_element": round(statistics.median(ns), 2),
                        "min": round(ns[0], 2), "max": round(ns[-1], 2)}
    return {
        "command": "python bench/rules/GL409/host_cost.py" + (f" --repeats {repeats}" if repeats != 5 else ""),
        "machine": f"{machine()}, load average {os.getloadavg()[0]:.1f} at the end",
        "clock": "time.thread_time (one thread's CPU)",
        "versions": versions(),
        "elements": {name: f"{t[0]}x{t[1]}x{c}" for name, (_, _, _, t, c) in INPUTS.items()},
        "host_ns_per_element": results,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.repeats)
    text = json.dumps(result, indent=1) + "\n"
    print(text, end="")
    if not args.no_write:
        RESULTS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
