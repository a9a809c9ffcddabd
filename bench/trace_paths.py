"""How much code a newcomer reads along two paths (issue 30, "Done when"): a trace of the functions run.

    python bench/trace_paths.py [--versus DIR]... [--no-write]

Each path runs once, as a fresh command with an empty lint cache (cold), in a small git
project made in a temporary folder:

  - `check`: `greenlint check train.py`, a script whose `fit` in a loop is a GL101 message;
  - `diff`: `greenlint diff` after a one-line change of that script (`epochs=50` -> `epochs=500`),
    HEAD against the working tree.

The command runs under `sys.setprofile` (in this interpreter's child process, on the main
thread) and every call of a function defined in greenlint's package is recorded. Reported:

  - functions: the distinct functions run (named ones: `<module>` bodies, lambdas and
    comprehensions left out), and the files they are in;
  - package switches: the functions in the order each is first run (the order in which one
    reads the path top to bottom), and how often two neighbours in that order lie in different
    packages (`greenlint/check/`, `greenlint/analysis/`, ...; top-level modules are the package
    `greenlint`);
  - entries per package: the runs of that order in each package (a package read in one go is
    entered once).

`--versus DIR` (repeatable) traces the greenlint of another checkout too (DIR holds its `greenlint/`, and
its `data/`, which GREENLINT_DATA_DIR points at for that run), for the figures before and after a
change side by side; an older greenlint that does not reach the message is traced all the same
(a warning says so). The "Newcomer paths: functions traced" section of docs/benchmarks.md is
rewritten (unless `--no-write`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from report import REPO, machine, today, versions, write_section

SECTION = "Newcomer paths: functions traced"
SCRIPT = """import tensorflow as tf

(x_train, y_train), _ = tf.keras.datasets.cifar10.load_data()
model = tf.keras.applications.ResNet50(weights=None, input_shape=(32, 32, 3), classes=10)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
for trial in range(20):
    model.fit(x_train, y_train, epochs=50)
"""
CHANGED = SCRIPT.replace("epochs=50", "epochs=500")
PATHS = {"check": ["check", "train.py"], "diff": ["diff", "HEAD"]}

# Run in the child: trace greenlint's own functions while the command runs, then print them as JSON.
CHILD = r"""
import json, os, sys
package = os.path.join(os.path.realpath(sys.argv[1]), "greenlint", "")
sys.path.insert(0, os.path.dirname(package.rstrip(os.sep)))
order, seen = [], set()

def profile(frame, event, arg):
    if event != "call":
        return
    code = frame.f_code
    key = (code.co_filename, code.co_firstlineno, code.co_qualname)
    if key not in seen:
        seen.add(key)
        if code.co_filename.startswith(package) and not code.co_name.startswith("<"):
            order.append([code.co_filename[len(package):], code.co_firstlineno, code.co_qualname])

sys.setprofile(profile)
from greenlint.cli import main
try:
    status = main(sys.argv[2:])
except SystemExit as exc:
    status = exc.code
sys.setprofile(None)
sys.stdout.flush()
with open(os.environ["GREENLINT_TRACE_OUT"], "w", encoding="utf-8") as out:
    json.dump({"status": status, "order": order}, out)
