"""Held-out call-site recall and API match of the resolver on the sources Greenlight measured.

    python -m tools.kb.call_site_recall --docs <tensorflow/docs git dir> [--misses N]

Each Greenlight record names the script and the line of the call it measured (`api_call_line`)
and the API it measured. For a notebook, that line counts the lines of its code cells in order,
each cell's source split at newlines (one ending in a newline ends with an empty line), without
the lines that are only a comment or an IPython `!`/`%` command: a reconstruction of CodeGreen's
conversion, checked on the misses (they are the resolver's, not one-line-off runs). The resolver (greenlint.analysis) is run on
the source at the measured commit, and for each measured call site (script, line, API):

- recall: the resolver reports a TF call on that line;
- API match: one of the calls it reports on that line has the measured API. The data names a
  call of an instance held in a name by the instance's class (`tensorflow.keras.Model` for
  `model(x)`, as the catalog notes), so a measured `X` also matches a resolved `X.__call__`.

The measured data was never used to write the resolver's rules, so the sites are held out.
Sources of repositories other than tensorflow/docs are counted only with `--repo`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from greenlint.analysis.sources import notebook_cells
from tools.kb.static_features import DOCS_REPOSITORY, git_show, greenlight_sources, names_call, resolve_source

GOALS = {"recall": 0.98, "api_match": 0.96}


def code_lines(notebook: str) -> list[tuple[int, int]]:
    """(cell, line in cell) of each line of a notebook's converted script: its code cells' lines
    in order, without lines that are only a comment or a `!`/`%` command."""
    out = []
    cells, error = notebook_cells("notebook", notebook)
    if error is not None:
        raise ValueError(error.message)
    for number, text in enumerate(cells, 1):
        for line_number, line in enumerate(text.split("\n"), 1):
            if not line.strip().startswith(("#", "!", "%")):
                out.append((number, line_number))
    return out


@dataclass
class Score:
    sites: int = 0
    found: int = 0
    matched: int = 0
    no_source: int = 0
    misses: list = field(default_factory=list)

    def ratio(self, count: int) -> float | None:
        return count / self.sites if self.sites else None


def score(records: Sequence, *, repos: dict[str, Path], shared: Path) -> Score:
    """Recall and API match over the distinct measured Greenlight call sites of *records*."""
    sources = greenlight_sources(shared)
    sites: dict[tuple, set[str]] = defaultdict(set)
    for r in records:
        if r.dataset != "greenlight" or r.line is None:
            continue
        src = sources.get((r.project, r.script, r.experiment, r.index))
        if src is not None:
            sites[(*src, r.line)].add(r.api)
    result = Score()
    by_source: dict[tuple, list] = defaultdict(list)
    for (repo, commit, path, line), apis in sites.items():
        for api in apis:
            by_source[(repo, commit, path)].append((line, api))
    for (repo, commit, path), measured in sorted(by_source.items()):
        text = git_show(repos[repo], commit, path) if repo in repos and path else None
        result.sites += len(measured)
        if text is None:
            result.no_source += len(measured)
            result.sites -= len(measured)
            continue
        found = defaultdict(set)
        for res in resolve_source(text, path):
            found[(res.cell, res.line)].add(res.api)
        positions = code_lines(text) if path.endswith(".ipynb") else None
        for line, api in sorted(measured):
            if positions is None:
                where = (None, line)
            else:
                where = positions[line - 1] if 0 < line <= len(positions) else None
            apis = found.get(where, set()) if where else set()
            named = any(names_call(api, a) for a in apis)
            result.found += bool(apis)
            result.matched += named
            if not named:
                result.misses.append((path, where, api, sorted(apis)))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    from greenlint.kb.store import default_kb_dir, load_kb
    from greenlint.paths import shared_dir

    ap = argparse.ArgumentParser(prog="python -m tools.kb.call_site_recall", description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=Path, required=True, help="git directory of a tensorflow/docs snapshot")
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=GITDIR",
                    help="git directory of another repository Greenlight measured (repeatable)")
    ap.add_argument("--kb", type=Path, default=None, help="KB directory (default: the bundled data/kb)")
    ap.add_argument("--misses", type=int, default=0, help="print this many misses, grouped by API")
    ap.add_argument("--write", type=Path, default=None, metavar="JSON",
                    help="also write the figures there (bench/rules/resolver.json feeds docs/rules/README.md)")
    args = ap.parse_args(argv)
    shared = shared_dir()
    if shared is None:
        print("error: ../shared (the Greenlight records' metadata) not found", file=sys.stderr)
        return 2
    repos = {DOCS_REPOSITORY: args.docs}
    for spec in args.repo:
        name, sep, git_dir = spec.partition("=")
        if not sep or name.count("/") != 1:
            ap.error(f"--repo {spec!r}: expected OWNER/NAME=GITDIR")
        repos[f"https://github.com/{name}"] = Path(git_dir)
    s = score(load_kb(args.kb or default_kb_dir(), static=False), repos=repos, shared=shared)
    print(f"{s.sites} measured call sites with a readable source ({s.no_source} without one)")
    for name, count in (("recall", s.found), ("api_match", s.matched)):
        value = s.ratio(count)
        verdict = "met" if value is not None and value >= GOALS[name] else "missed"
        print(f"{name}: {count}/{s.sites} = {value:.3f} (goal >= {GOALS[name]}: {verdict})")
    if args.write:
        from greenlint.atomic import atomic_write_text

        figures = {
            "sites": s.sites, "no_source": s.no_source, "found": s.found, "matched": s.matched,
            "recall": round(s.ratio(s.found), 3), "api_match": round(s.ratio(s.matched), 3), "goals": GOALS,
            "command": "python -m tools.kb.call_site_recall --docs <tensorflow/docs git dir> --write bench/rules/resolver.json",
        }
        atomic_write_text(args.write, json.dumps(figures, indent=1) + "\n")
    if args.misses:
        by_api = Counter(api for _, _, api, _ in s.misses)
        for api, n in by_api.most_common(args.misses):
            example = next(m for m in s.misses if m[2] == api)
            print(f"  {n:4d} {api}  e.g. {example[0]} {example[1]}: resolver {example[3] or 'nothing'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
