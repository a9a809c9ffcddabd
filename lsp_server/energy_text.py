"""How call sites' energy reads in the editor: inlay hint labels and tooltips, hover Markdown, lenses.

One vocabulary with the CLI (docs/design.md): where a figure comes from is `Basis.label` ("measured
here", "from data", "bounded", "predicted", ...); figures go through `fmt_energy` (a range when
the 80 % interval is wider than 100×), sums through `greenlint.report.total` (as the energy
report's); a loop factor is shown with the one sign `TIMES` (in a hint, as far as VS Code's length
allows: the figure and the basis come first). Names go into Markdown as code spans (`code`), other
text escaped (`escape`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from greenlint.predict.host_work import floor_terms
from greenlint.predict.prediction import Basis, Prediction
from greenlint.predict.site_predictions import with_work
from greenlint.predict.work_energy import model_flops, stated_most
from greenlint.report.escape import code_span as code
from greenlint.report.total import Total, file_total
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site
from greenlint.units import TIMES, fmt_energy, fmt_j, fmt_range, interval_ratio

BOLT = "⚡"
#: What Markdown reads as syntax in running text: each is shown as itself behind a backslash.
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&#])")


def escape(text: str) -> str:
    """*text* (a note, a name) shown as itself in Markdown: `__call__` stays `__call__`, not bold."""
    return _MARKDOWN.sub(r"\\\1", " ".join(str(text).splitlines()))


def _known(sites: Sequence[Site]) -> list[Site]:
    return [s for s in sites if s.total_energy_j is not None]


def bases_label(sites: Sequence[Site]) -> str:
    """The labels of several sites' bases, each once, in the vocabulary's order: `from data + bounded`."""
    order = list(Basis)
    labels = dict.fromkeys(s.prediction.label for s in sorted(sites, key=lambda s: order.index(s.prediction.basis)))
    return " + ".join(labels)


def total_of(sites: Sequence[Site], per_run: bool = False) -> Total:
    """The total of `sites`, each once, times their loops unless `per_run` (a file's: the status
    bar's, the lens's): `greenlint.report.total`, as every view sums."""
    return file_total((s.prediction.energy_j, s.prediction.interval_j, 1 if per_run else s.program_runs,
                       s.prediction.floor, per_run or s.callsite.counted) for s in sites)


def _figure(total: Total, unit: str, nested: bool = False) -> str:
    """The total's figure; a range is bracketed when it follows a factor (`8 × (1 J – 400 J)`)."""
    text = total.figure(unit)
    return f"({text})" if nested and " – " in text else text


#: VS Code cuts an inlay hint's label after this many characters (`editor.inlayHints.maximumLength`'s
#: default): the figure and the basis come first and fit in it; the details after them shorten.
HINT_MAX = 43


def _short(label: str) -> str:
    """A basis label without the qualifier after its comma, marked as cut: `calibrated here…`."""
    head, comma, _ = label.partition(",")
    return f"{head}…" if comma else label


def _hint_head(known: Sequence[Site], unit: str) -> str:
    """`⚡ figure (basis`, the part of a hint that matters, within HINT_MAX with its `)`. Tried in
    order until one fits: every basis; the costliest call's and how many more; that basis without
    its qualifier (`calibrated here…`: the tooltip has it whole), with the count of the others, then
    alone; then the same with the figure in `auto` units (a `J` or `Wh` figure of many digits)."""
    labels = bases_label(known)
    top = max(known, key=lambda s: s.total_energy_j or 0.0).prediction.label
    more = len(set(labels.split(" + "))) - 1
    bases = [labels, _short(labels)] if not more else [labels, f"{top} + {more} more",
                                                        f"{_short(top)} + {more} more", f"{_short(top)} +{more}",
                                                        f"{top.partition(',')[0]}…"]
    total = total_of(known)
    for figure_unit in dict.fromkeys((unit, "auto")):
        for basis in bases:
            head = f"{BOLT} {_figure(total, figure_unit)} ({basis}"
            if len(head) + 1 <= HINT_MAX:
                return head
    return head


