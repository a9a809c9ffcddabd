"""The research benchmark: greenlint against careful readings of research and application programs.

Each research corpus has a reading, `readings/<corpus>.toml`, written before greenlint ran on it
(readings/README.md gives the format): the main calls, where the program spends its energy, and the
energy-relevant changes a careful engineer would make. `python -m bench.realworld research` runs
`greenlint calls` and `greenlint check` (default rules, then every rule) on each of these corpora and
reports, per corpus: main calls listed, those that are greenlint call sites, those with a figure
(`energy_j`, a point or a floor), and changes found / listed.

Matching: a main call is a call site when a call of `greenlint calls` whose API's last name is the
listed `call` starts within NEAR lines of the listed line (or spans it) in the same file and cell, or
any call starts on the listed line itself; a
change is found when a finding of a rule its kind names (kinds.toml) or its own `rules` name lies within
NEAR lines of its line, of one of its `also` lines, or of the line of the main call it names.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .corpora import BY_NAME, ensure
from .labels import finding_key, line_problem, read_labels, relative

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
READINGS = HERE / "readings"
KINDS = READINGS / "kinds.toml"
REVIEWS = READINGS / "reviews.toml"  # second readings disputing a listed change (never editing the reading)
RESULTS = HERE / "research.json"
NEAR = 2  # lines either side of a listed line where a call site or a finding still matches it
SURE = ("high", "medium", "low")


@dataclass(frozen=True)
class MainCall:
    id: str
    file: str
    cell: int  # 1-based code cell of a notebook, 0 elsewhere
    line: int
    text: str
    call: str  # the called name as written: "fit_generator", "run", "predict"
    size: str


@dataclass(frozen=True)
class Change:
    file: str
    cell: int
    line: int
    text: str
    kind: str
    change: str
    why: str
    sure: str
    also: tuple[int, ...] = ()
    call: str | None = None  # the id of the main call it changes
    rules: tuple[str, ...] = ()  # codes that count beyond the kind's


@dataclass(frozen=True)
class Review:
    """A second reading's dispute of one listed change: who, and the evidence."""

    corpus: str
    file: str
    cell: int
    line: int
    kind: str
    by: str
    reason: str

    @property
    def key(self) -> tuple[str, str, int, int, str]:
        return (self.corpus, self.file, self.cell, self.line, self.kind)


@dataclass(frozen=True)
class Reading:
    corpus: str
    calls: tuple[MainCall, ...]
    changes: tuple[Change, ...]


def read_kinds(path: Path = KINDS) -> dict[str, tuple[str, ...]]:
    """Each kind of change and the rule codes whose findings count as finding it."""
    kinds = _load(path).get("kinds")
    if not isinstance(kinds, dict) or not all(
        isinstance(codes, list) and all(isinstance(c, str) for c in codes) for codes in kinds.values()
    ):
        raise ValueError(f"{path}: [kinds] must map each kind to a list of rule codes")
    return {kind: tuple(codes) for kind, codes in kinds.items()}


