"""The benchmark corpus: real TensorFlow/Keras sources, fetched from PyPI into bench/.corpus/.

`pip download --no-deps` of pinned wheels (tf-models-official and keras), unpacked once;
later runs reuse them. bench/.corpus/ is git-ignored.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
CORPUS_DIR = BENCH_DIR / ".corpus"
PACKAGES = ("tf-models-official==2.20.0", "keras==3.15.1")
SUFFIXES = (".py", ".pyi", ".ipynb")


def ensure_corpus(corpus_dir: Path = CORPUS_DIR) -> list[Path]:
    """Download and unpack the corpus if needed; return its source roots (one per package)."""
    wheels_dir = corpus_dir / "wheels"
    roots = []
    for requirement in PACKAGES:
        name, version = requirement.split("==")
        root = corpus_dir / "src" / f"{name}-{version}"
        if not (root / ".complete").exists():
            wheel = _download(requirement, wheels_dir)
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(root)
            (root / ".complete").write_text(wheel.name + "\n")
        roots.append(root)
    return roots


def _download(requirement: str, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(dest), requirement],
        check=True,
    )
    name, version = requirement.split("==")
    stem = name.replace("-", "_")
    matches = sorted(dest.glob(f"{stem}-{version}-*.whl"))
    if not matches:
        raise RuntimeError(f"pip download {requirement} produced no wheel in {dest}")
    return matches[0]


def corpus_files(roots: list[Path]) -> list[Path]:
    """Every analysable file under the roots, sorted."""
    return sorted(p for root in roots for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file())


if __name__ == "__main__":
    files = corpus_files(ensure_corpus())
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"{len(files)} files, {lines} lines under {CORPUS_DIR}")
