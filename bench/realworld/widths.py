"""Issue 27's width goal on real code: how wide the 80 % intervals of the point figures are (not bounds,
not floors: `score.widths`) that `greenlint calls` gives on every research corpus (readings/) and on the
folders named, a development set kept apart from this repository. `python -m bench.realworld widths
[FOLDER ...]` writes bench/realworld/widths.json; docs/accuracy.md states the goal from it. A named
folder is only read (`score.greenlint` checks a copy of it)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from .corpora import BY_NAME, ensure
from .research import read_readings
from .score import CALLS, GOALS, greenlint, widths

RESULTS = Path(__file__).resolve().parent / "widths.json"


def collect(folders: list[Path]) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """`greenlint calls`' call sites per research corpus, and per named folder (by its name)."""
    cache = Path(tempfile.mkdtemp(prefix="greenlint-widths-"))
    try:
        research = {r.corpus: greenlint(CALLS, ensure(BY_NAME[r.corpus]), cache)["call_sites"]
                    for r in read_readings()}
        apart = {folder.name: greenlint(CALLS, folder, cache)["call_sites"] for folder in folders}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return research, apart


def measure(research: dict[str, list[dict]], apart: dict[str, list[dict]]) -> dict:
    """The widths per corpus, over the research corpora, over the named folders and over both (deterministic)."""
    def pooled(groups: dict[str, list[dict]]) -> dict:
        return widths([s for name in sorted(groups) for s in groups[name]])

    return {
        "command": "python -m bench.realworld widths " + " ".join(sorted(apart)),
        "goals": {"median_width": GOALS["median_width"], "wider_1000x": GOALS["wider_1000x"]},
        "research": {name: widths(research[name]) for name in sorted(research)},
        "apart": {name: widths(apart[name]) for name in sorted(apart)},
        "total": {"research": pooled(research), "apart": pooled(apart), "all": pooled({**research, **apart})},
    }


def summary(results: dict) -> str:
    """One line per pool: point figures, median width, share wider than 1000×."""
    lines = []
    for pool, w in results["total"].items():
        if not w.get("figured"):
            lines.append(f"{pool}: no point figure ({w['sites']} call sites)")
            continue
        lines.append(f"{pool}: {w['figured']} point figures of {w['sites']} call sites, median width "
                     f"{w['median_width']:g}×, {w['wider_1000x']:.1%} wider than 1000× (goals ≤ "
                     f"{results['goals']['median_width']:g}×, under {results['goals']['wider_1000x']:.0%})")
    return "\n".join(lines)