def hint_label(sites: Sequence[Site], unit: str = "auto") -> str | None:
    """The inlay hint of the calls ending on one line; None when none has an estimate.

    The figure and the basis first (`_hint_head`), then the details: `⚡ 12 J (from data)`; in a
    literal loop `⚡ 5.03 kJ (from data; 8 × 629 J)`; several calls `⚡ 26 J (from data + bounded;
    2 calls, 8 × 3.28 J)`; `≤8 ×` when 8 is an upper bound (a guarded call, early stopping); a range
    when the interval is > 100× wide. Past HINT_MAX characters the factor keeps only its count
    (`× 8`), then the count of calls goes, then the factor: the tooltip has each call's figure and basis."""
    known = _known(sites)
    if not known:
        return None
    head = _hint_head(known, unit)
    calls = [] if len(known) == 1 else [f"{len(known)} calls"]
    loops = sorted({s.program_runs for s in known})
    factor, short = [], []
    if loops != [1]:
        if len(loops) == 1:  # one loop around them all: the factor times one iteration
            at_most = "≤" if any(s.runs_bound == "upper" for s in known) else ""
            factor = [f"{at_most}{loops[0]} {TIMES} {_figure(total_of(known, per_run=True), unit, nested=True)}"]
            short = [f"{TIMES} {at_most}{loops[0]}"]
        else:
            factor = short = ["in loops " + ", ".join(f"{TIMES} {n}" for n in loops if n > 1)]
    for details in (calls + factor, calls + short, short, []):
        label = f"{head}; {', '.join(details)})" if details else f"{head})"
        if len(label) <= HINT_MAX:
            break
    return label


def site_line(site: Site, unit: str = "auto") -> str:
    """One Markdown line: api, joules per execution (× loop = total) and basis."""
    p = site.prediction
    if p.energy_j is None:
        return f"{code(site.api)}: no estimate ({p.label})"
    text = f"{code(site.api)}: {_figure(total_of([site], per_run=True), unit)}"
    n = site.program_runs
    if n > 1:
        text = f"{code(site.api)}: {n} {TIMES} {_figure(total_of([site], per_run=True), unit, nested=True)}"
        text += f" = {_figure(total_of([site]), unit)}"
    return f"{text} ({p.label})"


def hint_tooltip(sites: Sequence[Site], unit: str = "auto") -> str:
    return "\n".join(f"- {site_line(s, unit)}" for s in sites)


def _split(p: Prediction, unit: str) -> str | None:
    components = (("CPU", p.cpu_j), ("GPU", p.gpu_j), ("RAM", p.ram_j))
    parts = [f"{name} {fmt_j(j, unit)}" for name, j in components if j is not None]
    return " · ".join(parts) if parts else None


def _evidence(p: Prediction) -> str:
    e = p.evidence
    head = f"**Basis:** {p.label}"
    if p.basis is Basis.UNKNOWN or not e.records:
        return head + (f"\n\n*{escape(e.note)}*" if e.note else "")
    level = f", {escape(e.level)} level" if e.level else ""
    whose = f" of {code(e.api)}" if e.api else ""
    text = f"{head}: {e.records} measurement{'s' if e.records != 1 else ''}{whose}{level}"
    if e.sources:
        text += f" (from {', '.join(map(escape, e.sources))})"
    return text + (f"\n\n*{escape(e.note)}*" if e.note else "")


