"""`--statistics`: how many diagnostics each rule produced."""

from __future__ import annotations

import json
from collections import Counter


def counts(diagnostics) -> list[dict]:
    """Per code: name, count and how many carry a fix; most frequent first, then by code."""
    by_code = Counter(d.code for d in diagnostics)
    names = {d.code: d.name for d in diagnostics}
    fixable = Counter(d.code for d in diagnostics if d.fix is not None)
    order = sorted(by_code, key=lambda c: (-by_code[c], c))
    return [{"code": c, "name": names[c], "count": by_code[c], "fixable": fixable[c]} for c in order]


def render(diagnostics, *, as_json: bool) -> str:
    rows = counts(diagnostics)
    if as_json:
        return json.dumps(rows, indent=2) + "\n"
    if not rows:
        return ""
    count_width = max(len(str(r["count"])) for r in rows)
    code_width = max(len(r["code"]) for r in rows)
    return "".join(f"{r['count']:>{count_width}}  {r['code']:<{code_width}}  {r['name']}\n" for r in rows)