def read_reading(path: Path, kinds: dict[str, tuple[str, ...]]) -> Reading:
    """One reading, checked: its fields, known kinds and certainties, `call` ids that exist."""
    data = _load(path)
    corpus = data.get("corpus")
    if corpus != path.stem:
        raise ValueError(f"{path}: corpus = {corpus!r}, expected the file's name {path.stem!r}")
    try:
        calls = tuple(
            MainCall(c["id"], c["file"], int(c.get("cell", 0)), int(c["line"]), c["text"], c["call"], c["size"])
            for c in data.get("call", [])
        )
        changes = tuple(
            Change(c["file"], int(c.get("cell", 0)), int(c["line"]), c["text"], c["kind"], c["change"], c["why"],
                   c["sure"], tuple(int(n) for n in c.get("also", ())), c.get("call"), tuple(c.get("rules", ())))
            for c in data.get("change", [])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: a [[call]] or [[change]] lacks or mistypes a field: {exc!r}") from exc
    ids = [c.id for c in calls]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: a main call id is used twice")
    for change in changes:
        where = f"{path}: the change at {change.file}:{change.line}"
        if change.kind not in kinds:
            raise ValueError(f"{where} has kind {change.kind!r}, not one of {sorted(kinds)} ({KINDS.name})")
        if change.sure not in SURE:
            raise ValueError(f"{where} has sure = {change.sure!r}, not one of {SURE}")
        if change.call is not None and change.call not in ids:
            raise ValueError(f"{where} names call {change.call!r}, which the reading does not list")
    return Reading(corpus, calls, changes)


def read_readings(folder: Path = READINGS) -> list[Reading]:
    """Every reading of the folder (all `*.toml` but kinds.toml and reviews.toml), sorted by corpus."""
    kinds = read_kinds(folder / KINDS.name)
    return [read_reading(p, kinds) for p in sorted(folder.glob("*.toml")) if p.name not in (KINDS.name, REVIEWS.name)]


def read_reviews(readings: list[Reading], path: Path | None = None) -> dict[tuple[str, str, int, int, str], Review]:
    """The second readings' disputes of the changes of *readings* by the change they dispute, checked: each
    review of one of their corpora names a change its reading lists (the others are left out)."""
    listed = {(r.corpus, c.file, c.cell, c.line, c.kind) for r in readings for c in r.changes}
    corpora = {r.corpus for r in readings}
    path = path or REVIEWS
    found = {}
    try:
        reviews = [Review(v["corpus"], v["file"], int(v.get("cell", 0)), int(v["line"]), v["kind"], v["by"], v["reason"])
                   for v in (_load(path).get("review", []) if path.is_file() else [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: a [[review]] lacks or mistypes a field: {exc!r}") from exc
    for review in reviews:
        if review.corpus not in corpora:
            continue
        if review.key not in listed:
            raise ValueError(f"{path}: the review of {review.corpus} {review.file}:{review.line} ({review.kind}) "
                             "names no change a reading lists")
        found[review.key] = review
    return found


def _load(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from exc


def stale_readings(readings: list[Reading]) -> list[str]:
    """Listed lines that are gone or read differently from the reading's `text`, and readings of
    corpora that do not exist."""
    bad = []
    for reading in readings:
        corpus = BY_NAME.get(reading.corpus)
        if corpus is None:
            bad.append(f"{reading.corpus}: no such corpus in corpora.py")
            continue
        root = ensure(corpus)
        for entry in (*reading.calls, *reading.changes):
            problem = line_problem(root, entry.file, entry.cell, entry.line, entry.text)
            if problem:
                where = f"{reading.corpus} {entry.file}" + (f" cell {entry.cell}" if entry.cell else "")
                bad.append(f"{where} line {entry.line}: {problem}")
    return bad


def call_site(call: MainCall, sites: list[dict]) -> dict | None:
    """The call site of `greenlint calls` that is the listed main call, or None: a call of that name
    near the line, else any call starting on the line itself (a wrapper greenlint names by what it
    runs, such as a `tf_util.function` named `train` that runs a session)."""
    here = [s for s in sites if relative(s["path"]) == call.file and (s.get("cell") or 0) == call.cell]
    named = [
        s for s in here
        if (s.get("api") or "").rsplit(".", 1)[-1] == call.call
        and s["line"] - NEAR <= call.line <= max(s.get("end_line") or s["line"], s["line"] + NEAR)
    ]
    candidates = named or [s for s in here if s["line"] == call.line]
    return min(candidates, key=lambda s: abs(s["line"] - call.line), default=None)


def finders(change: Change, calls: dict[str, MainCall], findings: list[dict], kinds: dict[str, tuple[str, ...]]
            ) -> list[str]:
    """The codes of the findings that find the change (sorted, each once): a finding of a rule of its kind
    within NEAR lines of one of its lines (or of the main call it changes), the finding's lines being its
    span (a call written over several lines, as `call_site` reads a call site's)."""
    codes = set(kinds[change.kind]) | set(change.rules)
    anchors = [(change.file, change.cell, n) for n in (change.line, *change.also)]
    if change.call is not None:
        main = calls[change.call]
        anchors.append((main.file, main.cell, main.line))
    hits = set()
    for f in findings:
        where = (relative(f["filename"]), f.get("cell") or 0)
        first = f["location"]["row"]
        last = max(first, (f.get("end_location") or {}).get("row") or first)  # a finding covers its whole span
        if f["code"] in codes and any(where == (file, cell) and first - NEAR <= n <= last + NEAR
                                      for file, cell, n in anchors):
            hits.add(f["code"])
    return sorted(hits)


def score_reading(reading: Reading, sites: list[dict], default: list[dict], every: list[dict],
                  kinds: dict[str, tuple[str, ...]], judged_false: list[dict] = (),
                  reviews: dict[tuple[str, str, int, int, str], Review] | None = None) -> dict:
    """One corpus's row: its main calls matched to call sites, its changes to findings. A change that
    only default findings judged false (`judged_false`) would find is disputed: the reading lists it, the
    judge found the finding on it wrong; one a second reading disputes (*reviews*) says so, still counted."""
    reviews = reviews or {}
    by_id = {c.id: c for c in reading.calls}
    calls = []
    for call in reading.calls:
        site = call_site(call, sites)
        calls.append({
            "id": call.id, "file": call.file, "cell": call.cell, "line": call.line, "call": call.call,
            "site": site is not None,
            "figure": site is not None and site.get("energy_j") is not None,
            "floor": bool(site and site.get("floor")),
            "energy_j": site.get("energy_j") if site else None,
            "api": site.get("api") if site else None,
        })
    changes = []
    for change in reading.changes:
        found = finders(change, by_id, default, kinds)
        opt_in = finders(change, by_id, every, kinds)
        disputed = [] if found else finders(change, by_id, judged_false, kinds)
        changes.append({
            "file": change.file, "cell": change.cell, "line": change.line, "kind": change.kind, "sure": change.sure,
            "found_by": found, "found_by_any_rule": opt_in, "judged_false": disputed,
            "reviewed": (review.reason if (review := reviews.get((reading.corpus, change.file, change.cell, change.line,
                                                                  change.kind))) else None),
        })
    never = [
        {"file": relative(site["path"]), "cell": site.get("cell"), "line": site["line"], "api": site["api"],
         "note": site["runs"].get("note")}
        for site in sites if site["runs"].get("count") == 0
    ]
    return {
        "corpus": reading.corpus,
        "never_run": len(never),
        "never_run_sites": never,
        "calls_listed": len(calls),
        "call_sites": sum(c["site"] for c in calls),
        "with_figure": sum(c["figure"] for c in calls),
        "changes_listed": len(changes),
        "changes_found": sum(bool(c["found_by"]) for c in changes),
        "changes_found_any_rule": sum(bool(c["found_by_any_rule"]) for c in changes),
        "changes_disputed": sum(bool(c["judged_false"]) for c in changes),
        "changes_reviewed": sum(c["reviewed"] is not None for c in changes),
        "calls": calls,
        "changes": changes,
    }


def collect(readings: list[Reading]) -> dict[str, dict]:
    """greenlint's call sites, default findings and every-rule findings on each read corpus."""
    import shutil
    import tempfile

    from .score import CALLS, CHECK, greenlint, rule_defaults

    defaults = rule_defaults()
    cache = Path(tempfile.mkdtemp(prefix="greenlint-research-"))
    out = {}
    try:
        for reading in readings:
            folder = ensure(BY_NAME[reading.corpus])
            default = [f for f in greenlint(CHECK, folder, cache) if defaults.get(f["code"])]
            every = greenlint((*CHECK, "--select", ",".join(sorted(defaults))), folder, cache)
            out[reading.corpus] = {"sites": greenlint(CALLS, folder, cache)["call_sites"], "default": default, "every": every}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return out


def score(readings: list[Reading], collected: dict[str, dict], kinds: dict[str, tuple[str, ...]]) -> dict:
    """The results (deterministic: same code, same readings, same file)."""
    false = {label.key for label in read_labels() if label.verdict == "false"}
    reviews = read_reviews(readings)

    def judged(corpus: str, findings: list[dict], wrong: bool = False) -> list[dict]:
        """The findings not judged false (a finding judged false finds nothing), or, `wrong`, those judged false."""
        return [f for f in findings if (finding_key(corpus, f) in false) == wrong]

    rows = []
    for r in readings:
        got = collected[r.corpus]
        rows.append(score_reading(r, got["sites"], judged(r.corpus, got["default"]), judged(r.corpus, got["every"]),
                                  kinds=kinds, judged_false=judged(r.corpus, got["default"], wrong=True),
                                  reviews=reviews))
    keys = ("calls_listed", "call_sites", "with_figure", "changes_listed", "changes_found", "changes_found_any_rule",
            "changes_disputed", "changes_reviewed", "never_run")
    return {
        "command": "python -m bench.realworld research",
        "method": (
            "Each research corpus was read before greenlint ran on it (bench/realworld/readings/). A main call "
            "is a call site when `greenlint calls --isolated --no-cache` lists a call of that name starting "
            f"within {NEAR} lines of it (or spanning it), or any call starting on its line, with a figure when that "
            "site has an energy (point or "
            "floor). A change is found when `greenlint check --isolated --no-cache` reports a finding of a rule "
            f"its kind names (readings/kinds.toml) within {NEAR} lines of it, of its other lines, or of the main "
            "call it changes: with the default rules, and with every rule selected. A finding judged false "
            "(bench/realworld/labels.csv) finds no change; a change that only such findings of the default rules "
            "would find is counted as disputed (the reading and the judge disagree); a change a second reading disputes "
            "(readings/reviews.toml, with its evidence) is counted as reviewed, and stays listed and counted. "
            "Call sites that never run: every call site of the "
            "corpus (not only main calls) whose `runs.count` is 0, each listed to be read: its loop must really "
            "never run."
        ),
        "kinds": {k: list(v) for k, v in sorted(kinds.items())},
        "corpora": rows,
        "total": {k: sum(r[k] for r in rows) for k in keys},
        "rules": rule_recall(rows, kinds),
    }


def rule_recall(rows: list[dict], kinds: dict[str, tuple[str, ...]]) -> dict[str, dict]:
    """Per rule: the listed changes of the kinds it counts for, and how many of them it found (default
    rules' run; opt-in rules from the run with every rule)."""
    out: dict[str, dict] = {}
    for row in rows:
        for change in row["changes"]:
            for code in kinds[change["kind"]]:
                counts = out.setdefault(code, {"listed": 0, "found": 0})
                counts["listed"] += 1
                counts["found"] += code in change["found_by_any_rule"]
    return dict(sorted(out.items()))


def section(results: dict) -> list[str]:
    """The markdown table of docs/realworld.md's research section."""
    def pct(n: int, d: int) -> str:
        return f"{n} / {d}" + (f" ({n / d:.0%})" if d else "")

    rows = [
        "| corpus | main calls | call sites | with a figure | changes found (default rules) | (every rule) "
        "| disputed | disputed by a review | call sites that never run |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in (*results["corpora"], {"corpus": "**total**", **results["total"]}):
        rows.append(
            f"| {r['corpus']} | {r['calls_listed']} | {pct(r['call_sites'], r['calls_listed'])} | "
            f"{pct(r['with_figure'], r['calls_listed'])} | {pct(r['changes_found'], r['changes_listed'])} | "
            f"{pct(r['changes_found_any_rule'], r['changes_listed'])} | {r['changes_disputed']} | {r['changes_reviewed']} | "
            f"{r['never_run']} |"
        )
    kinds: dict[str, list[int]] = {}
    for r in results["corpora"]:
        for c in r["changes"]:
            counts = kinds.setdefault(c["kind"], [0, 0])
            counts[0] += bool(c["found_by"])
            counts[1] += 1
    rows += ["", "| kind of change | rules that count | found / listed |", "|---|---|---|"]
    for kind, (found, listed) in sorted(kinds.items()):
        rows.append(f"| {kind} | {', '.join(results['kinds'][kind]) or 'none yet'} | {found} / {listed} |")
    rows += ["", "| rule | recall: changes of its kinds it found / listed |", "|---|---|"]
    for code, counts in results["rules"].items():
        rows.append(f"| [{code}](rules/{code}.md) | {pct(counts['found'], counts['listed'])} |")
    disputed = [(r["corpus"], c) for r in results["corpora"] for c in r["changes"] if c["judged_false"]]
    if disputed:
        rows += ["", "Disputed: changes a reading lists that only findings judged false would find (the reading and the "
                 "blind judge disagree; see each label's reason in bench/realworld/labels.csv):", ""]
        rows += [f"- {corpus} `{c['file']}:{c['line']}` {c['kind']} ({c['sure']}): {', '.join(c['judged_false'])}"
                 for corpus, c in disputed]
    reviewed = [(r["corpus"], c) for r in results["corpora"] for c in r["changes"] if c["reviewed"]]
    if reviewed:
        rows += ["", "Disputed by a review: changes a second reading finds do not hold (readings/reviews.toml; still "
                 "listed and counted above):", ""]
        rows += [f"- {corpus} `{c['file']}:{c['line']}` {c['kind']} ({c['sure']}): {c['reviewed']}" for corpus, c in reviewed]
    never = [(r["corpus"], site) for r in results["corpora"] for site in r["never_run_sites"]]
    if never:
        rows += ["", "Call sites counted as never running (each loop read: it must really never run):", ""]
        rows += [f"- {corpus} `{site['file']}:{site['line']}` {site['api']}: {site['note'] or 'no note'}"
                 for corpus, site in never]
    return rows
