"""CPU package and DRAM energy from Linux powercap RAPL (`/sys/class/powercap/intel-rapl:*`).

Each zone directory holds `name` (`package-N`, `dram`, `core`, `uncore`, `psys`), `energy_uj`
(a microjoule counter that wraps at `max_energy_range_uj`). Package zones sum into "cpu", DRAM
zones into "ram"; core/uncore are parts of a package and psys spans the platform, so both are
skipped. AMD CPUs appear through the same interface on kernels that expose it. The counter
changes about every millisecond, so reading it every 10-50 ms is far above FECoM's 0.5 s.
A wrap is detected as a reading smaller than the last one; reads must therefore come more often
than one wrap period (minutes at typical power), which the sampler does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from greenlint.meter.counters.base import (
    CUMULATIVE_COUNTER,
    PER_DEVICE,
    Availability,
    EnergySource,
    Reading,
    SourcePermissionError,
    SourceReadError,
    SourceUnavailable,
    now,
)

POWERCAP_ROOT = Path("/sys/class/powercap")

PERMISSION_FIX = (
    "energy_uj is readable only by root on kernels patched for CVE-2020-8694 (Platypus). "
    "Either run as root, or grant read access: once with "
    "`sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj /sys/class/powercap/intel-rapl:*:*/energy_uj` "
    "(lost at reboot), or permanently with a udev rule such as "
    '`ACTION=="add", SUBSYSTEM=="powercap", RUN+="/bin/chmod o+r /sys%p/energy_uj"` '
    "in /etc/udev/rules.d/70-powercap.rules"
)


def _component(zone_name: str) -> str | None:
    if zone_name.startswith("package"):
        return "cpu"
    if zone_name == "dram":
        return "ram"
    return None


@dataclass
class _Zone:
    path: Path
    name: str
    component: str
    max_uj: int
    last_uj: int = 0
    wrapped_uj: int = 0

    def read_uj(self) -> int:
        raw = (self.path / "energy_uj").read_text().strip()
        value = int(raw)
        if value < self.last_uj:
            self.wrapped_uj += self.max_uj
        self.last_uj = value
        return self.wrapped_uj + value


def _zone_dirs(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("intel-rapl:*") if (p / "name").is_file())


def _readable(path: Path) -> str | None:
    """None if *path* reads, otherwise the reason."""
    try:
        with open(path) as fh:
            int(fh.read().strip())
    except PermissionError:
        return "permission"
    except (OSError, ValueError) as exc:
        return f"unreadable ({exc})"
    return None


class RaplSource(EnergySource):
    name = "rapl"
    measures = ("cpu", "ram")
    capabilities = frozenset({CUMULATIVE_COUNTER, PER_DEVICE})
    resolution_j = 1e-6
    update_period_s = 0.001

    @classmethod
    def probe(cls, root: Path | str = POWERCAP_ROOT) -> Availability:
        root = Path(root)
        if not root.is_dir():
            return Availability.no(
                SourceUnavailable,
                f"{root} does not exist: the kernel exposes no powercap interface here "
                "(common on cloud VMs and containers; on bare metal load the intel_rapl_common module)",
            )
        zones = [z for z in _zone_dirs(root) if _component((z / "name").read_text().strip())]
        if not zones:
            return Availability.no(SourceUnavailable, f"{root} has no RAPL package or dram zone")
        for zone in zones:
            problem = _readable(zone / "energy_uj")
            if problem == "permission":
                return Availability.no(SourcePermissionError, f"cannot read {zone / 'energy_uj'}: {PERMISSION_FIX}")
            if problem:
                return Availability.no(SourceUnavailable, f"{zone / 'energy_uj'} is {problem}")
        return Availability.yes(f"{len(zones)} RAPL zones under {root}")

    def __init__(self, root: Path | str = POWERCAP_ROOT):
        avail = self.probe(root)
        if not avail.ok:
            raise avail.error(self.name, avail.reason)
        self._zones: list[_Zone] = []
        for zdir in _zone_dirs(Path(root)):
            zname = (zdir / "name").read_text().strip()
            comp = _component(zname)
            if comp is None:
                continue
            max_uj = int((zdir / "max_energy_range_uj").read_text().strip())
            zone = _Zone(zdir, zname, comp, max_uj)
            zone.last_uj = int((zdir / "energy_uj").read_text().strip())
            self._zones.append(zone)
        self.measures = tuple(c for c in ("cpu", "ram") if any(z.component == c for z in self._zones))

    @property
    def zones(self) -> tuple[str, ...]:
        return tuple(f"{z.path.name} ({z.name})" for z in self._zones)

    def _read(self) -> Reading:
        totals: dict[str, float] = {}
        t, epoch = now()
        for zone in self._zones:
            try:
                uj = zone.read_uj()
            except PermissionError as exc:
                raise SourcePermissionError(self.name, f"cannot read {zone.path / 'energy_uj'}: {PERMISSION_FIX}") from exc
            except (OSError, ValueError) as exc:
                raise SourceReadError(self.name, f"cannot read {zone.path / 'energy_uj'}: {exc}") from exc
            totals[zone.component] = totals.get(zone.component, 0.0) + uj / 1e6
        return Reading(t, epoch, totals)
