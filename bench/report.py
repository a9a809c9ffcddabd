"""Shared by the benchmark scripts: machine facts, and writing one section of docs/benchmarks.md."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS_MD = REPO / "docs" / "benchmarks.md"
INTRO = """# Benchmarks

Figures measured by the scripts in `bench/`, each of which rewrites its own section below
(`python bench/<script>.py`). Numbers are from one run on the machine named in each section;
goals that a run missed are reported as missed.
"""


def machine() -> str:
    """`N cores, <cpu model>, X GiB RAM`."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
        with open("/proc/meminfo", encoding="utf-8") as f:
            kib = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
        memory = f", {kib / 2**20:.0f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        memory = ""
    return f"{os.cpu_count()} cores, {model}{memory}"


def versions(*distributions: str, commit: str | None = None) -> str:
    """`greenlint 0.1.0 (abc1234), Python 3.11.9, libcst 1.9.0`; the commit defaults to HEAD's."""
    from importlib.metadata import PackageNotFoundError, version

    if commit is None:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
        commit = head.stdout.strip() if head.returncode == 0 else None
    parts = [f"greenlint {version('greenlint')}" + (f" (commit {commit})" if commit else "")]
    parts.append(f"Python {platform.python_version()}")
    for name in distributions:
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            parts.append(f"{name} (not installed)")
    return ", ".join(parts)


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def write_section(title: str, body: str, path: Path = BENCHMARKS_MD) -> None:
    """Replace (or append) the `## title` section of docs/benchmarks.md, leaving the others as they are."""
    sys.path.insert(0, str(REPO))
    from greenlint.atomic import atomic_write_text

    text = path.read_text(encoding="utf-8") if path.exists() else INTRO
    section = f"## {title}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(title)}[ \t]*\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section
    atomic_write_text(path, text)


def repeat_main(section: str, run, markdown, doc: str, argv: list[str] | None = None, repeat: int = 7) -> int:
    """The command line of a benchmark that runs `run(repeat)` and renders it with `markdown(result, repeat)`."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    text = markdown(run(args.repeat), args.repeat)
    print(text)
    if not args.no_write:
        write_section(section, text)
    return 0


def probe(code: str) -> dict:
    """Run `code` in a fresh interpreter at the repository root; its last stdout line is a JSON object."""
    import json

    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
