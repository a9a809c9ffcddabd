"""The rich console every command prints tables with."""

from __future__ import annotations


def make_console(file=None, **kwargs):
    """A rich Console; when piped, lines are never cut (tables size themselves to their content)."""
    from rich.console import Console

    console = Console(file=file, highlight=False, **kwargs)
    if not console.is_terminal:
        console.width = 1000
    return console
