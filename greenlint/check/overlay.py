"""The calibration overlay a check's figures apply, and the line that says so."""

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


def note(calibration: dict | None) -> str | None:
    """The one line saying which overlay the figures applied (None without one): `check` prints it
    on stderr, `calls` after its table, and README.md quotes it."""
    if calibration is None:
        return None
    return (f"figures calibrated here by {calibration['path']} (hardware {calibration['hardware_id']}); "
            "--no-calibration for the reference figures")
