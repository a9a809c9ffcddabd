"""`greenlint calls --format html`: a standalone energy report for people and CI artifacts.

One HTML page, no network (inline CSS, no scripts, a Content-Security-Policy that forbids
fetching anything), every text escaped. Call sites are ranked by joules × runs (energy of one
execution times how often the site runs in one run of the program), each row with a bar of its
share, its 80 % interval on a log scale shared by all rows, the basis label, and the work behind
the figure where known; under the summary, what the program pays beside its calls (start-up, the
device held between them: `report.calls.startup_line`, `held_line`). Each location links to `<path>#L<line>` and carries `data-path`,
`data-line`, `data-column` and `data-cell`, which the VS Code extension uses to open the line.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from greenlint.predict.prediction import Basis, Prediction
from greenlint.report.calls import calls_json, held_line, startup_line
from greenlint.report.escape import visible
from greenlint.report.total import file_total, shown_interval
from greenlint.units import TIMES, fmt_energy, fmt_j

#: Nothing may be fetched: styles are inline, there are no scripts or images.
CSP = "default-src 'none'; style-src 'unsafe-inline'"

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem;color:#1f2328;background:#fff}
h1{font-size:1.3rem;margin:0 0 .3rem} p.summary{margin:.2rem 0 1rem;color:#57606a}
table{border-collapse:collapse;width:100%} th,td{padding:.35rem .5rem;border-bottom:1px solid #d0d7de;vertical-align:top;text-align:left}
th{font-weight:600;white-space:nowrap} td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace} td.api{min-width:14rem;overflow-wrap:anywhere} td.where{white-space:nowrap} a{color:#0969da;text-decoration:none} a:hover{text-decoration:underline}
.bar{height:.7rem;background:#2da44e;border-radius:2px;min-width:1px} .barcell{width:14%}
.scale{position:relative;height:.9rem;min-width:9rem;background:#f6f8fa;border-radius:2px}
.range{position:absolute;top:.3rem;height:.3rem;background:#8c959f;border-radius:2px}
.point{position:absolute;top:.1rem;width:2px;height:.7rem;background:#1f2328}
.basis{display:inline-block;border:1px solid #d0d7de;border-radius:1rem;padding:0 .45rem;font-size:12px} td.basiscell{min-width:6rem}
.wide{overflow-x:auto}
.work{color:#57606a;font-size:12px;margin-top:.15rem} .stale{color:#9a6700}
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117} th,td{border-color:#30363d}
p.summary,.work{color:#8d96a0} a{color:#4493f8} .scale{background:#161b22} .range{background:#6e7681} .point{background:#e6edf3}
.basis{border-color:#30363d}}
"""


@dataclass(frozen=True)
class Row:
    """One call site of the report: its contract object and the figures for one run of the program."""

    site: dict
    runs: int
    runs_bound: str  # "exact", "upper" or "unknown" (literal loops only)
    total_j: float | None
    interval_j: tuple[float, float] | None


def rows(callsites_with_predictions: Iterable[tuple]) -> list[Row]:
    """Call sites ranked by joules × runs, largest first; those without an estimate last, in file order."""
    out = []
    for site in calls_json(callsites_with_predictions):
        runs = site["runs"] or {}
        count, bound = runs.get("count"), runs.get("bound", "unknown")
        if count is None:  # how often is not known: the literal loops around the call are
            count, bound = int(site["features"].get("loop_multiplier", 1)), "unknown"
        energy = site["energy_j"]
        interval = None if energy is None else shown_interval(energy, site["interval_j"], bool(site.get("floor")))
        total = None if energy is None else energy * count
        out.append(Row(site, count, bound, total, None if not interval else (interval[0] * count, interval[1] * count)))
    order = sorted(range(len(out)), key=lambda i: (out[i].total_j is None, -(out[i].total_j or 0.0), i))
    return [out[i] for i in order]


def calls_html(callsites_with_predictions: Iterable[tuple], title: str = "greenlint energy report",
               calibration: dict | None = None, startup: Prediction | None = None, held: Prediction | None = None) -> str:
    """The whole report as one HTML document; *calibration*: the overlay the figures applied;
    *startup* and *held*: what the program pays beside its calls, each said in a sentence where given."""
    ranked = rows(callsites_with_predictions)
    known = [r for r in ranked if r.total_j is not None]
    total = sum(r.total_j for r in known)
    whole = file_total((r.site["energy_j"], r.site["interval_j"], r.runs, bool(r.site.get("floor")),
                        (r.site["runs"] or {}).get("count") is not None) for r in ranked)
    files = len({r.site["path"] for r in ranked})
    caveats = "".join(f"; {c}" for c in whole.caveats() if "without an estimate" not in c)
    summary = (f"{len(ranked)} call site{'' if len(ranked) == 1 else 's'} in {files} file{'' if files == 1 else 's'}; "
               f"{len(known)} with an energy figure, {whole.figure()} in all for one run of the program "
               f"(each site: joules per execution {TIMES} runs{caveats}). Intervals are 80 %, on a log scale.")
    bases = Counter(Basis(r.site["basis"]).label for r in known)
    if bases:
        summary += " Basis: " + ", ".join(f"{n} {label}" for label, n in bases.most_common()) + "."
    if calibration:
        summary += f" Calibrated here by {calibration['path']} (hardware {calibration['hardware_id']})."
    beside = [startup_line(startup)] if startup is not None else []
    beside += [held_line(held, len(ranked))] if held is not None else []
    scale = _log_scale(known)
    body = "\n".join(_row_html(rank, row, total, scale) for rank, row in enumerate(ranked, 1))
    head = ("<tr><th>#</th><th>location</th><th>API, and what the figure rests on</th><th class=num>energy per run</th>"
            "<th>share</th><th>80 % interval</th><th>runs</th><th>basis</th></tr>")
    return (
        "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name=viewport content="width=device-width,initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n<p class=summary>{escape(summary)}</p>\n"
        + "".join(f"<p class=summary>{escape(line)}</p>\n" for line in beside)
        + f"<div class=wide><table>\n<thead>{head}</thead>\n<tbody>\n{body}\n</tbody>\n</table></div>\n</body>\n</html>\n"
    )


