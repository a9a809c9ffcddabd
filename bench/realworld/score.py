"""Run greenlint on the corpora and score its findings against the labels.

Per rule: findings, judged (findings whose key has a label), true, debatable, false and
precision = 1 − false / judged (debatable findings count as judged, not as false, and are reported
apart). Default rules are scored on a run with the default selection; opt-in rules on a run with
every rule selected. Drift: labels whose finding vanished, and sampled findings with no label yet.
`greenlint calls` gives the width of the 80 % intervals of the call sites with a figure.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from .corpora import CORPORA, SUFFIXES, Corpus, ensure
from .labels import Key, Label, finding_key, line_problem, sample

SAMPLE_SIZE = 20  # findings judged per rule when it has more (issue 17: at least 15)
SEED = "greenlint-realworld-1"
GOALS = {"precision": 0.90, "gl101_share": 0.40, "wider_1000x": 0.05, "median_width": 30.0}
CHECK = ("check", "--isolated", "--no-cache", "--format", "json", "--exit-zero")
CALLS = ("calls", "--isolated", "--no-cache", "--format", "json")


def greenlint(args: tuple[str, ...], cwd: Path, cache: Path) -> Any:
    """The JSON output of the greenlint CLI (`check`: a list of findings; `calls`: docs/calls-json.md's document) run on the files of the corpus `cwd`, with `cache` as its cache
    directory (an empty one: no calibration overlay of this machine); raises when it fails. The
    corpus is checked from a temporary copy, its root marked as the repository it came from (an
    empty `.git` folder), where the analysis looks up the project's imports as in that
    repository's checkout: a project marker above the corpus (greenlint's own pyproject.toml above
    a vendored one, whose TensorFlow pin rules would read: greenlint/rules/tf_target.py; a stray
    `/tmp/pyproject.toml` above the bench cache) would otherwise make its folders import roots, and
    the same corpus would give other results elsewhere. The corpus itself is only read: a folder
    the benchmark is given (the bench cache, a kept-apart development set) is never written."""
    with tempfile.TemporaryDirectory(prefix="greenlint-corpus-") as outside:
        copy = Path(outside) / Path(cwd).name
        shutil.copytree(cwd, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        (copy / ".git").mkdir()
        return _output(args, copy, cache)


def _output(args: tuple[str, ...], cwd: Path, cache: Path) -> Any:
    """The JSON output of `python -m greenlint ARGS .` run in `cwd` (`greenlint`)."""
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-m", "greenlint", *args, "."], cwd=cwd, env=env, capture_output=True,
                          text=True)
    try:  # `calls` exits 2 when a file cannot be parsed (exercise notebooks), after listing the others
        return json.loads(proc.stdout)
    except ValueError as exc:
        raise RuntimeError(f"greenlint {' '.join(args)} in {cwd} exited {proc.returncode}: {proc.stderr[-2000:]}") from exc


def rule_defaults() -> dict[str, bool]:
    from greenlint.rules.registry import all_rules

    return {code: rule.DEFAULT_ENABLED for code, rule in all_rules().items()}


def collect(corpora: tuple[Corpus, ...] = CORPORA) -> dict:
    """Every corpus's findings (default selection for default rules, all rules for opt-in ones),
    call sites and size."""
    defaults = rule_defaults()
    collected = {"findings": [], "sites": [], "sizes": {}, "defaults": defaults}
    cache = Path(tempfile.mkdtemp(prefix="greenlint-realworld-"))
    try:
        for corpus in corpora:
            findings, sites, size = _run_corpus(corpus, defaults, cache)
            collected["findings"] += findings
            collected["sites"] += sites
            collected["sizes"][corpus.name] = size
            collected.setdefault("widths", {})[corpus.name] = widths(sites)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return collected


def _run_corpus(corpus: Corpus, defaults: dict[str, bool], cache: Path) -> tuple[list, list, dict]:
    folder = ensure(corpus)
    default_run = [f for f in greenlint(CHECK, folder, cache) if defaults.get(f["code"])]
    every_rule = greenlint((*CHECK, "--select", ",".join(sorted(defaults))), folder, cache)
    findings = [(finding_key(corpus.name, f), f)
                for f in default_run + [f for f in every_rule if defaults.get(f["code"]) is False]]
    sites = greenlint(CALLS, folder, cache)["call_sites"]
    files = [p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file()]
    return findings, sites, {"files": len(files), "call_sites": len(sites), "findings_default": len(default_run)}


def widths(sites: list[dict]) -> dict:
    """How wide the 80 % intervals of the call sites with a point figure are (upper bounds, whose
    interval starts at 0, floors of unknown data size and symbolic calls, which only build a graph
    and whose work is counted where it runs, are counted apart)."""
    symbolic = sum(1 for s in sites if s.get("basis") == "symbolic")
    figures = [s for s in sites if s.get("energy_j") is not None and s.get("basis") != "symbolic"]
    ratios = sorted(
        s["interval_j"][1] / s["interval_j"][0]
        for s in figures
        if s.get("interval_j") and s["interval_j"][0] > 0 and not s.get("floor")
    )
    floors = sum(1 for s in figures if s.get("floor"))
    bounds = sum(1 for s in figures if s.get("interval_j") and s["interval_j"][0] <= 0)
    counts = {"sites": len(sites), "bounds": bounds, "floors": floors, "symbolic": symbolic}
    if not ratios:
        return {**counts, "figured": 0}
    return {
        **counts,
        "figured": len(ratios),
        "wider_100x": round(sum(r > 100 for r in ratios) / len(ratios), 4),
        "wider_1000x": round(sum(r > 1000 for r in ratios) / len(ratios), 4),
        "median_width": round(statistics.median(ratios), 1),
    }


def score(collected: dict, labels: list[Label], second: list[Label] = ()) -> dict:
    """The results: per-rule precision, drift, interval widths, GL101's share, and a second judge's
    agreement with the labels (deterministic)."""
    by_key = {label.key: label for label in labels}
    counts = Counter(key for key, _ in collected["findings"])
    messages = {}
    for key, finding in collected["findings"]:
        messages.setdefault(key, finding["message"])
    defaults = collected["defaults"]
    rules = {}
    sampled: list[Key] = []
    for code in sorted(defaults):
        keys = [k for k in counts if k[4] == code]
        chosen = sample(keys, SAMPLE_SIZE, SEED + code)
        sampled += chosen
        verdicts = Counter()
        for key in keys:
            if key in by_key:
                verdicts[by_key[key].verdict] += counts[key]
        judged = sum(verdicts.values())
        rules[code] = {
            "default": defaults[code],
            "findings": sum(counts[k] for k in keys),
            "sampled": len(chosen),
            "judged": judged,
            "true": verdicts["true"],
            "debatable": verdicts["debatable"],
            "false": verdicts["false"],
            "precision": round(1 - verdicts["false"] / judged, 4) if judged else None,
        }
    default_findings = sum(r["findings"] for r in rules.values() if r["default"])
    gl101 = rules.get("GL101", {}).get("findings", 0)
    return {
        "command": "python -m bench.realworld run",
        "method": (
            f"greenlint check --isolated --no-cache --format json on each corpus (default rules; opt-in rules "
            f"from a run with every rule selected). Every finding of a rule with at most {SAMPLE_SIZE}, otherwise "
            f"a fixed-seed sample of {SAMPLE_SIZE} (hash of the finding's key, corpora in turn), labelled by "
            "reading the code as its owner would: true = the claim holds and the change is worth making there; "
            "debatable = deliberate (a tutorial demonstrating it, a test exercising it) or negligible; false = "
            "the claim is wrong or the change would break or defeat the program. Precision = 1 − false / judged."
        ),
        "corpora": [
            {"name": c.name, "style": c.style, "licence": c.licence, "origin": c.origin, **collected["sizes"][c.name]}
            for c in CORPORA if c.name in collected["sizes"]
        ],
        "rules": rules,
        "gl101_share": round(gl101 / default_findings, 4) if default_findings else None,
        "findings_default": default_findings,
        "calls": widths(collected["sites"]),
        "calls_by_corpus": collected.get("widths", {}),
        "goals": GOALS,
        "second_judge": second_judge(second, by_key, counts),
        "drift": {
            "vanished": [[*k, by_key[k].verdict] for k in sorted(by_key) if k not in counts],
            "unlabelled": [[*k, messages[k]] for k in sorted(sampled) if k not in by_key],
        },
    }


def second_judge(second: list[Label], first: dict[Key, Label], counts: Counter) -> dict:
    """A second blind judge's verdicts beside the labels: the agreement over the sample, and the
    precision the second judge gives the sampled findings still reported."""
    pairs = Counter(f"{first[s.key].verdict if s.key in first else 'none'}->{s.verdict}" for s in second)
    kept = [s for s in second if s.key in counts]
    verdicts = Counter(s.verdict for s in kept)
    false_by_rule = Counter(s.code for s in kept if s.verdict == "false")
    return {
        "judged": len(second),
        "pairs": dict(sorted(pairs.items())),
        "still_reported": len(kept),
        "verdicts": {v: verdicts[v] for v in ("true", "debatable", "false")},
        "precision": round(1 - verdicts["false"] / len(kept), 4) if kept else None,
        "false_by_rule": dict(sorted(false_by_rule.items())),
    }


def stale_labels(labels: list[Label]) -> list[str]:
    """Labels whose line is gone or reads differently from the label's text."""
    from .corpora import BY_NAME

    roots = {}
    bad = []
    for label in labels:
        corpus = BY_NAME.get(label.corpus)
        if corpus is None:
            bad.append(f"{label.key}: unknown corpus")
            continue
        problem = line_problem(roots.setdefault(corpus.name, ensure(corpus)), label.file, label.cell, label.line,
                               label.text)
        if problem:
            bad.append(f"{label.key}: {problem}")
    return bad
