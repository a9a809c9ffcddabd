"""Resolver benchmark: greenlint's analysis of each file against parse-only baselines, one core.

    python bench/bench_resolver.py [--no-write]

On the benchmark corpus (bench/corpus.py), each step runs in a fresh interpreter over every
file, one after the other, in one process:
  1. `ast.parse` only (read, decode, parse);
  2. `libcst.parse_module` only (the baseline of the linter goal);
  3. `greenlint.analysis.analyse.analyse_file` (read, checks, text pre-check, parse, resolve, features).
It reports CPU and wall time, lines per CPU second, the CPU-time ratio to libcst parse-only and
peak RSS, then rewrites the "Resolver" section of docs/benchmarks.md. The whole-linter cold and
warm runs are bench_linter.py's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from corpus import PACKAGES, corpus_files, ensure_corpus
from report import REPO, machine, today, versions, write_section

_STEP = """
import json, resource, sys, time
from pathlib import Path
step, listing = sys.argv[1], sys.argv[2]
files = Path(listing).read_text(encoding="utf-8").splitlines()
found = errors = parsed = 0
if step == "greenlint":
    from greenlint.analysis.analyse import analyse_file
    from greenlint.catalog.catalog import load_catalog
    load_catalog()
start, cpu = time.perf_counter(), time.process_time()
if step == "greenlint":
    for result in map(analyse_file, files):
        found += len(result.callsites); errors += len(result.errors); parsed += result.parsed
else:
    if step == "libcst":
        import libcst
        parse, failure = libcst.parse_module, libcst.ParserSyntaxError
    else:
        import ast
        parse, failure = ast.parse, SyntaxError
    for name in files:
        try:
            parse(Path(name).read_bytes().decode("utf-8"))
            parsed += 1
        except (UnicodeDecodeError, failure):
            errors += 1
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"wall_s": wall, "cpu_s": cpu, "maxrss_kib": rss, "callsites": found, "errors": errors, "parsed": parsed}))
"""

STEPS = (("ast", "`ast.parse` only"), ("libcst", "`libcst.parse_module` only"), ("greenlint", "greenlint analysis"))


def measure(files: list[Path]) -> dict[str, dict]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as listing:
        listing.write("\n".join(str(p) for p in files if p.suffix != ".ipynb"))
    results = {}
    for step, _ in STEPS:
        out = subprocess.run(
            [sys.executable, "-c", _STEP, step, listing.name], cwd=REPO, capture_output=True, text=True, check=True
        )
        results[step] = json.loads(out.stdout.strip().splitlines()[-1])
    Path(listing.name).unlink()
    return results


def render(files: list[Path], results: dict[str, dict]) -> str:
    python_files = [p for p in files if p.suffix != ".ipynb"]
    lines = sum(p.read_bytes().count(b"\n") for p in python_files)
    baseline = results["libcst"]["cpu_s"]
    rows = [
        f"| {label} | {results[step]['cpu_s']:.1f} | {results[step]['wall_s']:.1f} | "
        f"{lines / results[step]['cpu_s']:,.0f} | {results[step]['cpu_s'] / baseline:.2f}x | "
        f"{results[step]['maxrss_kib'] / 1024:.0f} |"
        for step, label in STEPS
    ]
    ours = results["greenlint"]
    return "\n".join(
        [
            f"Measured {today()} by `python bench/bench_resolver.py` on {machine()}; {versions('libcst')}.",
            "",
            f"Corpus: {', '.join(PACKAGES)}: {len(python_files):,} Python files, {lines:,} lines; one process,"
            " each step in a fresh interpreter. Ratios use CPU time, which other load on the machine"
            " disturbs far less than wall time.",
            "",
            "| step | CPU (s) | wall (s) | lines per CPU s | CPU vs libcst parse-only | peak RSS (MiB) |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            f"greenlint parsed {ours['parsed']:,} files (the others name neither tensorflow nor keras and were"
            f" skipped by the text pre-check), found {ours['callsites']:,} call sites and reported"
            f" {ours['errors']} file errors.",
            "The resolver walks the standard library's `ast` (positions included) in one pass of its own;"
            " libcst's parse alone costs more than the whole analysis.",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    args = parser.parse_args()
    files = corpus_files(ensure_corpus())
    body = render(files, measure(files))
    print(body)
    if not args.no_write:
        write_section("Resolver", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