def _log_scale(known: list[Row]) -> tuple[float, float] | None:
    """log10 of the smallest and largest joules any row shows (interval ends and points)."""
    values = [v for r in known for v in (r.total_j, *(r.interval_j or ())) if v and v > 0]
    if not values:
        return None
    low, high = math.log10(min(values)), math.log10(max(values))
    return (low, high) if high > low else (low - 1, high + 1)


def _position(value: float, scale: tuple[float, float]) -> float:
    """Where `value` joules lies on the scale, in percent."""
    low, high = scale
    return 100.0 * (math.log10(max(value, 10**low)) - low) / (high - low)


def _row_html(rank: int, row: Row, total: float, scale) -> str:
    site = row.site
    cell = site["cell"]
    where = f"{site['path']}:{site['line']}" if cell is None else f"{site['path']} cell {cell}:{site['line']}"
    href = f"{quote(os.fsencode(site['path']))}#L{site['line']}"  # a name that is not UTF-8: its bytes
    data = f'data-path="{escape(site["path"])}" data-line={site["line"]} data-column={site["column"]}'
    data += "" if cell is None else f" data-cell={cell}"
    location = f'<a href="{escape(href)}" {data}>{escape(visible(where))}</a>'  # shown: a bidi mark cannot reorder it
    if site.get("floor") and row.total_j is not None:  # data size or FLOPs unknown: the least the code allows
        energy = f"at least {fmt_j(row.total_j)}"
    else:
        energy = fmt_energy(site["energy_j"], site["interval_j"], row.runs)
    share = "" if row.total_j is None or total <= 0 else (
        f'<div class=bar style="width:{100.0 * row.total_j / total:.1f}%" title="{100.0 * row.total_j / total:.1f} %"></div>')
    basis = Basis(site["basis"])
    cells = [
        f"<td class=num>{rank}</td>",
        f"<td class=where>{location}</td>",
        f"<td class=api><code>{escape(site['api']).replace('.', '.<wbr>')}</code>"
        f"<div class=work>{_rests_on_html(site)}</div></td>",
        f"<td class=num>{escape(energy)}</td>",
        f"<td class=barcell>{share}</td>",
        f"<td>{_interval_html(row, scale)}</td>",
        f'<td class=num title="{escape(_RUNS_TITLE[row.runs_bound])}">{escape(_runs_text(row))}</td>',
        f'<td class=basiscell><span class=basis title="{escape(basis.value)}">{escape(basis.label)}</span></td>',
    ]
    return f"<tr>{''.join(cells)}</tr>"


def _interval_html(row: Row, scale) -> str:
    if row.total_j is None or scale is None:
        return ""
    parts = []
    if row.interval_j:
        low, high = row.interval_j
        left = _position(low, scale)
        width = max(_position(high, scale) - left, 0.5)
        parts.append(f'<div class=range style="left:{left:.1f}%;width:{width:.1f}%"></div>')
        label = f"{fmt_j(low)} – {fmt_j(high)}"
    else:
        label = fmt_j(row.total_j)
    parts.append(f'<div class=point style="left:{_position(row.total_j, scale):.1f}%"></div>')
    return f'<div class=scale title="{escape(label)}">{"".join(parts)}</div>'


_RUNS_TITLE = {
    "exact": "runs this many times in one run of the program",
    "upper": "runs at most this many times (under an if, or in a loop left by break)",
    "unknown": "how often is not known: the product of the literal loops around the call",
}


def _runs_text(row: Row) -> str:
    if row.runs_bound == "upper":
        return f"≤ {row.runs}"
    if row.runs_bound == "unknown" and row.runs != 1:
        return f"{row.runs} (loops)"
    return str(row.runs)


def _rests_on_html(site: dict) -> str:
    """The work behind the figure, the evidence note, and this site's own profile if any."""
    items, unknown = [], []
    for name, quantity in (site.get("work") or {}).items():
        value = quantity.get("value")
        if value is None:
            unknown.append(name)
            continue
        bound = {"upper": " (upper bound)", "lower": " (lower bound)"}.get(quantity.get("bound"), "")
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
        items.append(f"{name} {shown}{bound} [{quantity.get('provenance', 'unknown')}]")
    if unknown:
        items.append(f"not known: {', '.join(unknown)}")
    runs_note = (site.get("runs") or {}).get("note")
    if runs_note:
        items.append(f"runs: {runs_note}")
    evidence = site.get("evidence") or {}
    if evidence.get("records"):
        items.append(f"{evidence['records']} measurements of {evidence.get('api') or 'related APIs'}")
    if evidence.get("note"):
        items.append(evidence["note"])
    profile, forecast = site.get("profile"), site.get("forecast")
    if forecast and forecast.get("energy_j") is not None:
        items.append(f"forecast {fmt_energy(forecast['energy_j'], forecast.get('interval_j'))} "
                     f"({Basis(forecast['basis']).label})")
    html = " · ".join(escape(item) for item in items)
    if profile and profile.get("stale"):
        html += (' · <span class=stale>this line changed since it was measured here: '
                 "the figure is the forecast</span>")
    return html
