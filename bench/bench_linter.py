"""Linter benchmark (issue 3, item 7): greenlint cold and warm runs against libcst parse-only.

    python bench/bench_linter.py [--jobs N] [--repeat N] [--git-rev REV] [--versus REV] [--no-write]

On the same corpus (bench/corpus.py: tf-models-official and keras sources from PyPI) and the
same number of processes, it times, each as a fresh command:
  1. libcst parse-only: read, decode and `libcst.parse_module` every file, in a process pool;
  2. `greenlint check` with an empty cache (cold);
  3. `greenlint check` again with that cache (warm).
It reports lines/s, the ratios against the goals (cold <= 1.3x parse-only, warm <= 10% of cold)
and peak memory, then rewrites the "Linter" section of docs/benchmarks.md.

`--git-rev REV` benchmarks the greenlint of a commit, exported to bench/.work/tree, instead of
the working tree: the lint cache is keyed on greenlint's own source files, so edits made while
the benchmark runs (several people sharing one checkout) would otherwise empty it. An exported
tree is byte-compiled before it is timed, as an install is: a cold run is an empty lint cache,
not Python compiling greenlint (which PYTHONDONTWRITEBYTECODE would make every process do).

`--versus REV` runs the cold and warm checks of a second commit (exported to bench/.work/versus)
too, interleaved with the first, each with its own cache, and adds their rows and their CPU time
(user + system of the command's processes) side by side: a change's cost, measured under the same
load.

Peak memory is given two ways: the largest single process (getrusage maxrss of the command's
process tree) and the sum over the process tree (sampled from /proc every 0.1 s).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from corpus import PACKAGES, corpus_files, ensure_corpus
from report import REPO, machine, today, versions, write_section

WORK = Path(__file__).resolve().parent / ".work"
COLD_GOAL = 1.3
WARM_GOAL = 0.10


# --- parse-only baseline (runs in its own process: `bench_linter.py _parse FILELIST JOBS`) ---
def _parse_file(path: str) -> int:
    import libcst

    try:
        libcst.parse_module(Path(path).read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, libcst.ParserSyntaxError):
        return 1
    return 0


def _parse_all(file_list: str, jobs: int) -> None:
    from multiprocessing import Pool

    files = Path(file_list).read_text(encoding="utf-8").splitlines()
    with Pool(jobs) as pool:
        failures = sum(pool.imap_unordered(_parse_file, files, chunksize=8))
    print(json.dumps({"files": len(files), "failures": failures}))


# --- measuring a command -----------------------------------------------------
def _run_child(argv: list[str], out: str) -> None:
    """`bench_linter.py _run OUT -- CMD...`: run CMD, write its wall time, CPU time and children's
    maxrss to OUT."""
    start = time.perf_counter()
    with open(out + ".stdout", "wb") as stdout:
        rc = subprocess.run(argv, stdout=stdout).returncode
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = {"rc": rc, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "maxrss_kib": usage.ru_maxrss}
    Path(out).write_text(json.dumps(result))


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return found


def _tree_rss(pid: int) -> int:
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for p in _descendants(pid):
        try:
            with open(f"/proc/{p}/statm", encoding="ascii") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


def measure(name: str, cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> dict:
    """Run `cmd` under the `_run` wrapper; its wall time, peak RSS (largest process, tree sum), stdout."""
    out = WORK / f"{name}.json"
    wrapper = [sys.executable, os.path.abspath(__file__), "_run", str(out), "--", *cmd]
    proc = subprocess.Popen(wrapper, env={**os.environ, **(env or {})}, cwd=cwd)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            stop.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    proc.wait()
    stop.set()
    sampler.join()
    result = json.loads(out.read_text())
    result["tree_peak_mib"] = peak / 2**20
    result["maxrss_mib"] = result.pop("maxrss_kib") / 1024
    result["stdout"] = Path(str(out) + ".stdout").read_text(encoding="utf-8", errors="replace")
    if proc.returncode != 0 or result["rc"] not in (0, 1):
        raise RuntimeError(f"{name}: `{' '.join(cmd)}` exited {result['rc']}:\n{result['stdout'][-2000:]}")
    return result


def greenlint_cmd(file_list: Path, jobs: int) -> list[str]:
    """`greenlint check` on the corpus, every finding printed (concise), never failing on findings."""
    files = file_list.read_text(encoding="utf-8").splitlines()
    return [sys.executable, "-m", "greenlint", "check", "--isolated", "--exit-zero", "--jobs", str(jobs), *files]


def export(rev: str, name: str = "tree") -> tuple[Path, str]:
    """Commit `rev` of this repository as a plain tree under bench/.work/*name*, its greenlint
    byte-compiled as an install compiles it (else, under PYTHONDONTWRITEBYTECODE, every timed
    process would compile greenlint's own sources, and a larger greenlint would pay for that, not
    for its linting); (tree, short hash)."""
    tree = WORK / name
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    commit = subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, capture_output=True, text=True, check=True)
    archive = subprocess.run(["git", "archive", rev], cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "greenlint")], check=True)
    return tree, commit.stdout.strip()


def _entries(cache: Path) -> tuple[int, int]:
    """(entries, files) of a lint cache directory: the rows of its SQLite files, or (an older
    greenlint's layout) one entry per file."""
    files = [p for p in cache.rglob("*") if p.is_file()] if cache.exists() else []
    entries = 0
    for p in files:
        if p.suffix == ".sqlite":
            with contextlib.closing(sqlite3.connect(f"file:{p}?mode=ro", uri=True)) as db:
                entries += db.execute("SELECT count(*) FROM entries").fetchone()[0]
        elif not p.name.endswith(("-wal", "-shm")):
            entries += 1
    return entries, len(files)


# --- the benchmark -----------------------------------------------------------
def _median_run(runs: list[dict]) -> dict:
    """The run of median wall time, with the median CPU time of all the runs (steadier under other
    load than the CPU time of the median-wall run), the largest memory figures and every time seen."""
    ordered = sorted(runs, key=lambda x: x["wall_s"])
    median = dict(ordered[len(ordered) // 2])
    median["all_wall_s"] = [x["wall_s"] for x in runs]
    median["all_cpu_s"] = [x["cpu_s"] for x in runs]
    median["cpu_s"] = sorted(median["all_cpu_s"])[len(runs) // 2]
    for key in ("maxrss_mib", "tree_peak_mib"):
        median[key] = max(x[key] for x in runs)
    return median


def run(jobs: int, rev: str | None, repeat: int, versus: str | None = None) -> dict:
    roots = ensure_corpus()
    files = corpus_files(roots)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    mention = sum(1 for p in files if _parsed(p))
    WORK.mkdir(parents=True, exist_ok=True)
    file_list = WORK / "files.txt"
    file_list.write_text("".join(f"{p}\n" for p in files), encoding="utf-8")
    cache = WORK / "cache"
    tree, commit = export(rev) if rev else (REPO, None)  # `python -m greenlint` in `tree` runs its greenlint
    # ... with its own data/ (catalog, model, tables): an export's `greenlint.data` is otherwise found
    # through the editable install, in this checkout, and an older greenlint timed with today's tables
    env = {"GREENLINT_CACHE_DIR": str(cache), "GREENLINT_DATA_DIR": str(tree / "data")}
    other, other_commit = export(versus, "versus") if versus else (None, None)
    other_env = {"GREENLINT_CACHE_DIR": str(WORK / "cache-versus"), "GREENLINT_DATA_DIR": str(other / "data")} \
        if other else {}
    runs: dict[str, list[dict]] = {"parse": [], "cold": [], "warm": []} | (
        {"cold_versus": [], "warm_versus": []} if other else {})
    load_before = os.getloadavg()[0]
    for _ in range(repeat):  # interleaved, so that a change in the machine's load hits all three alike
        runs["parse"].append(measure("parse", [sys.executable, os.path.abspath(__file__), "_parse", str(file_list), str(jobs)]))
        shutil.rmtree(cache, ignore_errors=True)
        runs["cold"].append(measure("cold", greenlint_cmd(file_list, jobs), env, cwd=tree))
        entries_cold = _entries(cache)
        if other:
            shutil.rmtree(other_env["GREENLINT_CACHE_DIR"], ignore_errors=True)
            runs["cold_versus"].append(measure("cold_versus", greenlint_cmd(file_list, jobs), other_env, cwd=other))
            runs["warm_versus"].append(measure("warm_versus", greenlint_cmd(file_list, jobs), other_env, cwd=other))
        runs["warm"].append(measure("warm", greenlint_cmd(file_list, jobs), env, cwd=tree))
    load = (load_before, os.getloadavg()[0])
    medians = {k: _median_run(v) for k, v in runs.items()}
    parse, cold, warm = (medians[k] for k in ("parse", "cold", "warm"))
    parse_info = json.loads(parse["stdout"])
    return {
        "commit": commit,
        "versus": other_commit,
        "cache_entries": (entries_cold, _entries(cache)),
        "files": len(files),
        "mention_tf": mention,
        "lines": lines,
        "jobs": jobs,
        "repeat": repeat,
        "load": load,
        "parse_failures": parse_info["failures"],
        "runs": medians,
        "diagnostics": {k: _count_diagnostics(r["stdout"]) for k, r in medians.items() if k != "parse"},
    }


def _parsed(path: Path) -> bool:
    """Whether greenlint's cheap pre-check parses the file (`analysis.analyse.parses`)."""
    from greenlint.analysis.analyse import parses, project_imports

    text = path.read_bytes().decode("utf-8", errors="replace")
    absolute = os.path.abspath(path)
    return parses(absolute, text, project_imports(absolute, text))


def _count_diagnostics(stdout: str) -> int:
    return sum(1 for line in stdout.splitlines() if line and not line.startswith(("Found ", "All checks")))


def _list(run: dict, key: str = "all_wall_s") -> str:
    return ", ".join(f"{x:.1f}" for x in run[key])


def _side_by_side(runs: dict, this: str, versus: str) -> str:
    """Median CPU time (user + system, all processes) of each check against the same check at *versus*."""
    parts = []
    for kind in ("cold", "warm"):
        mine, theirs = runs[kind]["cpu_s"], runs[f"{kind}_versus"]["cpu_s"]
        parts.append(f"{kind} {mine:.1f} s against {theirs:.1f} s ({mine / theirs:.2f}×)")
    cold = runs["cold"]["cpu_s"] / runs["cold_versus"]["cpu_s"]
    verdict = "met" if cold <= 1.0 else "**missed**"
    return (
        f"- Side by side, median CPU time of {this} against {versus}: {'; '.join(parts)}.\n"
        f"- Goal cold CPU ≤ 1.00× {versus} (issues #26, #30: no slower than then): {cold:.2f}× — {verdict}."
    )


def markdown(r: dict) -> str:
    runs = r["runs"]
    parse_s, cold_s, warm_s = (runs[k]["wall_s"] for k in ("parse", "cold", "warm"))
    cold_ratio, warm_ratio = cold_s / parse_s, warm_s / cold_s

    def row(label: str, key: str, versus: str) -> str:
        x = runs[key]
        return (f"| {label} | {x['wall_s']:.1f} | {r['lines'] / x['wall_s']:,.0f} | {versus} "
                f"| {x['maxrss_mib']:,.0f} | {x['tree_peak_mib']:,.0f} |")

    verdict = lambda ok: "**met**" if ok else "**missed**"  # noqa: E731
    return "\n".join([
        f"Measured {today()} by `python bench/bench_linter.py{' --git-rev ' + r['commit'] if r['commit'] else ''}"
        f"{' --versus ' + r['versus'] if r.get('versus') else ''}` "
        f"on {machine()}; {versions('libcst', commit=r['commit'])}.",
        f"Corpus: {', '.join(PACKAGES)} wheels from PyPI, {r['files']:,} files, {r['lines']:,} lines "
        f"({r['parse_failures']} that libcst cannot parse). Every run uses {r['jobs']} processes and starts "
        "as a fresh command (interpreter start-up included). "
        + (f"Each of the three was run {r['repeat']} times, interleaved; the table shows the median run "
           "(all wall times below) and the largest memory seen." if r["repeat"] > 1 else "One run each."),
        "",
        "| run | wall s | lines/s | ratio | peak RSS, largest process (MiB) | peak RSS, process tree (MiB) |",
        "|---|---:|---:|---:|---:|---:|",
        row("libcst parse-only (`parse_module`, process pool)", "parse", "1×"),
        row("`greenlint check`, cold (empty cache)", "cold", f"{cold_ratio:.2f}× parse-only"),
        row("`greenlint check`, warm (cache full)", "warm", f"{warm_ratio:.1%} of cold"),
        *([row(f"`greenlint check` at {r['versus']}, cold", "cold_versus", f"{runs['cold_versus']['wall_s'] / parse_s:.2f}× parse-only"),
           row(f"`greenlint check` at {r['versus']}, warm", "warm_versus",
               f"{runs['warm_versus']['wall_s'] / runs['cold_versus']['wall_s']:.1%} of cold")] if r.get("versus") else []),
        "",
        f"- Goal cold ≤ {COLD_GOAL}× parse-only: {cold_ratio:.2f}× — {verdict(cold_ratio <= COLD_GOAL)}.",
        f"- Goal warm ≤ {WARM_GOAL:.0%} of cold: {warm_ratio:.1%} — {verdict(warm_ratio <= WARM_GOAL)}.",
        f"- Diagnostics printed: {r['diagnostics']['cold']:,} cold, {r['diagnostics']['warm']:,} warm "
        "(they must agree).",
        *([_side_by_side(runs, r["commit"] or "the working tree", r["versus"])] if r.get("versus") else []),
        f"- Lint cache entries: {r['cache_entries'][0][0]:,} in {r['cache_entries'][0][1]:,} file(s) after the cold "
        f"run, {r['cache_entries'][1][0]:,} in {r['cache_entries'][1][1]:,} after the warm run"
        + (" (no new entry: the warm run found every file in the cache)." if r["cache_entries"][0][0] ==
           r["cache_entries"][1][0] else " (the warm run missed the cache for some files)."),
        *([f"- Wall times (s): parse-only {_list(runs['parse'])}; cold {_list(runs['cold'])}; "
           f"warm {_list(runs['warm'])}."] if r["repeat"] > 1 else []),
        *([f"- CPU times (s), each run: cold {_list(runs['cold'], 'all_cpu_s')} against "
           f"{_list(runs['cold_versus'], 'all_cpu_s')}; warm {_list(runs['warm'], 'all_cpu_s')} against "
           f"{_list(runs['warm_versus'], 'all_cpu_s')}."] if r["repeat"] > 1 and r.get("versus") else []),
        f"- Why greenlint can beat parse-only: its resolver parses with the standard library's `ast`, not libcst "
        f"(greenlint/analysis/resolver.py), and only the {r['mention_tf']:,} of {r['files']:,} files that mention "
        "tensorflow or keras, import another module of their project or are imported by a module beside "
        "them that mentions them, get parsed at all (each imported "
        "project module is also parsed once per process for its summary: "
        "greenlint/analysis/project.py).",
        f"- Load average (1 min) {r['load'][0]:.1f} before and {r['load'][1]:.1f} after the runs: other jobs "
        "may have shared the machine, which is why the three are interleaved and the ratios matter more than "
        "the absolute times.",
        "- Peak RSS of the process tree is sampled every 0.1 s, so short peaks may be missed; the "
        "largest-process figure is exact (getrusage).",
    ])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_parse"]:
        _parse_all(argv[1], int(argv[2]))
        return 0
    if argv[:1] == ["_run"]:
        _run_child(argv[3:], argv[1])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="processes for both (default: all cores)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, interleaved; the median is reported")
    parser.add_argument("--git-rev", metavar="REV", help="benchmark the greenlint of this commit (e.g. HEAD)")
    parser.add_argument("--versus", metavar="REV", help="and the greenlint of this commit beside it (e.g. a base)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    result = run(args.jobs, args.git_rev, args.repeat, args.versus)
    text = markdown(result)
    print(text)
    (WORK / "linter-result.json").write_text(
        json.dumps({**result, "runs": {k: {**v, "stdout": None} for k, v in result["runs"].items()}}, indent=2)
    )
    if not args.no_write:
        write_section("Linter", text)
        print(f"\nwrote the Linter section of {(REPO / 'docs' / 'benchmarks.md').relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
