"""Progress bars a loop iterates through (`for epoch in tqdm(range(100))`, `trange(epochs)`,
`rich.progress.track(batches)`): each yields what it wraps, so the loop runs as often as its
iterable does. Named by the path they are imported as."""

from __future__ import annotations

#: Libraries whose progress bars are read; nothing else of theirs is.
ROOTS = frozenset({"tqdm", "rich", "progressbar"})
#: Bars that iterate their first argument.
WRAPPERS = frozenset({
    "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.autonotebook.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm",
    "tqdm.rich.tqdm", "tqdm.contrib.tenumerate", "rich.progress.track", "progressbar.progressbar",
})
#: Bars that iterate `range(*args)` (tqdm's `trange(n)` is `tqdm(range(n))`).
RANGES = frozenset({
    "tqdm.trange", "tqdm.auto.trange", "tqdm.autonotebook.trange", "tqdm.notebook.trange",
    "tqdm.notebook.tnrange", "tqdm.tnrange", "tqdm.std.trange", "tqdm.rich.trange",
})

#: Each bar and every module above it (`tqdm`, `tqdm.auto`, `tqdm.auto.tqdm`).
_HELD = frozenset(path.rsplit(".", dots)[0] for path in WRAPPERS | RANGES for dots in range(path.count(".") + 1))


def holds(path: str) -> bool:
    """Whether *path* is a progress bar or a module holding one: an import the resolver follows."""
    return path in _HELD
