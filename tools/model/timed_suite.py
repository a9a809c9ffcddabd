"""The CPU-timed suite's section of docs/accuracy.md (bench/timed), rendered from its committed results
file alone: `python -m bench.timed doc` rewrites the section, `python -m tools.model.evaluate` the whole
report with it."""

from __future__ import annotations

import json
from pathlib import Path

from tools import REPO_DIR

RESULTS = REPO_DIR / "bench" / "timed" / "results.json"
#: Issue 27's goals for the suite: every script within 3x, the median factor off within 1.4x, and
#: at least 60 % of the measurements inside the summed 80 % interval.
GOALS = {"worst_factor": 3.0, "median_factor": 1.4, "inside": 0.60}

BEGIN = "<!-- timed suite: generated from bench/timed/results.json by `python -m bench.timed doc` -->"
END = "<!-- end of the timed suite -->"


def _x(v) -> str:
    return "n/a" if v is None else f"{v:.2f}×" if v < 100 else f"{v:,.0f}×"


def _j(v) -> str:
    return f"{v:.3g}"


def _goal_rows(summary: dict) -> list[str]:
    def met(ok) -> str:
        return "not measurable" if ok is None else "met" if ok else "**missed**"

    worst, median, inside = summary["worst_factor"], summary["median_factor"], summary["inside"]
    n = summary["scripts"]
    return [
        "| goal | figure | |",
        "|---|---|---|",
        f"| every script within {GOALS['worst_factor']:g}× | worst {_x(worst)} ({summary['within_3x']} of {n} within) "
        f"| {met(None if n == 0 else worst is not None and worst <= GOALS['worst_factor'])} |",
        f"| median factor off within {GOALS['median_factor']:g}× | {_x(median)} (median predicted / measured "
        f"{_x(summary['median_ratio'])}) | {met(None if median is None else median <= GOALS['median_factor'])} |",
        f"| ≥ {100 * GOALS['inside']:.0f} % inside the 80 % interval | {100 * (inside or 0):.0f} % "
        f"| {met(None if inside is None else inside >= GOALS['inside'])} |",
    ]


def _script_rows(cmp: dict) -> list[str]:
    lines = ["| script | measured J | predicted J | 80 % interval J | predicted / measured | inside | sites "
             "(unpriced, runs unknown) |", "|---|---|---|---|---|---|---|"]
    for name, r in cmp["scripts"].items():
        low, high = r["interval_j"]
        lines.append(f"| {name} | {_j(r['measured_j'])} | {_j(r['predicted_j'])} | {_j(low)} – {_j(high)} | "
                     f"{_x(r['ratio'])} | {'yes' if r['inside'] else 'no'} | {r['sites']} ({r['unpriced']}, "
                     f"{r['runs_unknown']}) |")
    return lines


def _pct(v: float) -> str:
    return f"{100 * v:.0f} %"


def loads_note(results: dict) -> str:
    """How loaded the machine was while the scripts were timed (their runs' 1-minute load averages)."""
    runs = [s.get("load") for s in results["scripts"].values()]
    loads = [x for r in runs if r for pair in r for x in pair if x is not None]
    if not loads:
        return "The machine's load was not recorded with these timings."
    n, told = len(runs), sum(1 for r in runs if r)
    which = "" if told == n else f" ({told} of {n} scripts' runs recorded it)"
    return (f"The machine's 1-minute load average while they ran: {min(loads):.2f}–{max(loads):.2f} on "
            f"{results['machine']['logical_cores']} logical cores{which}.")


def protocol_note(results: dict, cmp: dict) -> str:
    """Whether the timings and the calibration were made in one run (one load) or not."""
    spreads = sorted(s["spread"] for s in results["scripts"].values() if s.get("spread") is not None)
    spread = (f" A script's repeated timings differ by {_pct(spreads[len(spreads) // 2])} at the median and "
              f"{_pct(spreads[-1])} at most ((max − min) / median)." if spreads else "")
    between = results.get("between")
    if cmp.get("same_run") and between:
        lo, hi = between.get("load") or (None, None)
        at = f", at load average {lo}–{hi}" if lo is not None else ""
        return (f"Timed and calibrated in one run (`python -m bench.timed compare --retime`): `{between['calibrate']}` "
                f"ran between timing passes {between['after_pass']} and {between['after_pass'] + 1}{at}, so the "
                f"measurements and the calibration share the machine's load.{spread}")
    cal = cmp.get("calibration") or {}
    made = cal.get("finished_at") or cmp["date"]
    return (f"The calibration (finished {made}{_calibration_load(cal.get('load'))}) was not made in the timings' "
            f"run ({results['date']}): the two may have been made under different loads (`compare --retime` "
            f"makes both in one run), and the CPU seconds a TensorFlow process spends on the same work change "
            f"with the machine's load, so every calibrated figure moves with the calibration's.{spread}")


