"""Where a cold `greenlint check -j 1` spends its CPU time, by step (run by bench_warm.py).

    python bench/cold_breakdown.py FILE_LIST [MODULE:QUALNAME ...]

Runs the check in this process with a timer around each step's entry point. Each CPU second is
charged to the innermost step running (a project summary's parse is "parse", not "summaries"),
so the steps add up to the run; what no step covers (start-up, imports, reading files, keys) is
"other". Besides the steps, and outside their sum: each rule's CPU with what it calls (a module
it has analysed included), the garbage collector's by generation, and the CPU of each function
named on the command line (`greenlint.analysis.resolver:Resolver.passed_beside`) with what it
calls, its nested calls counted once, and the parses of a text already parsed at the same path
(`parse_again`: what shared trees could still save). Prints one JSON object: CPU seconds per step,
per rule, per collector generation and per named function, the counts of parses, summaries and calls,
and `parse_again`.
"""

from __future__ import annotations

import ast
import functools
import gc
import importlib
import json
import os
import sys
import time
from pathlib import Path

SUMMARIES = "project summaries (their own walk)"
_stack: list[list] = []  # [step, started, charged to nested steps]
TOTALS: dict[str, float] = {}
COUNTS: dict[str, int] = {}
RULES: dict[str, float] = {}  # rule code -> CPU of its checks, what they call included
GC: dict[str, float] = {}  # "gen0".. -> CPU of the collector's runs of that generation
AGAIN = {"parses": 0, "cpu_s": 0.0}  # parses of a text already parsed at the same path in this run
NAMED: dict[str, float] = {}  # MODULE:QUALNAME -> CPU of its outermost calls, what they call included
_collecting: list[float] = []


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
    if func is None:  # a step the code no longer has is simply absent from the table
        return
    timed = _timed(step, func)
    setattr(owner, name, timed)
    _replace_copies(name, func, timed)


def _replace_copies(name: str, func, timed) -> None:
    """`from module import name` in a module of greenlint copied *func*: the copy is timed too."""
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("greenlint") and getattr(module, name, None) is func:
            setattr(module, name, timed)


def _inclusive(totals: dict[str, float], key: str, func):
    """*func* timed into totals[key] with what it calls; a call nested in another is not counted again."""
    depth = [0]

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        depth[0] += 1
        started = time.process_time()
        try:
            return func(*args, **kwargs)
        finally:
            depth[0] -= 1
            if not depth[0]:
                totals[key] = totals.get(key, 0.0) + time.process_time() - started
                COUNTS[key] = COUNTS.get(key, 0) + 1

    return wrapper


def _named(spec: str) -> None:
    """Time the function *spec* (`module:Qual.name`) wherever a module of greenlint holds it."""
    module_name, _, qualname = spec.partition(":")
    *path, name = qualname.split(".")
    owner = importlib.import_module(module_name)
    for part in path:
        owner = getattr(owner, part)
    func = getattr(owner, name)
    timed = _inclusive(NAMED, spec, func)
    setattr(owner, name, timed)
    _replace_copies(name, func, timed)


def _count_repeats() -> None:
    """Count the parses (`ast.parse`) of a text already parsed at the same path in this run, and
    their CPU (`AGAIN`): the work that sharing trees (`trees.parse_module`) could still save.
    A parse whose tree the check of the same file reuses (a script read beside a module, then
    checked) is a first parse wherever it is asked."""
    parse, seen = ast.parse, set()

    @functools.wraps(parse)
    def counted(source, filename="<unknown>", *args, **kwargs):
        key = (os.path.abspath(filename), hash(source))
        if key not in seen:
            seen.add(key)
            return parse(source, filename, *args, **kwargs)
        started = time.process_time()
        try:
            return parse(source, filename, *args, **kwargs)
        finally:
            AGAIN["parses"] += 1
            AGAIN["cpu_s"] += time.process_time() - started

    ast.parse = counted


def _collector(phase: str, info: dict) -> None:
    if phase == "start":
        _collecting.append(time.process_time())
    elif _collecting:
        key = f"gen{info['generation']}"
        GC[key] = GC.get(key, 0.0) + time.process_time() - _collecting.pop()


def _rules_timed(codes) -> None:
    """Each rule's `check` timed, its findings drawn inside the timer (a check is a generator)."""
    rule_class = codes.rule_class

    @functools.cache
    def timed_class(code: str):
        cls = rule_class(code)
        check = _inclusive(RULES, code, lambda self, facts, options: list(cls.check(self, facts, options)))
        return type(cls.__name__, (cls,), {"check": check})

    codes.rule_class = timed_class


def main(argv: list[str]) -> int:
    started = time.process_time()
    from greenlint.analysis import analyse, project, trees
    from greenlint.check import cache, file_result, pipeline, runner  # noqa: F401 (runner: its copy of from_analysis)
    from greenlint.rules import codes

    _wrap(trees, "parse_module", "parse")
    _wrap(analyse, "_compiles", "compile check")
    _wrap(project.ProjectIndex, "_summarise", SUMMARIES)
    _wrap(analyse, "_resolve", "resolver walk of the checked files")
    _wrap(file_result, "from_analysis", "predictions")
    _wrap(pipeline, "apply_rules", "rules")
    _wrap(cache.Cache, "put", "cache writes")
    _wrap(cache.Cache, "flush", "cache writes")
    _rules_timed(codes)
    _count_repeats()
    for spec in argv[1:]:
        _named(spec)
    gc.callbacks.append(_collector)
    from greenlint.cli import main as cli

    files = open(argv[0], encoding="utf-8").read().split()
    try:
        cli(["check", "--exit-zero", "-j", "1", *files])
    except SystemExit:
        pass
    gc.callbacks.remove(_collector)
    total = time.process_time() - started
    steps = dict(sorted(TOTALS.items(), key=lambda kv: -kv[1]))
    steps["other (imports, reading, keys, output)"] = total - sum(TOTALS.values())
    print(
        json.dumps(
            {
                "total_cpu_s": total,
                "steps": steps,
                "counts": COUNTS,
                "rules": dict(sorted(RULES.items(), key=lambda kv: -kv[1])),
                "gc": GC,
                "named": NAMED,
                "parse_again": AGAIN,
            }
        ),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    # the greenlint of this script's tree (an exported commit's too) with its own data/: run as a
    # script, Python puts bench/ first on sys.path, and `greenlint` would be the editable install's
    ROOT = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("GREENLINT_DATA_DIR", str(ROOT / "data"))
    sys.exit(main(sys.argv[1:]))
