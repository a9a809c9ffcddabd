"""Human-readable energy amounts."""

from __future__ import annotations

_PREFIXES = ((1e6, "MJ"), (1e3, "kJ"), (1.0, "J"), (1e-3, "mJ"), (1e-6, "µJ"))


def joules(value: float | None) -> str:
    """`12.3 kJ`, `450 mJ`; `-` when unknown. Three significant digits."""
    if value is None:
        return "-"
    if value == 0:
        return "0 J"
    for scale, unit in _PREFIXES:
        if abs(value) >= scale:
            break
    return f"{value / scale:.3g} {unit}"
