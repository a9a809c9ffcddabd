"""Where a cold `greenlint check -j 1` spends its CPU time, by step (run by bench_warm.py).

    python bench/cold_breakdown.py FILE_LIST

Runs the check in this process with a timer around each step's entry point. Each CPU second is
charged to the innermost step running (a project summary's parse is "parse", not "summaries"),
so the steps add up to the run; what no step covers (start-up, imports, reading files, keys) is
"other". Prints one JSON object: CPU seconds per step and the counts of parses and summaries.
"""

from __future__ import annotations

import functools
import json
import sys
import time

SUMMARIES = "project summaries (their own walk)"
_stack: list[list] = []  # [step, started, charged to nested steps]
TOTALS: dict[str, float] = {}
COUNTS: dict[str, int] = {}


def _timed(step: str, func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        frame = [step, time.process_time(), 0.0]
        _stack.append(frame)
        try:
            return func(*args, **kwargs)
        finally:
            _stack.pop()
            spent = time.process_time() - frame[1]
            TOTALS[step] = TOTALS.get(step, 0.0) + spent - frame[2]
            COUNTS[step] = COUNTS.get(step, 0) + 1
            if _stack:
                _stack[-1][2] += spent

    return wrapper


def _wrap(owner, name: str, step: str) -> None:
    func = getattr(owner, name, None)
    if func is not None:  # a step the code no longer has is simply absent from the table
        setattr(owner, name, _timed(step, func))


def main(argv: list[str]) -> int:
    started = time.process_time()
    from greenlint.analysis import analyse, project, trees
    from greenlint.check import cache, file_result, pipeline

    _wrap(trees, "parse_module", "parse")
    _wrap(analyse, "_compiles", "compile check")
    _wrap(project.ProjectIndex, "_summarise", SUMMARIES)
    _wrap(analyse, "_resolve", "resolver walk of the checked files")
    _wrap(file_result, "from_analysis", "predictions")
    _wrap(pipeline, "apply_rules", "rules")
    _wrap(cache.Cache, "put", "cache writes")
    _wrap(cache.Cache, "flush", "cache writes")
    from greenlint.cli import main as cli

    files = open(argv[0], encoding="utf-8").read().split()
    try:
        cli(["check", "--exit-zero", "-j", "1", *files])
    except SystemExit:
        pass
    total = time.process_time() - started
    steps = dict(sorted(TOTALS.items(), key=lambda kv: -kv[1]))
    steps["other (imports, reading, keys, output)"] = total - sum(TOTALS.values())
    print(json.dumps({"total_cpu_s": total, "steps": steps, "counts": COUNTS}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