def _figures(site: Site, unit: str) -> list[str]:
    """Per execution (the point and its 80 % interval, or the range alone when it is > 100× wide),
    × how often it runs per program run (`Site.program_runs`: loops, guards, calls of its function)."""
    p, n = site.prediction, site.program_runs
    if p.energy_j is None:
        return ["No energy estimate for this call."]
    wide = p.interval_j is not None and fmt_energy(p.energy_j, p.interval_j) != fmt_j(p.energy_j)
    if p.basis is Basis.SYMBOLIC:  # builds a graph: no work at this line, neither a point nor a bound
        return ["- **0 J at this line**: it only builds a graph; its work is counted where the graph runs"]
    if p.interval_j is not None and p.interval_j[0] <= 0:  # bounded, negligible: a bound, no median
        lines = [f"- **at most {fmt_j(p.interval_j[1], unit)}** per execution (an upper bound: no lower end is known)"]
    elif p.floor:  # data size or FLOPs unknown: the least the code allows, up to a stated most
        features = with_work(site.callsite.features, site.callsite.work)
        unknown, most = floor_terms(features) or (
            "data size or FLOPs unknown", stated_most(site.api.rpartition(".")[2] == "fit", features, model_flops(site.api))
        )
        lines = [f"- **at least {fmt_j(p.energy_j, unit)}** per execution ({unknown}: the least the code "
                 f"allows), up to {fmt_j(p.interval_j[1] if p.interval_j else p.energy_j, unit)} "
                 f"if {most or 'the most stated'} (stated, not inferred)"]
    elif wide:
        ratio = interval_ratio(p.interval_j)
        how_wide = f"{ratio:,.0f}{TIMES} wide"
        median = fmt_j(p.energy_j, unit)
        lines = [f"- **{fmt_range(*p.interval_j, unit)}** per execution (80% interval, {how_wide}; median {median})"]
    else:
        interval = f" (80% interval {fmt_range(*p.interval_j, unit)})" if p.interval_j else ""
        lines = [f"- **{fmt_j(p.energy_j, unit)}** per execution{interval}"]
    count_known = site.callsite.counted
    why = escape(site.callsite.runs.note or "how often is not known")
    if not count_known and n == 1:  # a loop of unknown length (`for batch in data`, `while`)
        lines.append(f"- {TIMES} an unknown number of runs per program run ({why}): the total is not known")
    if n > 1:
        runs = f"at most {n} runs" if site.runs_bound == "upper" else f"{n} runs"
        if not count_known:
            runs = f"{n} runs (its literal loops; in all {why})"
        figure = f"at least {fmt_j(p.energy_j * n, unit)}" if p.floor else fmt_energy(p.energy_j, p.interval_j, n, unit)
        total = f"- {TIMES} {runs} per program run = **{figure}**"
        if p.interval_j and not wide and not p.floor:
            total += f" (80% interval {fmt_range(p.interval_j[0] * n, p.interval_j[1] * n, unit)})"
        lines.append(total)
    split = _split(p, unit)
    if split:
        lines.append(f"- {split} (per execution)")
    return lines


def _profile(p: Prediction, unit: str) -> list[str]:
    """This site's own measurement (`greenlint measure`), with the static forecast beside it."""
    profile = p.profile
    if not profile:
        return []
    median = profile.get("median_j")
    figure = "no energy reading" if median is None else f"**{fmt_j(median, unit)}** per execution"
    iqr = profile.get("iqr_j")
    if median is not None and iqr:
        figure += f" (IQR {fmt_range(iqr[0], iqr[1], unit)})"
    runs = profile.get("executions")
    where = ", ".join(escape(profile[k]) for k in ("counter", "hardware_id", "date") if profile.get(k))
    if profile.get("stale"):
        head = "**Profile stale**: the statement changed since it was measured; figures above are the forecast"
    else:
        head = "**Measured here**"
    lines = ["", f"{head}: {figure}" + (f" over {runs} executions" if runs else "") + (f" ({where})" if where else "")]
    forecast = p.forecast
    if forecast is not None and not profile.get("stale"):
        beside = fmt_energy(forecast.energy_j, forecast.interval_j, unit=unit)
        lines.append(f"- forecast beside it: {beside} ({forecast.basis.label})")
    return lines


