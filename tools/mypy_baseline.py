"""The type checker's baseline: `python -m tools.mypy_baseline [--check] [--allow-new]`.

mypy runs with pyproject.toml's `[tool.mypy]`; each error is kept as `path: [code] message`, without
its line number (edits that move it keep it listed) and under the real file's path (a file reached
through a link counts once). tools/mypy_baseline.txt lists the errors accepted today, one a line.
tests/test_lint.py fails on an error the list lacks and on a listed error that no longer occurs, so
the list only shrinks: after fixing errors, run this command to drop them. It refuses to add an error
unless `--allow-new` is given (a reviewer then sees the list grow in the diff).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from greenlint.atomic import atomic_write_text
from tools.installed_layout import link_installed_layout

REPO_DIR = Path(__file__).resolve().parents[1]
BASELINE = REPO_DIR / "tools" / "mypy_baseline.txt"
COMMAND = "python -m tools.mypy_baseline"
LINE = re.compile(r"\bline \d+")
ERROR = re.compile(r"^(?P<path>[^:\n]+):\d+(?::\d+)?: error: (?P<message>.*?)(?:  \[(?P<code>[a-z-]+)\])?$")


def normalise(path: str, message: str, code: str | None, root: Path = REPO_DIR) -> str:
    """One baseline entry: the real path (mypy's *path* is relative to `root`) below the repository, the
    code, the message without line numbers."""
    real = (root / path).resolve()
    base = next((b for b in (REPO_DIR, root.resolve()) if real.is_relative_to(b)), None)
    shown = real.relative_to(base).as_posix() if base else path
    return f"{shown}: [{code or 'misc'}] {LINE.sub('line N', message)}"


def parse(output: str, root: Path = REPO_DIR) -> Counter[str]:
    """The baseline entries of mypy's output (notes and the summary are not errors)."""
    found: Counter[str] = Counter()
    for line in output.splitlines():
        m = ERROR.match(line)
        if m:
            found[normalise(m["path"], m["message"], m["code"], root)] += 1
    return found


def run_mypy() -> Counter[str]:
    """The errors mypy reports on the repository now, checked in the installed shape (meter/,
    lsp_server/ and data/ inside greenlint/, as package-dir installs them)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = link_installed_layout(Path(tmp))
        for folder in ("tools", "tests"):  # tools/generate_all renders the tests' snapshots
            (root / folder).symlink_to(REPO_DIR / folder)
        args = [sys.executable, "-m", "mypy", "--config-file", str(REPO_DIR / "pyproject.toml"), "--no-pretty",
                "--no-error-summary", "--show-error-codes", "--no-color-output",
                "--cache-dir", str(REPO_DIR / ".mypy_cache")]
        proc = subprocess.run(args, cwd=root, capture_output=True, text=True)
        found = parse(proc.stdout, root)
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not found):  # a crash, or no mypy
        raise RuntimeError(f"mypy could not run (exit {proc.returncode}): {(proc.stderr + proc.stdout)[-2000:]}")
    return found


def read(path: Path = BASELINE) -> Counter[str]:
    if not path.is_file():
        return Counter()
    return Counter(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def write(found: Counter[str], path: Path = BASELINE) -> None:
    atomic_write_text(path, "".join(f"{entry}\n" for entry in sorted(found.elements())))


def compare(found: Counter[str], baseline: Counter[str]) -> tuple[list[str], list[str]]:
    """(errors found beyond the baseline, baseline entries no longer found), each sorted."""
    return sorted((found - baseline).elements()), sorted((baseline - found).elements())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if mypy's errors differ from the baseline")
    parser.add_argument("--allow-new", action="store_true", help="also list errors the baseline lacks")
    args = parser.parse_args(argv)
    found, baseline = run_mypy(), read()
    new, gone = compare(found, baseline)
    for entry in new:
        print(f"new: {entry}", file=sys.stderr)
    for entry in gone:
        print(f"fixed: {entry}", file=sys.stderr)
    if args.check:
        return 1 if new or gone else 0
    if new and not args.allow_new:
        print(f"{len(new)} error(s) not in {BASELINE.name}: fix them, or pass --allow-new", file=sys.stderr)
        return 1
    write(found)
    print(f"{BASELINE.name}: {sum(found.values())} errors ({len(gone)} fixed, {len(new)} added)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
