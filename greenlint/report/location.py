"""Shared pieces of the reporters: positions and the summary line."""

from __future__ import annotations


def position(span) -> str:
    """`line:col`, or `cell N:line:col` in a notebook (line relative to the cell)."""
    where = f"{span.line}:{span.column}"
    return f"cell {span.cell}:{where}" if span.cell is not None else where


def one_line(message: str) -> str:
    """A message on one line (human formats print one line per diagnostic)."""
    return " ".join(message.split())


def summary(diagnostics) -> str:
    """The closing line of the human formats."""
    n = len(diagnostics)
    if not n:
        return "All checks passed!"
    return f"Found {n} diagnostic{'s' if n != 1 else ''}."
