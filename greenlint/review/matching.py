"""Pair the call sites of two versions of a project, tolerant to moved lines and renamed files.

Files pair by path, or by git's rename detection. Within a pair of files, sites pair in passes
from the strictest key to the loosest: API + enclosing function (qualified) + argument shape, then
API + enclosing function, API + argument shape (a renamed function), API alone. Across files (a
function moved to another module), API + argument shape + the same work and runs, then API +
enclosing function + argument shape. Within a key, sites doing the same work pair first, then
the others in order of position; what is left is new or removed. Lines never enter a key, so
edits above a call, reformatting and comments do not break its pairing.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Hashable

from greenlint.review.sides import SideSite

Pair = tuple[SideSite | None, SideSite | None]
Key = Callable[[SideSite, str], Hashable]  # a site and its fingerprint -> the key it pairs by

_WITHIN: tuple[Key, ...] = (
    lambda s, fp: (s.api, s.callsite.scope, s.callsite.shape),
    lambda s, fp: (s.api, s.callsite.scope),
    lambda s, fp: (s.api, s.callsite.shape),
    lambda s, fp: s.api,
)
_ACROSS: tuple[Key, ...] = (
    lambda s, fp: (s.api, s.callsite.shape, fp),
    lambda s, fp: (s.api, s.callsite.scope, s.callsite.shape),
)
#: features that say where a call sits or how a value was found, not what it computes (runs say how often)
PLACE_FEATURES = frozenset(
    {"loop_multiplier", "loop_depth", "loop_unbounded", "in_tf_function", "in_keras_step", "receiver", "batch_size_from"}
)


def fingerprint(site: SideSite) -> str:
    """What a site computes and how often: its features, work values and run count."""
    features = {k: v for k, v in site.callsite.features.items() if k not in PLACE_FEATURES}
    work = {k: (e.value, e.bound) for k, e in site.callsite.work.items()}
    return json.dumps([site.api, features, work, site.program_runs], sort_keys=True, default=str)


def match(before: list[SideSite], after: list[SideSite], renames: dict[str, str]) -> list[Pair]:
    """Every site of both sides once: (old, new), (old, None) removed, (None, new) new."""
    fps = {id(s): fingerprint(s) for s in (*before, *after)}
    pairs: list[Pair] = []

    def pair_by(key: Key, olds: list[SideSite], news: list[SideSite]) -> tuple[list, list]:
        groups: dict[Hashable, tuple[list, list]] = defaultdict(lambda: ([], []))
        for s in olds:
            groups[key(s, fps[id(s)])][0].append(s)
        for s in news:
            groups[key(s, fps[id(s)])][1].append(s)
        used: set[int] = set()
        for group_old, group_new in groups.values():
            start = len(pairs)
            free = sorted(group_new, key=lambda s: s.position)
            rest = []
            for old in sorted(group_old, key=lambda s: s.position):
                same = next((n for n in free if fps[id(n)] == fps[id(old)]), None)
                if same is None:
                    rest.append(old)
                else:
                    pairs.append((old, same))
                    free.remove(same)
            pairs.extend(zip(rest, free))
            used.update(id(s) for pair in pairs[start:] for s in pair)
        return [s for s in olds if id(s) not in used], [s for s in news if id(s) not in used]

    by_file: dict[str, tuple[list, list]] = defaultdict(lambda: ([], []))
    for s in before:
        by_file[renames.get(s.path, s.path)][0].append(s)
    for s in after:
        by_file[s.path][1].append(s)
    left_old: list[SideSite] = []
    left_new: list[SideSite] = []
    for olds, news in by_file.values():
        for key in _WITHIN:
            olds, news = pair_by(key, olds, news)
        left_old += olds
        left_new += news
    for key in _ACROSS:
        left_old, left_new = pair_by(key, left_old, left_new)
    return pairs + [(s, None) for s in left_old] + [(None, s) for s in left_new]
