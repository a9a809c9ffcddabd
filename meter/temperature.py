"""CPU temperature for the stable-state check (hwmon coretemp/k10temp, else thermal zones)."""

from __future__ import annotations

from pathlib import Path

CPU_SENSORS = ("coretemp", "k10temp", "zenpower", "cpu_thermal")
CPU_ZONES = ("x86_pkg_temp", "cpu-thermal", "acpitz")


def cpu_temperature(sys_root: Path = Path("/sys/class")) -> float | None:
    """Hottest CPU sensor in degrees C, or None where no sensor is readable (VMs, containers)."""
    temps = []
    for hw in sorted((sys_root / "hwmon").glob("hwmon*")):
        try:
            if (hw / "name").read_text().strip() not in CPU_SENSORS:
                continue
            temps += [int(p.read_text()) / 1000 for p in hw.glob("temp*_input")]
        except (OSError, ValueError):
            continue
    if not temps:
        for zone in sorted((sys_root / "thermal").glob("thermal_zone*")):
            try:
                if (zone / "type").read_text().strip() in CPU_ZONES:
                    temps.append(int((zone / "temp").read_text()) / 1000)
            except (OSError, ValueError):
                continue
    return max(temps) if temps else None
