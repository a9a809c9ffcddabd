"""The energy of several call sites together (a file, a notebook, a report): one definition for
every view that shows it, the editor's code lens, inlay hints and status bar, and the energy
report's header.

Each site counts its joules per execution times how often it runs per program run. The total is
the sum of the figures, and its range the sum of the low ends to the sum of the high ends (a
floor's low end is its figure, "at least"; a bound's is 0; a figure without an interval is both
ends). It reads as the range where that range is what is known (wider than the point can say, as
`fmt_energy` decides for one site, or holding a floor), else as the point; the floors and the sites
without an estimate are counted beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from greenlint.units import fmt_energy, fmt_range

#: One call site as the total reads it: (joules per execution or None, its interval or None,
#: runs per program run, whether the figure is a floor, whether the run count is known: where it is
#: not, `runs` is the literal loops around the call).
Figure = tuple[float | None, tuple[float, float] | None, int, bool, bool]


@dataclass(frozen=True)
class Total:
    """Several call sites' energy for one run of the program."""

    calls: int = 0  # sites with an estimate
    unknown: int = 0  # sites without one
    floors: int = 0  # sites whose figure is a floor (data size or FLOPs unknown)
    uncounted: int = 0  # sites run an unknown number of times, counted by their literal loops
    joules: float = 0.0  # the sum of the figures
    low: float = 0.0  # the sum of the low ends
    high: float = 0.0  # the sum of the high ends

    def figure(self, unit: str = "auto") -> str:
        """`1.12 kJ`, or `264 J – 940 MJ` where the figures are ranges; `no estimate` without any."""
        if not self.calls:
            return "no estimate"
        if self.floors:
            return fmt_range(self.low, self.high, unit)
        return fmt_energy(self.joules, (self.low, self.high), unit=unit)

    def caveats(self) -> list[str]:
        """What the figure leaves open: `2 floors (data size or FLOPs unknown)`, `1 call run an unknown number
        of times (counted by its literal loops)`, `1 call without an estimate`."""
        said = []
        if self.floors:
            said.append(f"{self.floors} floor{'s' if self.floors != 1 else ''} (data size or FLOPs unknown)")
        if self.uncounted:
            one = self.uncounted == 1
            said.append(f"{self.uncounted} call{'' if one else 's'} run an unknown number of times "
                        f"(counted by {'its' if one else 'their'} literal loops)")
        if self.unknown:
            said.append(f"{self.unknown} call{'s' if self.unknown != 1 else ''} without an estimate")
        return said


def shown_interval(energy: float, interval: tuple[float, float] | None, floor: bool) -> tuple[float, float] | None:
    """A site's interval as every view shows it: a floor's starts at its figure ("at least")."""
    return (energy, interval[1]) if floor and interval else interval


def file_total(figures: Iterable[Figure]) -> Total:
    """The total of call sites given as (joules per execution, interval, runs, floor, counted)."""
    calls = unknown = floors = uncounted = 0
    joules = low = high = 0.0
    for energy, interval, runs, floor, counted in figures:
        if energy is None:
            unknown += 1
            continue
        calls += 1
        floors += bool(floor)
        uncounted += not counted
        joules += energy * runs
        ends = shown_interval(energy, interval, floor) or (energy, energy)
        low, high = low + ends[0] * runs, high + ends[1] * runs
    return Total(calls, unknown, floors, uncounted, joules, low, high)
