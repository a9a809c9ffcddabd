"""An *estimate* of CPU energy for machines with no readable counter (most cloud VMs, CI).

Joules = CPU seconds used by the measured process x watts per busy logical core. CPU time comes
from `time.process_time()` (this process, all threads, ns resolution) or `/proc/<pid>/stat`
(another process and its waited-for children, 10 ms ticks). The power model is CodeCarbon's idea
of spreading the CPU's TDP over its cores: `tdp_w / logical cores`, from the `tdp_w` option or
`GREENLINT_CPU_TDP_W`; without either an assumed `DEFAULT_W_PER_CORE` is used and said so.
Only "cpu" is reported: DRAM and GPU stay "not measured". Everything is labelled estimated.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from greenlint.meter.counters.base import ESTIMATED, Availability, EnergySource, Reading, SourceUnavailable, now

DEFAULT_W_PER_CORE = 10.0  # assumption: a busy logical core of a server/desktop CPU (TDP / threads)


def watts_per_core(tdp_w: float | None = None) -> tuple[float, str]:
    """(W per busy logical core, where the figure came from)."""
    cores = os.cpu_count() or 1
    if tdp_w is None and os.environ.get("GREENLINT_CPU_TDP_W"):
        tdp_w, origin = float(os.environ["GREENLINT_CPU_TDP_W"]), "GREENLINT_CPU_TDP_W"
    else:
        origin = "--cpu-tdp-w"
    if tdp_w:
        return tdp_w / cores, f"TDP {tdp_w:g} W / {cores} logical cores ({origin})"
    return DEFAULT_W_PER_CORE, f"assumed {DEFAULT_W_PER_CORE:g} W per busy logical core (set GREENLINT_CPU_TDP_W)"


def _proc_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


class EstimatedSource(EnergySource):
    name = "estimated"
    measures = ("cpu",)
    capabilities = frozenset({ESTIMATED})

    @classmethod
    def probe(cls, pid: int | None = None, **_options) -> Availability:
        if pid is not None and not Path(f"/proc/{pid}/stat").exists():
            return Availability.no(SourceUnavailable, f"/proc/{pid}/stat is absent (no such process, or not Linux)")
        return Availability.yes("process CPU time x power model (estimated)")

    def __init__(self, tdp_w: float | None = None, pid: int | None = None):
        avail = self.probe(pid=pid)
        if not avail.ok:
            raise avail.error(self.name, avail.reason)
        self._pid = pid
        self.w_per_core, self.model = watts_per_core(tdp_w)
        if pid is None:
            self.resolution_j = time.get_clock_info("process_time").resolution * self.w_per_core
            self.update_period_s = time.get_clock_info("process_time").resolution
        else:
            self.update_period_s = 1 / os.sysconf("SC_CLK_TCK")
            self.resolution_j = self.update_period_s * self.w_per_core

    def cpu_seconds(self) -> float:
        return time.process_time() if self._pid is None else _proc_cpu_s(self._pid)

    def _read(self) -> Reading:
        t, epoch = now()
        return Reading(t, epoch, {"cpu": self.cpu_seconds() * self.w_per_core})

    def describe(self) -> dict:
        return {**super().describe(), "power_model": self.model}
