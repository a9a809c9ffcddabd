"""Import benchmark: how long `import greenlint` (and the CLI's start-up) takes, and that it
pulls in no heavy dependency (TensorFlow, pandas, scikit-learn, libcst, numpy).

    python bench/bench_import.py [--repeat N] [--no-write]

Each measurement is a fresh interpreter; the median of N runs is reported, and rewritten into
the "Import" section of docs/benchmarks.md.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time

from report import REPO, machine, probe, repeat_main, today, versions

HEAVY = ("tensorflow", "keras", "pandas", "sklearn", "libcst", "numpy", "scipy", "torch")
#: What is imported, and how its time is taken (inside a fresh interpreter).
TARGETS = {
    "import greenlint": "greenlint",
    "import greenlint.report": "greenlint.report",
    "import greenlint.cli": "greenlint.cli",
    "import greenlint.check": "greenlint.check",
    "import greenlint.analysis": "greenlint.analysis",
    "import greenlint.predict": "greenlint.predict",
}
_PROBE = """
import json, sys, time, importlib
t = time.perf_counter()
importlib.import_module({module!r})
dt = time.perf_counter() - t
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r}))
print(json.dumps({{"seconds": dt, "heavy": heavy, "modules": len(sys.modules)}}))
"""


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=REPO, capture_output=True, check=True)
    return time.perf_counter() - start


def run(repeat: int) -> dict:
    results = {}
    for label, module in TARGETS.items():
        runs = [probe(_PROBE.format(module=module, heavy=HEAVY)) for _ in range(repeat)]
        results[label] = {
            "ms": 1000 * statistics.median(r["seconds"] for r in runs),
            "heavy": runs[0]["heavy"],
            "modules": runs[0]["modules"],
        }
    results["`python -c pass` (interpreter start-up, wall)"] = {
        "wall_ms": 1000 * statistics.median(wall([sys.executable, "-c", "pass"]) for _ in range(repeat))
    }
    results["`python -m greenlint --version` (whole command, wall)"] = {
        "wall_ms": 1000 * statistics.median(wall([sys.executable, "-m", "greenlint", "--version"]) for _ in range(repeat))
    }
    with tempfile.TemporaryDirectory() as empty:
        check = [sys.executable, "-m", "greenlint", "check", empty, "--isolated", "--no-cache"]
        results["`python -m greenlint check EMPTY_DIR` (whole command, wall)"] = {
            "wall_ms": 1000 * statistics.median(wall(check) for _ in range(repeat))
        }
    return results


def markdown(results: dict, repeat: int) -> str:
    lines = [
        f"Measured {today()} by `python bench/bench_import.py` on {machine()}; {versions()}. "
        f"Median of {repeat} fresh interpreters each.",
        "",
        "| what | time (ms) | modules loaded | heavy dependencies imported |",
        "|---|---:|---:|---|",
    ]
    for label, r in results.items():
        if "ms" in r:
            heavy = ", ".join(r["heavy"]) or "none"
            lines.append(f"| `{label}` (import only) | {r['ms']:.1f} | {r['modules']} | {heavy} |")
        else:
            lines.append(f"| {label} | {r['wall_ms']:.0f} | | |")
    clean = not results["import greenlint"]["heavy"]
    all_clean = not any(r.get("heavy") for r in results.values())
    lines += [
        "",
        f"`import greenlint` imports none of {', '.join(HEAVY)}: **{'yes' if clean else 'no'}**; "
        f"nor does any import above: **{'yes' if all_clean else 'no'}**.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return repeat_main("Import", run, markdown, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
