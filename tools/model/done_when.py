"""Issue 27's "Done when", item by item with its figure, met or missed (a section of docs/accuracy.md).

The figures are those the report's other sections compute (passed in, never computed twice) and the
committed results of two commands that run greenlint on programs: the CPU-timed suite's
(bench/timed/results.json, `python -m bench.timed compare`) and the widths on real code
(bench/realworld/widths.json, `python -m bench.realworld widths`). An item measured on programs kept
apart from this repository is "not measurable here": it is listed, never counted as met.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tools import REPO_DIR
from tools.model.physics import Goal

TIMED = REPO_DIR / "bench" / "timed" / "results.json"
WIDTHS = REPO_DIR / "bench" / "realworld" / "widths.json"
#: The physics goals (tools/model/physics.py, by name) that are items of the list.
UNSEEN_FLOPS = "an unseen layer's call, FLOPs ×100"
FUNCTIONAL = "a small CNN written functionally"
EPOCHS = "epochs ×10"


@dataclass(frozen=True)
class Item:
    goal: str
    figure: str
    met: bool | None  # None: not measurable here


def _verdict(met: bool | None) -> str:
    return "not measurable here" if met is None else "met" if met else "**missed**"


def _read(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def timed_items(results: dict | None) -> list[Item]:
    """The 16 scripts kept apart and the suite of bench/timed, after `calibrate --quick`."""
    apart = Item("the 16 timed scripts of the issue, after `calibrate --quick`: every one within 3×, median within "
                 "1.4×, ≥ 60 % inside their 80 % interval", "kept apart from this repository", None)
    summary = ((results or {}).get("compare") or {}).get("calibrated", {}).get("summary")
    if not summary:
        return [apart, Item("the suite of bench/timed, after `calibrate --quick`", "not compared yet", None)]
    worst, median, inside, n = (summary[k] for k in ("worst_factor", "median_factor", "inside", "scripts"))
    return [apart, Item(
        "the suite of bench/timed (section below), after `calibrate --quick`: every one within 3×, median within "
        "1.4×, ≥ 60 % inside", f"{n} scripts: worst {worst:.2f}×, median {median:.2f}×, {inside:.0%} inside",
        worst <= 3.0 and median <= 1.4 and inside >= 0.6)]


def physics_items(goals: list[Goal]) -> list[Item]:
    """The unseen API, the functional model and the epochs of a fit (Physics goals' figures)."""
    def find(prefix: str) -> Goal:
        return next(g for g in goals if g.name.startswith(prefix))

    unseen, functional, epochs = find(UNSEEN_FLOPS), find(FUNCTIONAL), find(EPOCHS)
    return [
        Item("an unseen API given its work: ×100 the FLOPs → ≥ ×10 the joules", f"{unseen.figure:.3g}×", unseen.met),
        Item("a functional model's symbolic calls cost nothing at their lines (basis `symbolic`, 0 J): the same CNN "
             "written functionally / its Sequential twin, whole program", f"{functional.figure:.3g}×", functional.met),
        Item("×10 the epochs of a multi-second `fit` is ×8–×12 in `greenlint diff` (the figure: the predictor's; "
             "tests/review/test_diff.py asserts 8–12 on a `greenlint diff` of a git history, epochs 10 → 100)",
             f"{epochs.figure:.3g}×", epochs.met),
    ]


def held_items(rho: float | None, mdale: float | None, ahead: tuple[int, int], rho_goal: float,
               mdale_goal: float) -> list[Item]:
    """TensorFlow's tutorials held out: ahead of the per-API lookup, no worse than on 2026-11-25."""
    return [
        Item("on TensorFlow's tutorials held out, at least as good as the per-API lookup on every measure",
             f"{ahead[0]} of {ahead[1]}", ahead[0] == ahead[1]),
        Item(f"... call sites ρ ≥ {rho_goal} (bounds read as points, as on 2026-11-25)",
             "n/a" if rho is None else f"{rho:.2f}", None if rho is None else rho >= rho_goal),
        Item(f"... MdALE ≤ {mdale_goal}", "n/a" if mdale is None else f"{mdale:.2f}",
             None if mdale is None else mdale <= mdale_goal),
        Item("the CPU-timed `fit`s kept apart from this repository stay within 4×", "kept apart from this repository",
             None),
    ]


def gaissa_items(device: tuple[int, int, float] | None) -> list[Item]:
    """GAISSA's recorded runs, the GPU told (the section on a told GPU): (within, of, RMSE factor)."""
    if device is None:
        return [Item("on GAISSA's recorded runs, the GPU told: every architecture within 2×, and an RMSE ≥ 1.5× better "
                     "than Green Algorithms and MLCO2", "not evaluated in this report", None)]
    within, architectures, rmse_factor = device
    return [
        Item("on GAISSA's recorded runs, the GPU told: every architecture within 2×",
             f"{within} of {architectures}", within == architectures),
        Item("greenlint's own `fit` figure ≥ 1.5× better in RMSE than Green Algorithms and MLCO2 given the same "
             "inputs (nothing is fitted on these runs: leaving an architecture out changes no figure)",
             f"{rmse_factor:.2f}×", rmse_factor >= 1.5),
    ]


def widths_items(results: dict | None) -> list[Item]:
    """Point figures' widths on real code: the research corpora and the development set kept apart."""
    total = ((results or {}).get("total") or {}).get("all") or {}
    if results is None or not total.get("figured"):
        return [Item("on real code, point figures: median 80 % interval ≤ 30×, < 5 % wider than 1000×",
                     "not measured yet (`python -m bench.realworld widths`)", None)]
    apart = ", ".join(sorted(results["apart"])) or "none"
    unknown = total["sites"] - total["figured"] - total["bounds"] - total["floors"] - total["symbolic"]
    where = (f"{total['figured']} point figures of {total['sites']} call sites, the rest {total['bounds']} upper "
             f"bounds, {total['floors']} floors, {total['symbolic']} symbolic and {unknown} without a figure: "
             f"{len(results['research'])} research corpora and the development set kept apart ({apart}), "
             f"`{results['command']}`")
    goals = results["goals"]
    return [
        Item(f"on real code, point figures' median 80 % interval ≤ {goals['median_width']:g}× ({where})",
             f"{total['median_width']:g}×", total["median_width"] <= goals["median_width"]),
        Item(f"... < {goals['wider_1000x']:.0%} wider than 1000×", f"{total['wider_1000x']:.1%}",
             total["wider_1000x"] < goals["wider_1000x"]),
    ]


def section(items: list[Item]) -> list[str]:
    met = sum(i.met is True for i in items)
    apart = sum(i.met is None for i in items)
    return [
        "## Issue 27: Done when",
        "",
        f"Each item of issue 27's list with its figure: {met} of {len(items)} met, {apart} not measurable here "
        "(programs kept apart from this repository, or results not written yet).",
        "",
        "| item | figure | |",
        "|---|---|---|",
        *(f"| {i.goal} | {i.figure} | {_verdict(i.met)} |" for i in items),
        "",
    ]


def items(goals: list[Goal], held: tuple, device: tuple[int, int, float] | None) -> list[Item]:
    """Every item: *held* is (ρ, MdALE, (ahead, of), ρ goal, MdALE goal), *device* (within, of, RMSE factor)."""
    return [*timed_items(_read(TIMED)), *physics_items(goals), *held_items(*held), *gaissa_items(device),
            *widths_items(_read(WIDTHS))]
