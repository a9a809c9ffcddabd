"""How many workers a Keras fit draws its batches with, where one host worker prepares them: a
`Sequence` that reads or warps its items in one worker (GL407, GL602), a `fit()` whose `workers` is 0 or 1
(GL409, GL602), as written or as the program's defaults set it (`rules.defaults`)."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts, argument, binds, keyword
from greenlint.rules.callbacks import constructors
from greenlint.rules.defaults import default_value
from greenlint.rules.site import Site


def fed_in_one_worker(facts: FileFacts, site: Site) -> str | None:
    """How the one worker of a fit fed by a `Sequence` that reads or warps its items on the host
    (not a slice of arrays in memory) is set, as `one_worker` says it; None for any other fit."""
    if site.features.get("input_kind") != "sequence":  # see GL407's Fix safety
        return None
    if site.features.get("input_plain_flow") or site.features.get("input_sliced"):
        return None  # arrays in memory, neither read nor warped per item: a slice per batch
    call = facts.node(site)
    if call is None or any(k.arg is None for k in call.keywords):
        return None
    return one_worker(facts, site, call)


def one_worker(facts: FileFacts, site: Site, call: ast.Call) -> str | None:
    """How the fit's one worker is set ("the default", "workers=1, the default of `--workers`",
    "workers=1 given to the `PyDataset`"), None where it has more than one or the number is not
    known. A fit given no `workers` draws a Keras 3 `PyDataset` with the workers it is made with
    (`constructed_workers`), else those its constructor gives `super().__init__()` (the
    analysis's `input_workers`)."""
    if keyword(call, "workers") is None and not binds(call, "workers", position=10):
        made = constructed_workers(facts, call)
        given = site.features.get("input_workers") if made is None else made
        if given is not None:
            return f"workers={given} given to the `PyDataset`" if isinstance(given, int) and 0 <= given <= 1 else None
    found = worker_setting(facts, site, call)
    return None if found is None else found[1]


def constructed_workers(facts: FileFacts, call: ast.Call) -> int | str | None:
    """The `workers` the call constructing the fit's input passes it (`Images(paths, workers=4)`,
    directly or through the name the file assigns it to: a Keras 3 `PyDataset` takes them so):
    the literal count, "given" where not a literal or where the constructions disagree, None
    where none passes any."""
    data = argument(call, "x", 0) or argument(call, "generator")
    made = constructors(facts, data) if data is not None else None
    found: set[int | str] = set()
    for construction in made or []:
        given = keyword(construction, "workers")
        if given is not None:
            value = given.value
            found.add(value.value if isinstance(value, ast.Constant) and type(value.value) is int else "given")
    return None if not found else found.pop() if len(found) == 1 else "given"


def worker_setting(facts: FileFacts, site: Site, call: ast.Call) -> tuple[int, str] | None:
    """The fit's number of workers where it is 0 or 1 (the default: Keras 3's `fit()` takes none),
    with how it is set; None where it has more than one or the number is not known."""
    given = keyword(call, "workers")
    if given is None:
        return None if binds(call, "workers", position=10) else (1, "the default")
    found = default_value(facts, given.value, site.callsite.span.cell)
    if found is None or not isinstance(found.value, int) or isinstance(found.value, bool) or not 0 <= found.value <= 1:
        return None
    return found.value, f"workers={found.value}" + (f", {found.where}" if found.where else "")
