"""Whether a module caches its `tf.data` pipelines when the program runs with its defaults.

A `Dataset.cache()` that an option guards and leaves off by default (`if FLAGS.cache_dataset:
dataset = dataset.cache()` with the flag defaulting to False; `defaults.off_by_default`) saves
nothing on the runs the program makes unless told: it does not count as caching, and a finding
names it with the option that turns it on. One guarded by an option on by default, by a test the
code does not settle, or by none, counts."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.defaults import off_by_default
from greenlint.rules.site import is_dataset_method


def caches(facts: FileFacts) -> bool:
    """Whether the module calls `Dataset.cache()` where the program's defaults run it."""
    return any(test is None for _, test in _caches(facts))


def optional_cache(facts: FileFacts) -> str:
    """A clause naming the module's first `Dataset.cache()` that runs only when an option asks for it
    ("; the `.cache()` at line 77 does not run with the program's defaults (`if FLAGS.cache_dataset:` at
    line 76): set that option, or make caching the default"), "" where it has none."""
    line, test = next(((line, test) for line, test in _caches(facts) if test is not None), (0, None))
    if test is None:
        return ""
    return (
        f"; the `.cache()` at line {line} does not run with the program's defaults (`if {ast.unparse(test)}:` at"
        f" line {test.lineno}): set that option, or make caching the default"
    )


def _caches(facts: FileFacts) -> list[tuple[int, ast.expr | None]]:
    """Each `Dataset.cache()` call of the module: its line, and the test of the `if` that keeps it from
    running with the program's defaults (None where they run it)."""
    return [
        (site.callsite.span.line, off_by_default(facts, facts.node(site), site.callsite.span.cell))
        for site in facts.sites
        if is_dataset_method(site.api, "cache")
    ]
