"""CPU package and DRAM energy through `perf stat -e power/energy-pkg/,power/energy-ram/`.

The second RAPL reader, for machines where perf may read RAPL but powercap files are root-only
(perf's power PMU is governed by `perf_event_paranoid` / CAP_PERFMON instead). perf prints the
energy of each interval (`-I`, at least 10 ms); a reader thread adds them up into cumulative
joules. This is the reader FECoM used (at 500 ms); prefer powercap where it is readable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

from greenlint.meter.counters.base import (
    CUMULATIVE_COUNTER,
    Availability,
    EnergySource,
    Reading,
    SourcePermissionError,
    SourceReadError,
    SourceUnavailable,
    SourceUnsupported,
    now,
)

EVENTS = {"power/energy-pkg/": "cpu", "power/energy-ram/": "ram"}
PMU_DIR = Path("/sys/bus/event_source/devices/power/events")
PARANOID = Path("/proc/sys/kernel/perf_event_paranoid")
PERMISSION_FIX = (
    "system-wide perf events need root, CAP_PERFMON, or `sudo sysctl kernel.perf_event_paranoid=0` "
    "(persist it in /etc/sysctl.d/)"
)


def parse_line(line: str) -> tuple[str, float] | None:
    """(component, joules) from one `perf stat -x, -I` CSV line, or None for anything else."""
    parts = line.strip().split(",")
    if len(parts) < 4:
        return None
    comp = EVENTS.get(parts[3])
    if comp is None:
        return None
    try:
        return comp, float(parts[1])
    except ValueError:
        return None  # "<not counted>" / "<not supported>"


class PerfSource(EnergySource):
    name = "perf"
    measures = ("cpu", "ram")
    capabilities = frozenset({CUMULATIVE_COUNTER})
    resolution_j = 1e-6

    @classmethod
    def probe(cls, pmu_dir: Path = PMU_DIR, paranoid: Path = PARANOID) -> Availability:
        if shutil.which("perf") is None:
            return Availability.no(SourceUnavailable, "the `perf` tool is not installed (linux-tools / linux-perf package)")
        if not (Path(pmu_dir) / "energy-pkg").exists():
            return Availability.no(
                SourceUnsupported, f"{pmu_dir}/energy-pkg is absent: this kernel/CPU exposes no RAPL perf events"
            )
        try:
            level = int(Path(paranoid).read_text().strip())
        except (OSError, ValueError):
            level = 2
        if level > 0 and os.geteuid() != 0:
            return Availability.no(SourcePermissionError, f"perf_event_paranoid is {level}: {PERMISSION_FIX}")
        return Availability.yes("perf power events")

    def __init__(self, interval_ms: int = 20):
        avail = self.probe()
        if not avail.ok:
            raise avail.error(self.name, avail.reason)
        events = [e for e in EVENTS if (PMU_DIR / e.split("/")[1]).exists()]
        self.measures = tuple(EVENTS[e] for e in events)
        self.update_period_s = max(10, interval_ms) / 1000
        self._totals = {c: 0.0 for c in self.measures}
        self._lock = threading.Lock()
        self._proc = subprocess.Popen(
            ["perf", "stat", "-a", "-x,", "-I", str(max(10, interval_ms)), "-e", ",".join(events)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        for line in self._proc.stderr:
            parsed = parse_line(line)
            if parsed:
                with self._lock:
                    self._totals[parsed[0]] += parsed[1]

    def _read(self) -> Reading:
        if self._proc.poll() is not None:
            raise SourceReadError(self.name, f"perf exited with status {self._proc.returncode}")
        t, epoch = now()
        with self._lock:
            return Reading(t, epoch, dict(self._totals))

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            self._proc.wait(timeout=5)