"""


def package_of(relative: str) -> str:
    """`check/runner.py` -> `check`; a top-level module (`paths.py`) -> `greenlint`."""
    head, sep, _ = relative.partition("/")
    return head if sep else "greenlint"


def summarise(order: list[list]) -> dict:
    """Functions, files, package switches and entries per package of a first-run order."""
    packages = [package_of(f) for f, _, _ in order]
    runs = [p for i, p in enumerate(packages) if i == 0 or packages[i - 1] != p]
    return {
        "functions": len(order),
        "files": len({f for f, _, _ in order}),
        "switches": max(0, len(runs) - 1),
        "entries": dict(Counter(runs).most_common()),
    }


def make_project(root: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    (root / "train.py").write_text(SCRIPT, encoding="utf-8")
    git("init", "-q")
    git("add", "train.py")
    git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "base")


def trace(source: Path, name: str, strict: bool = True) -> dict:
    """Trace one path in a fresh project, with an empty lint cache and user cache; unless *strict*,
    a path that does not reach its message (an older greenlint's figures) is only warned about."""
    with tempfile.TemporaryDirectory(prefix="greenlint-trace-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        make_project(root)
        if name == "diff":
            (root / "train.py").write_text(CHANGED, encoding="utf-8")
        env = dict(os.environ, GREENLINT_CACHE_DIR=str(Path(tmp) / "cache"), XDG_CACHE_HOME=str(Path(tmp) / "xdg"))
        env.pop("PYTHONPATH", None)
        if not strict and (source / "data").is_dir():
            env["GREENLINT_DATA_DIR"] = str(source / "data")
        traced = Path(tmp) / "trace.json"
        env["GREENLINT_TRACE_OUT"] = str(traced)
        child = subprocess.run(
            [sys.executable, "-c", CHILD, str(source), *PATHS[name]], cwd=root, env=env, capture_output=True
        )
        out, err = child.stdout, child.stderr
        if not traced.exists():
            raise SystemExit(f"trace of {name} failed:\n{err.decode(errors='replace')}")
        result = json.loads(traced.read_text(encoding="utf-8"))
        shown = out.decode(errors="replace")
        expected = {"check": "GL101", "diff": "×"}[name]
        if expected not in shown:
            problem = (
                f"`greenlint {' '.join(PATHS[name])}` printed no {expected}:\n{shown}{err.decode(errors='replace')}"
            )
            if strict:
                raise SystemExit(problem)
            print(f"warning: {problem}", file=sys.stderr)
        return summarise(result["order"]) | {"reached": expected in shown}


def markdown(results: dict[str, dict[str, dict]]) -> str:
    """*results*: per greenlint traced (a label), per path, its summary."""
    rows = ["| path | greenlint | functions | files | package switches | entries per package (most first) |"]
    rows.append("|---|---|---:|---:|---:|---|")
    labels = {
        "check": "`greenlint check train.py` (cold) to a GL101 message",
        "diff": "`greenlint diff HEAD` on a one-line change",
    }
    for name, label in labels.items():
        for source, paths in results.items():
            r = paths[name]
            entries = ", ".join(f"{p} {n}" for p, n in r["entries"].items())
            source += "" if r["reached"] else " (no such message: a shorter path)"
            rows.append(f"| {label} | {source} | {r['functions']} | {r['files']} | {r['switches']} | {entries} |")
    return "\n".join(
        [
            f"Measured {today()} by `python bench/trace_paths.py` ({versions()}; {machine()}).",
            "",
            "Each command runs once in a fresh interpreter with an empty lint cache, under `sys.setprofile`;",
            "a function counts once (named functions of the `greenlint` package only). Package switches: in the",
            "order in which the functions are first run, neighbours that lie in different packages; entries:",
            "the runs of that order per package. Issue 30 measured 614 functions in 96 files entering `check/`",
            "four times (check) and 736 functions in 109 files with 98 package switches (diff) at 995e8f4, with",
            "a trace of its own; the table is this script's count.",
            "",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versus", type=Path, metavar="DIR", action="append", default=[],
                        help="another checkout traced beside this one (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    sources = {"this checkout": REPO} | {f"`{d.name}`": d.resolve() for d in args.versus}
    results = {}
    for label, source in sources.items():
        results[label] = {name: trace(source, name, strict=source == REPO) for name in PATHS}
        for name, r in results[label].items():
            print(
                f"{label}, {name}: {r['functions']} functions in {r['files']} files, {r['switches']} package switches;"
                f" entries {r['entries']}"
            )
    text = markdown(results)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
