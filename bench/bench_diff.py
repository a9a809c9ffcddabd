"""`greenlint diff` on the bundled examples (issue 22): what an energy review of a change costs.

    python bench/bench_diff.py [--repeat N] [--no-write]

A git repository is made of a copy of examples/ (commit on `main`), then a change on a branch
(train.py's sweep trains each trial 3× longer, `epochs=30` → `epochs=90`, and runs half the
trials, `range(8)` → `range(4)`). Each step is a fresh command (interpreter start-up included), the steps of one round are
interleaved, and the table shows the median of the rounds, wall and CPU time (user + system):

  - `python -c pass` (interpreter start-up);
  - `greenlint calls` of the examples, warm (one side's analysis, from the lint cache);
  - `greenlint diff main change` with an empty cache (both revisions written as snapshots, analysed);
  - the same again, warm;
  - `greenlint diff` (the merge-base with main against the working tree), warm.

Goals (CPU time: the machine is shared, wall times are noisy): a warm `greenlint diff` well under a
second (<= 0.5 s) and at most 3× a warm `greenlint calls` (two sides and git against one side); a
cold one (empty cache) under 1 s. The
"Energy review (greenlint diff)" section of docs/benchmarks.md is rewritten.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys

from bench_linter import WORK, measure
from report import REPO, machine, today, versions, write_section

SECTION = "Energy review (greenlint diff)"
GOALS = {"warm_s": 0.5, "warm_vs_calls": 3.0, "cold_cpu_s": 1.0}
GIT = ["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench"]


def make_repository() -> str:
    """bench/.work/diff-repo: the examples on `main`, the change on `change` (checked out)."""
    repo = WORK / "diff-repo"
    shutil.rmtree(repo, ignore_errors=True)
    shutil.copytree(REPO / "examples", repo, ignore=shutil.ignore_patterns(".data", ".greenlint", "__pycache__"))
    run = lambda *args: subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)  # noqa: E731
    run("init", "-q", "-b", "main")
    run("add", "-A")
    run("commit", "-qm", "base")
    run("checkout", "-qb", "change")
    train = repo / "train.py"
    train.write_text(train.read_text().replace("epochs=30)", "epochs=90)").replace("range(8)", "range(4)"))
    run("commit", "-qam", "change")
    return str(repo)


def run(repeat: int) -> dict:
    repo = make_repository()
    py = sys.executable
    cache, cold_cache = WORK / "diff-cache", WORK / "diff-cold-cache"
    env = {"GREENLINT_CACHE_DIR": str(cache)}
    steps = {
        "start-up": ([py, "-c", "pass"], False),
        "calls": ([py, "-m", "greenlint", "calls", "."], False),
        "cold": ([py, "-m", "greenlint", "diff", "main", "change"], True),
        "warm": ([py, "-m", "greenlint", "diff", "main", "change"], False),
        "worktree": ([py, "-m", "greenlint", "diff"], False),
    }
    runs: dict[str, list[dict]] = {name: [] for name in steps}
    for warm_up in ("calls", "warm", "worktree"):
        measure("warm-up", steps[warm_up][0], env, cwd=repo)
    for _ in range(repeat):
        for name, (cmd, cold) in steps.items():
            if cold:
                shutil.rmtree(cold_cache, ignore_errors=True)
            runs[name].append(measure(f"diff-{name}", cmd, {"GREENLINT_CACHE_DIR": str(cold_cache)} if cold else env, cwd=repo))
    out = runs["warm"][0]["stdout"]
    return {"runs": runs, "repeat": repeat, "output": out}


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def markdown(r: dict, repeat: int) -> str:
    runs = r["runs"]
    wall = {k: _median(v, "wall_s") for k, v in runs.items()}
    cpu = {k: _median(v, "cpu_s") for k, v in runs.items()}
    labels = {
        "start-up": "`python -c pass` (interpreter start-up)",
        "calls": "`greenlint calls .`, warm (one side)",
        "cold": "`greenlint diff main change`, empty cache",
        "warm": "`greenlint diff main change`, warm",
        "worktree": "`greenlint diff` (merge-base with main vs the working tree), warm",
    }
    ratios = {"start-up": "1×", "calls": f"{cpu['calls'] / cpu['start-up']:.1f}× start-up",
              **{k: f"{cpu[k] / cpu['calls']:.1f}× calls" for k in ("cold", "warm", "worktree")}}
    lines = [
        f"Measured {today()} by `python bench/bench_diff.py --repeat {repeat}` on {machine()}; {versions()}.",
        "Repository: a copy of examples/ on `main`, and a change on a branch (train.py `epochs=30` → `epochs=90`,"
        " `range(8)` → `range(4)`). Each step is a fresh command; the rounds were interleaved and the table"
        f" shows the median of {repeat} (wall and CPU time, user + system).",
        "",
        "| step | wall (ms) | CPU (ms) | ratio (CPU) |",
        "|---|---:|---:|---:|",
        *[f"| {labels[k]} | {wall[k] * 1000:,.0f} | {cpu[k] * 1000:,.0f} | {ratios[k]} |" for k in labels],
        "",
        f"- Goal warm `greenlint diff` ≤ {GOALS['warm_s']} s of CPU: {cpu['warm']:.2f} s — **{'met' if cpu['warm'] <= GOALS['warm_s'] else 'missed'}**.",
        f"- Goal warm `greenlint diff` ≤ {GOALS['warm_vs_calls']:g}× a warm `greenlint calls` (CPU): {cpu['warm'] / cpu['calls']:.1f}× —"
        f" **{'met' if cpu['warm'] / cpu['calls'] <= GOALS['warm_vs_calls'] else 'missed'}**.",
        f"- Goal cold `greenlint diff` ≤ {GOALS['cold_cpu_s']} s of CPU: {cpu['cold']:.2f} s —"
        f" **{'met' if cpu['cold'] <= GOALS['cold_cpu_s'] else 'missed'}**.",
        f"- Load: wall times above CPU times mean other jobs shared the machine (wall: {', '.join(f'{k} {wall[k]:.2f} s' for k in labels)}).",
        "- What it reported (warm run):",
        "",
        "```",
        *r["output"].rstrip().splitlines(),
        "```",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    text = markdown(run(args.repeat), args.repeat)
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
