"""How joules (and durations) read for people, one copy for the CLI, the rules and the editor."""

from __future__ import annotations

#: The multiplication sign used everywhere a factor is shown (loops, epochs, calls).
TIMES = "×"

#: An 80 % interval wider than this (high / low) is shown as a range, not a point.
POINT_MAX_RATIO = 100.0


#: The units people may ask for (the editor's `greenlint.unit`): `auto` scales joules to kJ / MJ,
#: `J` keeps joules, `Wh` shows watt-hours (mWh / Wh / kWh).
UNITS = ("auto", "J", "Wh")
_SCALES = {  # (from this many joules, divide by, unit name)
    "auto": ((1e6, 1e6, "MJ"), (1e3, 1e3, "kJ"), (1e-3, 1.0, "J"), (0.0, 1e-3, "mJ")),
    "J": ((0.0, 1.0, "J"),),
    "Wh": ((3.6e6, 3.6e6, "kWh"), (3.6e3, 3.6e3, "Wh"), (0.0, 3.6, "mWh")),
}


def fmt_j(value: float, unit: str = "auto") -> str:
    """Joules in a readable unit: `0.42 J`, `1.3 kJ`, `2.1 MJ`, `0.0395 mJ` (`unit="Wh"`: `0.36 Wh`, `1.2 kWh`)."""
    scales = _SCALES[unit]
    rounded = float(f"{value:.3g}")  # 999.7 J reads 1 kJ, not 1e+03 J
    if rounded == 0:
        return f"0 {'Wh' if unit == 'Wh' else 'J'}"
    _, scale, name = next((s for s in scales if abs(rounded) >= s[0]), scales[-1])
    shown = value / scale
    return f"{shown:,.0f} {name}" if abs(shown) >= 1000 else f"{shown:.3g} {name}"


_DURATIONS = ((1.0, 1.0, "s"), (1e-3, 1e-3, "ms"), (1e-6, 1e-6, "µs"), (0.0, 1e-9, "ns"))


def fmt_s(value: float) -> str:
    """Seconds in a readable unit, 3 significant digits: `1 ns`, `0.5 µs`, `1 ms`, `12.5 s`."""
    rounded = float(f"{value:.3g}")  # 999.7 µs reads 1 ms
    if rounded == 0:
        return "0 s"
    _, scale, name = next(s for s in _DURATIONS if abs(rounded) >= s[0])
    shown = value / scale
    return f"{shown:,.0f} {name}" if abs(shown) >= 1000 else f"{shown:.3g} {name}"


def fmt_count(value: object) -> str:
    """A count as messages say it, thousands separated: `100,000`, `12`, `2.5` (anything else as is)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:,.0f}" if value >= 1000 else f"{value:g}" if isinstance(value, float) else str(value)


def fmt_counted(value: object, noun: str) -> str:
    """A count with its noun, plural but for one: `1 sample`, `60,000 samples`."""
    return f"{fmt_count(value)} {noun}{'' if value == 1 else 's'}"


def fmt_bytes(size: float) -> str:
    """Bytes in a readable unit, 3 significant digits: `644 bytes`, `1.2 kB`, `295 MB`."""
    scale, name = next(((s, n) for s, n in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")) if size >= s), (1.0, "bytes"))
    return f"{size / scale:.3g} {name}"


def fmt_range(low: float, high: float, unit: str = "auto") -> str:
    """`1.2 J – 40 J`."""
    return f"{fmt_j(low, unit)} – {fmt_j(high, unit)}"


def interval_ratio(interval: tuple[float, float] | None) -> float | None:
    """high / low of an interval; None when there is none or it touches zero."""
    if not interval or interval[0] <= 0:
        return None
    return interval[1] / interval[0]


def fmt_energy(
    value: float | None, interval: tuple[float, float] | None, factor: float = 1.0, unit: str = "auto"
) -> str:
    """The figure as people should read it: a point (`12 J`), or the range when the 80 % interval is
    wider than POINT_MAX_RATIO (the point would say more than is known); `no estimate` without one.
    An interval of no width (a symbolic call's 0 J) is the point itself, not a range."""
    if value is None:
        return "no estimate"
    if interval and shown_as_range(interval):
        return fmt_range(interval[0] * factor, interval[1] * factor, unit)
    return fmt_j(value * factor, unit)


def shown_as_range(interval: tuple[float, float]) -> bool:
    """`fmt_energy` states a figure of this 80 % interval as the interval, not its point: wider than
    POINT_MAX_RATIO (or from zero)."""
    ratio = interval_ratio(interval)
    return interval[1] > interval[0] and (ratio is None or ratio > POINT_MAX_RATIO)
