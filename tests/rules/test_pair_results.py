"""bench/rules/run.py keeps every pair's results when several runs write at once."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

from bench.rules import run


def _record(args: tuple[str, str]) -> None:
    results, code = args
    run.RESULTS = run.Path(results)
    run.record(code, {"energy_saving": {"median": 0.5}})


def test_runs_of_different_pairs_at_once_keep_each_others_results(tmp_path):
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"pairs": {"GL000": {"kept": True}}}))
    codes = [f"GL9{i:02d}" for i in range(16)]
    with ProcessPoolExecutor(4) as pool:
        list(pool.map(_record, [(str(results), code) for code in codes]))
    pairs = json.loads(results.read_text())["pairs"]
    assert sorted(pairs) == ["GL000", *codes]
