"""The calibration overlay a check's figures apply (the line that says so: `report.calibration_note`)."""

from __future__ import annotations

from pathlib import Path


def applied(overlay_root: Path | None) -> dict | None:
    """The overlay found under *overlay_root* (`path`, `hardware_id`), None without one (or with
    calibration off: no root)."""
    if overlay_root is None:
        return None
    from greenlint.hardware import calibration_overlay

    found = calibration_overlay(overlay_root)
    return None if found is None else {"path": str(found), "hardware_id": found.name}