def stale_note(analysed: int | None, now: int | None) -> str:
    """The first line of a hover answered from an analysis of an older text than the document's."""
    which = "an earlier version" if analysed is None else f"version {analysed}"
    current = "" if now is None else f" (now version {now})"
    return f"⚠ **Stale**: the figures below are of {which} of this text, which has changed since{current}."


def hover_markdown(site: Site, findings: Sequence[Diagnostic], unit: str = "auto") -> str:
    """The hover of one call site: its figure, why, this site's own profile, and the rules that flag it."""
    from greenlint.rules.codes import get_rule

    p = site.prediction
    lines = [f"**{code(site.api)}** · greenlint energy ({p.label})", ""]
    lines += _figures(site, unit)
    lines += _profile(p, unit)
    lines += ["", _evidence(p)]
    if findings:
        lines += ["", "---", ""]
        for d in findings:
            rule = get_rule(d.code)
            summary = f": {rule.summary()}" if rule is not None and rule.summary() else ""
            lines.append(f"- {code(d.code)} {escape(d.name)}{summary} ({code(f'greenlint rule {d.code}')} for details)")
    return "\n".join(lines)


def startup_markdown(p: Prediction, unit: str = "auto", held: Prediction | None = None) -> str:
    """The hover of a TensorFlow import: the program's start-up (`Predictor.startup`), paid once there,
    and the device the document's call sites hold beyond their figures (`Predictor.held`) where known."""
    assert p.energy_j is not None and p.interval_j is not None
    lines = [
        f"**{code('import tensorflow')}** · greenlint energy ({p.label})", "",
        f"**Start-up:** {fmt_j(p.energy_j, unit)} once per run of the program (its measured runs: "
        f"{fmt_range(*p.interval_j, unit)}), beside every call's figure", "", _evidence(p)]
    if held is not None and held.energy_j is not None and held.interval_j is not None:
        lines += ["", f"**Held device:** {fmt_j(held.energy_j, unit)} per run while this file's calls run "
                  f"({fmt_range(*held.interval_j, unit)}), beside their figures", "", _evidence(held)]
    return "\n".join(lines)


def _count_by_basis(sites: Sequence[Site]) -> str:
    """`12 from data, 2 bounded`."""
    order = list(Basis)
    counts: dict[str, int] = {}
    for s in sorted(sites, key=lambda s: order.index(s.prediction.basis)):
        label = s.prediction.label
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(f"{n} {label}" for label, n in counts.items())


def total_label(sites: Sequence[Site], where: str, unit: str = "auto") -> str | None:
    """`⚡ 5.28 kJ in this file (14 TF/Keras calls: 12 from data, 2 bounded; 1 floor (data size or FLOPs unknown))`:
    each call once, times its loops (`greenlint.report.total`, as the energy report's header)."""
    known = _known(sites)
    if not known:
        return None
    total = total_of(sites)
    calls = f"{len(known)} TF/Keras call{'s' if len(known) != 1 else ''}"
    caveats = "".join(f"; {c}" for c in total.caveats())
    return f"{BOLT} {_figure(total, unit)} in {where} ({calls}: {_count_by_basis(known)}{caveats})"


def _share(fraction: float) -> str:
    return "<1%" if fraction < 0.005 else f"{fraction:.0%}"


def hotspots_text(sites: Sequence[Site], top: int, unit: str = "auto") -> str:
    """The `top` call sites by energy (times loops), with their share of the total (of the medians) and their basis."""
    known = sorted(_known(sites), key=lambda s: s.total_energy_j, reverse=True)
    if not known:
        return "no TF/Keras call with an energy estimate"
    total = sum(s.total_energy_j for s in known)
    parts = []
    for s in known[:top]:
        figure = fmt_energy(s.prediction.energy_j, s.prediction.interval_j, s.program_runs, unit)
        parts.append(f"line {s.callsite.span.line} `{s.api}` {figure} ({_share(s.total_energy_j / total)}, {s.prediction.label})")
    return f"{_figure(total_of(known), unit)} in {len(known)} calls; most: " + "; ".join(parts)