def _calibration_load(load: dict | None) -> str:
    """", measured at load average 7.14 (other processes kept 1.71 of 2 cores busy)": the medians over the
    calibration's windows (`compare.overlay_summary`); "" where the overlay recorded none."""
    if not load or load.get("loadavg_1m") is None:
        return ""
    others = load.get("others_busy_cores")
    busy = (f" (other processes kept {others:.2f} of {load['cores']} cores busy)"
            if others is not None and load.get("cores") else "")
    return f", measured at load average {load['loadavg_1m']:.2f}{busy}"


def calibrated_title(cal: dict) -> str:
    """The heading of the calibrated comparison: which calibrate run, into which cache, from which source."""
    source = (cal.get("basis") or "").removeprefix("calibrated-") or "unknown"
    if cal.get("cache_given"):
        return f"After a `greenlint calibrate --{cal['mode']}` made before (`--calibrated-cache`, {source} source)"
    return f"After `greenlint calibrate --{cal['mode']}` (into a fresh cache, {source} source)"


def section(results: dict, level: int = 2) -> list[str]:
    """The markdown lines of the section (between BEGIN and END)."""
    h = "#" * level
    power, m = results["power"], results["machine"]
    spreads = [s["spread"] for s in results["scripts"].values() if s["spread"] is not None]
    cpu = [s["median_cpu_s"] for s in results["scripts"].values()]
    lines = [
        f"{h} The CPU-timed suite (bench/timed)",
        "",
        f"{len(results['scripts'])} small TF/Keras scripts of different kinds (`bench/timed/scripts`), each run "
        f"{results['repeats']} times in a fresh interpreter with TensorFlow {results['tensorflow']} (Keras "
        f"{results['keras']}) on {m['cpu']} ({m['logical_cores']} logical cores, {m['system']}), "
        f"{results['date']}. Measured: the CPU time of the script's process after its imports (all threads), "
        f"median of the repeats ({min(cpu):.1f}–{max(cpu):.1f} s; repeat spread (max − min) / median at most "
        f"{100 * max(spreads):.0f} %), in joules at greenlint's estimated source's power model "
        f"({power['model']}: {power['w_per_core']:g} W per CPU second). Predicted: `greenlint calls --format "
        "json` on each script, every call site's `energy_j` × its runs (`runs.count`, else the literal-loop "
        "factor) summed; the interval ends summed likewise, wider than the 80 % interval of the sum, so "
        "\"inside\" is generous. A site with no figure adds nothing (\"unpriced\"). "
        "`python -m bench.timed run` times the scripts, `python -m bench.timed compare` predicts and "
        f"compares. {loads_note(results)}",
        "",
    ]
    cmp = results.get("compare")
    if not cmp:
        return lines + ["Not compared yet (`python -m bench.timed compare`)."]
    for key in ("uncalibrated", "calibrated"):
        if key not in cmp:
            continue
        cal = cmp.get("calibration") if key == "calibrated" else None
        title = calibrated_title(cal) if cal else "Without calibration (a fresh cache)"
        note = (f" Overlay {cal['hardware_id']} ({cal['mode']}, {cal['basis']}, finished {cal['finished_at']})."
                if cal else "")
        how = f" {protocol_note(results, cmp)}" if cal else ""
        lines += [f"{h}# {title}", "", f"greenlint {cmp['greenlint']} at commit {cmp['commit']}, {cmp['date']}.{note}"
                  f"{how} Goals of issue 27:", "",
                  *_goal_rows(cmp[key]["summary"]), "", *_script_rows(cmp[key]), ""]
    return lines[:-1]


def block(results: dict) -> str:
    """The section between its markers."""
    return BEGIN + "\n\n" + "\n".join(section(results)) + "\n\n" + END


def rendered(path: Path = RESULTS) -> str:
    """The block and a newline, from the results file at *path* ("" when there is none)."""
    return block(json.loads(path.read_text(encoding="utf-8"))) + "\n" if path.is_file() else ""


def replace_section(text: str, results: dict) -> str:
    """*text* (docs/accuracy.md) with the block replaced, or appended (as `render` places it)."""
    body = block(results)
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        return head + body + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n" + body + "\n"
