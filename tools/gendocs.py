"""Write the rule documentation: `python -m tools.gendocs [--check]`.

It writes greenlint/rules/measured.json (each rule's measured saving from bench/rules/ and its
precision on real code from bench/realworld/precision.json: the table the installed package
quotes), then docs/rules/: one page per rule as `greenlint rule CODE` prints it
(greenlint.rules.docs) and the index with the savings, precision and configuration tables.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path

from greenlint.atomic import atomic_write_text
from greenlint.rules.base import Rule
from greenlint.rules.docs import (
    BANNER,
    MEASURED,
    predicted_j,
    predicted_saving,
    reference_predictor,
    render,
    share,
    signed_percent,
    verdict,
)
from greenlint.rules.registry import all_rules
from greenlint.units import fmt_j
from tools.pair_prediction import run_prediction

REPO_DIR = Path(__file__).resolve().parents[1]
DOCS_DIR = REPO_DIR / "docs" / "rules"
BENCH_DIR = REPO_DIR / "bench" / "rules"
REALWORLD_RESULTS = REPO_DIR / "bench" / "realworld" / "precision.json"
#: What a page quotes of a measured pair (bench/rules/results.json holds more: each run's figures).
PAIR_FIELDS = ("energy_saving", "time_saving", "energy_j", "predicted", "hardware", "basis", "components",
               "repeats", "command")
RULE_PRECISION_FIELDS = ("findings", "judged", "true", "debatable", "false", "precision")


def load_savings(directory: Path = BENCH_DIR) -> tuple[dict, dict]:
    """(measured pairs by code, reasons a rule's saving is not measurable) from bench/rules/."""

    def read(name: str) -> dict:
        path = directory / name
        return json.loads(path.read_text()) if path.is_file() else {}

    return read("results.json").get("pairs", {}), read("not_measurable.json")


def load_precision(path: Path = REALWORLD_RESULTS) -> dict:
    """The real-world precision benchmark's results (bench/realworld/precision.json), or {}."""

    return json.loads(path.read_text()) if path.is_file() else {}


def resolver_section(directory: Path = BENCH_DIR) -> list[str]:
    """Held-out call-site recall and API match (bench/rules/resolver.json), beside issue 12's goals."""

    path = directory / "resolver.json"
    if not path.is_file():
        return []
    r = json.loads(path.read_text())

    def met(name: str) -> str:
        return "met" if r[name] >= r["goals"][name] else "**missed**"

    return [
        "## Call sites the resolver finds",
        "",
        f"On the {r['sites']} call sites Greenlight measured in TensorFlow's tutorials (tensorflow/docs at the "
        "measured commit; each record names the script, line and API measured), by `" + r["command"] + "`: "
        "**recall** is the share of measured call sites where the resolver reports a TF call on that line, "
        "**API match** the share where one of those calls has the measured API (the data names a call of "
        "an instance held in a name by its class, `tensorflow.keras.Model` for `model(x)`: that matches "
        "a resolved `tensorflow.keras.Model.__call__`). A notebook's measured line "
        "counts its code cells' lines (each cell split at newlines) without comment-only and `!`/`%` "
        "lines, a reconstruction of Greenlight's conversion (the misses left are the resolver's: calls "
        "it does not resolve, or names the data gives differently, not lines out of step).",
        "",
        "| measure | value | goal | |",
        "|---|---|---|---|",
        f"| recall | {r['recall']:.3f} ({r['found']}/{r['sites']}) | ≥ {r['goals']['recall']} | {met('recall')} |",
        f"| API match | {r['api_match']:.3f} ({r['matched']}/{r['sites']}) | ≥ {r['goals']['api_match']} | "
        f"{met('api_match')} |",
        "",
    ]


def realworld_section(precision: dict, level: int = 2) -> list[str]:
    """Per-rule precision on the real-world benchmark and the width of its call sites' intervals."""
    if not precision:
        return []
    goals, calls, gl101 = precision["goals"], precision["calls"], precision["gl101_share"]
    rows = [
        "#" * level + " Precision on real code",
        "",
        f"By `{precision['command']}` on {len(precision['corpora'])} pinned public corpora (" +
        ", ".join(c["name"] for c in precision["corpora"]) + "; [docs/realworld.md](" +
        ("../realworld.md" if level == 2 else "realworld.md") + ")). " + precision["method"],
        "",
        f"| rule | default | findings | judged | true | debatable | false | precision | goal ≥ {goals['precision']:.0%} |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for code, r in precision["rules"].items():
        if not r["findings"] and not r["judged"]:
            continue
        judged = ("–" if r["precision"] is None else verdict(r["precision"] >= goals["precision"])) if r["default"] else "opt-in"
        link = f"[{code}]({code}.md)" if level == 2 else f"[{code}](rules/{code}.md)"
        rows.append(f"| {link} | {'yes' if r['default'] else 'no'} | {r['findings']} | {r['judged']} | {r['true']} | "
                    f"{r['debatable']} | {r['false']} | {share(r['precision'])} | {judged} |")
    silent = [c for c, r in precision["rules"].items() if not r["findings"]]
    rows += ["", f"No finding on these corpora: {', '.join(silent) or 'none'}.", ""]
    rows += second_judge_section(precision.get("second_judge") or {}, goals)
    if calls.get("figured"):
        rows += [
            "| measure | value | goal | |",
            "|---|---|---|---|",
            f"| GL101's share of the default findings | {share(gl101)} ({precision['rules'].get('GL101', {}).get('findings', 0)}"
            f" of {precision['findings_default']}) | ≤ {goals['gl101_share']:.0%} | "
            f"{verdict(gl101 is not None and gl101 <= goals['gl101_share'])} |",
            f"| call sites with a point figure whose 80 % interval is wider than 100× | {share(calls['wider_100x'])} "
            f"(of {calls['figured']}) | | |",
            f"| ... wider than 1000× | {share(calls['wider_1000x'])} | < {goals['wider_1000x']:.0%} | "
            f"{verdict(calls['wider_1000x'] < goals['wider_1000x'])} |",
            f"| median width (high / low) | {calls['median_width']:g}× | ≤ {goals['median_width']:g}× | "
            f"{verdict(calls['median_width'] <= goals['median_width'])} |",
            f"| upper bounds (`bounded`, `negligible`: at most the figure) | {calls.get('bounds', 0)} | | |",
            f"| floors (data size or FLOPs unknown: at least the figure, up to a stated most) | {calls.get('floors', 0)} | | |",
            f"| symbolic (only build a graph: 0 J at their line, counted where the graph runs; neither a point nor a "
            f"bound) | {calls.get('symbolic', 0)} | | |",
            "",
        ]
    rows += corpus_widths(precision.get("calls_by_corpus") or {}, goals)
    return rows


def second_judge_section(second: dict, goals: dict) -> list[str]:
    """How a second blind judge's verdicts on a sample of labelled findings compare with the labels."""
    if not second.get("judged"):
        return []
    pairs = ", ".join(f"{pair.replace('->', ' → ')} {n}" for pair, n in second["pairs"].items())
    v, precision = second["verdicts"], second["precision"]
    met = verdict(precision is not None and precision >= goals["precision"])
    falses = ", ".join(f"{code} {n}" for code, n in second["false_by_rule"].items()) or "none"
    return [
        f"A second blind judge, who saw neither the labels nor the rules, re-judged {second['judged']} labelled default "
        "findings (`bench/realworld/second_judge.csv`: up to 3 per rule, a fixed-seed sample) with the same "
        f"definitions. Labels → second verdicts: {pairs}. Of the {second['still_reported']} still reported: "
        f"{v['true']} true, {v['debatable']} debatable, {v['false']} false, precision {share(precision)} "
        f"(goal ≥ {goals['precision']:.0%}: {met}); false by rule: {falses}. The table above counts the first "
        "judge's labels.",
        "",
    ]


def corpus_widths(by_corpus: dict, goals: dict) -> list[str]:
    """The width measures of `greenlint calls` per corpus (point figures only: bounds, floors and
    symbolic calls counted apart), each against the goals of the whole benchmark."""
    if not by_corpus:
        return []
    rows = [
        "Per corpus (`greenlint calls` on each; the goals are the whole benchmark's):",
        "",
        "| corpus | call sites | point figures | median width | wider than 100× | wider than 1000× | upper bounds "
        "| floors | symbolic |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, w in by_corpus.items():
        if w.get("figured"):
            median = f"{w['median_width']:g}×" + ("" if w["median_width"] <= goals["median_width"] else " (over the goal)")
            figures = f"{median} | {w['wider_100x']:.1%} | {w['wider_1000x']:.1%}"
        else:
            figures = "– | – | –"
        rows.append(f"| {name} | {w['sites']} | {w.get('figured', 0)} | {figures} | {w.get('bounds', 0)} | "
                    f"{w.get('floors', 0)} | {w.get('symbolic', 0)} |")
    return rows + [""]


def savings_table(rules: dict[str, type[Rule]], pairs: dict, reasons: dict) -> list[str]:
    rows = [
        "## Measured savings",
        "",
        "Each rule's before/after pair of small programs under `bench/rules/<CODE>/`, run by",
        "`python bench/rules/run.py` (fresh interpreter per program, one warm-up, then timed runs of its",
        "`run()` read from greenlint's meter). Saving = 1 − median(after) / median(before). A pair whose",
        "command names `--rounds` ran its two sides side by side in that many rounds, alternating which went",
        "first; its spread is the lowest and highest of the rounds' own savings. Older pairs ran one side",
        "after the other; their spread pairs the extreme runs. This machine has no readable energy counter,",
        "so every joule figure here is **estimated** (process CPU time × a power model), not measured. The",
        "predictor columns are",
        "greenlint's static figure for the same work, one `run()` of each program (the call sites inside",
        "`run`, times their loops; \"unknown\" where one has no figure or an unknown loop count), on the",
        "reference machine of the public data, uncalibrated: compare its saving with the measured one,",
        "not its joules. No GPU was available to this work, so no saving on a GPU is stated; rules about",
        "accelerators say so. A rule is on by default only where its pair's spread lies above 0 here, or",
        "where it cannot be measured here (the reason stands in the table); a rule whose pair shows no",
        "saving here is opt-in, and its page says why.",
        "",
        "| rule | energy saving (spread) | time saving | before → after per run | predicted per run, before → after | predicted saving | hardware | basis |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for code in rules:
        pair = pairs.get(code)
        if pair is None:
            if code in reasons:
                rows.append(f"| [{code}]({code}.md) | not measurable | – | – | – | – | – | {reasons[code]} |")
            continue
        e, t, energy, predicted = pair["energy_saving"], pair["time_saving"], pair["energy_j"], pair["predicted"]
        rows.append(
            f"| [{code}]({code}.md) | {signed_percent(e['median'])} ({signed_percent(e['low'])} to {signed_percent(e['high'])}) | "
            f"{signed_percent(t['median'])} | {fmt_j(energy['before']['median'])} → {fmt_j(energy['after']['median'])} | "
            f"{predicted_j(predicted['before'])} → {predicted_j(predicted['after'])} | {predicted_saving(predicted)} | "
            f"`{pair['hardware']}` | {pair['basis']} |"
        )
    return rows + [""]


def index(rules: dict[str, type[Rule]], savings: tuple[dict, dict] | None = None, precision=None) -> str:
    """The rule list, the measured savings, and every `[tool.greenlint]` key."""
    from greenlint.check.config import SETTINGS

    rows = [BANNER, "", "# greenlint rules", "", "| code | name | fix | what it does |", "|---|---|---|---|"]
    rows += [
        f"| [{c}]({c}.md) | `{r.name}` | {r.fix_availability()} | {r.summary()}"
        f"{'' if r.DEFAULT_ENABLED else ' (off by default)'} |"
        for c, r in rules.items()
    ]
    rows += [
        "",
        "## Fixes",
        "",
        "A rule's fix is a LibCST codemod (`greenlint/fix/codemods.py`) run on the call it flags; the edits",
        "travel on the finding (`fix` in the JSON and SARIF output) and one engine (`greenlint/fix/engine.py`)",
        "applies them everywhere:",
        "",
        "- `greenlint check --fix PATH` applies the **safe** fixes and writes each changed file aside, then",
        "  renames it over the original (permissions kept); `--unsafe-fixes` adds the unsafe ones;",
        "- `greenlint check --diff PATH` prints the same change as a unified diff of the source and writes nothing",
        "  (exit 1 when there is something to fix; not to be confused with `greenlint diff`, the energy of a",
        "  change between git revisions); `--show-fixes` lists each fix applied (or, without `--fix`, available);",
        "- in the editor, each finding with a fix offers it as a quick fix, and `source.fixAll.greenlint`",
        "  (\"fix all on save\") applies every safe fix of the file.",
        "",
        "**Safe** means the program computes the same results: only its speed, memory or log output can",
        "change (each rule's Fix safety section says what may differ). **Unsafe** fixes change behaviour a",
        "user may rely on (eager execution, numeric checks that raise, checkpoint frequency, XLA); switches",
        "that only write logs (placement logging, debug dumps, progress bars, TensorBoard summaries) are",
        "safe to turn off. Fixes are applied until none applies, so fixing twice changes nothing; a result",
        "that would not parse is never written. Notebooks",
        "are not rewritten by `--fix` (each is reported as skipped, with the reason); in the editor their cells",
        "get quick fixes (fix-all works on files).",
    ]
    rows += ["", *savings_table(rules, *(load_savings() if savings is None else savings))]
    rows += realworld_section(load_precision() if precision is None else precision)
    rows += resolver_section()
    rows += [
        "## Configuration",
        "",
        "`greenlint check` reads `[tool.greenlint]` from the nearest `pyproject.toml` that has one, at or",
        "above the first path checked (`--config FILE` names one, `--isolated` ignores them); command-line",
        "flags override it. Unknown keys are an error naming the file and the key.",
        "",
        "| key | meaning |",
        "|---|---|",
    ]
    rows += [f"| `{key}` | {help} |" for key, help in SETTINGS.items()]
    rows += [
        f"| `{o.key}` | {o.help} Default `{o.default}`; see [{c}]({c}.md). |"
        for c, r in rules.items()
        for o in r.OPTIONS
    ]
    rows += [
        "",
        "Suppress a finding with `# noqa: GL101` (or a bare `# noqa`) on its line, or a whole file with",
        "a line `# greenlint: noqa` (optionally `# greenlint: noqa: GL101`).",
        "",
        "## Exit codes and cache",
        "",
        "`greenlint check` exits 0 when there is nothing to report, 1 when there are findings (0 with",
        "`--exit-zero`), and 2 when it could not run (bad configuration, a path that does not exist).",
        "A file it cannot analyse is a GL001/GL002 finding, not a failure of the run, reported whatever",
        "the selection.",
        "",
        "Each file's analysis (call sites and predictions) and its diagnostics under the current rule",
        "settings are cached under the user cache directory (`cache-dir`, `--cache-dir`,",
        "`GREENLINT_CACHE_DIR`), keyed by the file's path and content, the content of the project",
        "modules it imports, greenlint's version and sources, and the bundled data (catalog, KB, model)",
        "and calibration overlay. Entries are written aside then renamed, and carry a checksum; an",
        "entry that is unreadable, over 64 MiB, fails its checksum or does not have the shape and",
        "field types of greenlint's records is a miss. Entries are data only (JSON naming nothing but",
        "greenlint's own record classes), so reading one never runs code. A project's `cache-dir` must",
        "lie in a folder below its pyproject.toml or in the user cache; `--cache-dir` and",
        "`GREENLINT_CACHE_DIR` may point anywhere. `--no-cache` neither reads nor writes it.",
        "",
        "## pre-commit",
        "",
        "```yaml",
        "repos:",
        "  - repo: <greenlint repository URL>",
        "    rev: <tag>",
        "    hooks:",
        "      - id: greenlint",
        "```",
        "",
        "The hook runs `greenlint check --force-exclude` on staged `.py`, `.pyi` and `.ipynb` files.",
    ]
    return "\n".join(rows) + "\n"


def measured_table(savings: tuple[dict, dict], precision: dict) -> dict:
    """The table the installed package quotes (greenlint.rules.docs.measured): each rule's measured
    saving, or why it is not measurable, and its precision on real code."""
    pairs, reasons = savings
    return {
        "pairs": {code: {k: pair[k] for k in PAIR_FIELDS if k in pair} for code, pair in sorted(pairs.items())},
        "reasons": dict(sorted(reasons.items())),
        "precision": {
            "corpora": len(precision.get("corpora", [])),
            "goal": precision.get("goals", {}).get("precision"),
            "rules": {code: {k: r[k] for k in RULE_PRECISION_FIELDS} for code, r in precision.get("rules", {}).items()},
        },
    }


def measured_json(table: dict) -> str:
    return json.dumps(table, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def measured_path() -> Path:
    return Path(str(resources.files("greenlint.rules").joinpath(MEASURED)))


def with_predictions(savings: tuple[dict, dict], predictor) -> tuple[dict, dict]:
    """The measured pairs, each with the reference predictor's figure for one `run()` of its two
    programs (tools/pair_prediction.py), computed now so that it follows the shipped predictor."""
    if isinstance(predictor, Exception):
        raise predictor
    pairs, reasons = savings
    return {code: {**pair, "predicted": {side: run_prediction(BENCH_DIR / code / f"{side}.py", predictor.predict)
                                         for side in ("before", "after")}}
            for code, pair in pairs.items()}, reasons


def pages() -> tuple[str, dict[str, str]]:
    """(measured.json's text, file name -> content for every page of docs/rules/)."""
    predictor = reference_predictor()
    rules = all_rules()
    savings, precision = with_predictions(load_savings(), predictor), load_precision()
    table = measured_table(savings, precision)
    out = {f"{code}.md": render(rule, predictor, table) for code, rule in rules.items()}
    out["README.md"] = index(rules, savings, precision)
    return measured_json(table), out


def stale(directory: Path = DOCS_DIR) -> list[str]:
    """The measured table and the pages missing, different or left over in `directory`."""
    table, want = pages()
    path = measured_path()
    have = {p.name for p in directory.glob("*.md")} if directory.is_dir() else set()
    bad = [n for n, text in want.items() if not (directory / n).is_file() or (directory / n).read_text() != text]
    if not path.is_file() or path.read_text(encoding="utf-8") != table:
        bad.append(str(path.relative_to(REPO_DIR)))
    return sorted(bad + sorted(have - set(want)))


def write(directory: Path = DOCS_DIR) -> list[str]:
    table, want = pages()
    atomic_write_text(measured_path(), table)
    for name, text in want.items():
        atomic_write_text(directory / name, text)
    for leftover in set(p.name for p in directory.glob("*.md")) - set(want):
        (directory / leftover).unlink()
    return sorted(want)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/rules/ is stale, write nothing")
    parser.add_argument("--out", type=Path, default=DOCS_DIR)
    args = parser.parse_args(argv)
    if args.check:
        bad = stale(args.out)
        for name in bad:
            print(f"stale: {name if name.endswith('.json') else args.out / name}", file=sys.stderr)
        return 1 if bad else 0
    print(f"wrote {len(write(args.out))} pages to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
