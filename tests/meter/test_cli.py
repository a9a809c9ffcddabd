"""The measure and calibrate commands' cheap paths (no TensorFlow run)."""

from __future__ import annotations

import json

from greenlint.cli import main


def test_calibrate_list_shows_the_quick_suite(capsys):
    assert main(["calibrate", "--quick", "--list"]) == 0
    out = capsys.readouterr().out
    assert "mlp_fit_1024" in out and "tensorflow.keras.Sequential.fit" in out
    assert "27 workloads, 3 repeats each" in out and "mlp_fit_4096_3_epochs" in out
    assert "mlp_fit_8192_5_epochs" not in out  # the full suite's longer fit


def test_calibrate_unknown_workload_is_an_error(capsys):
    assert main(["calibrate", "--only", "nope"]) == 2
    assert "unknown workload(s): nope" in capsys.readouterr().err


def test_calibrate_status_without_and_with_an_overlay(tmp_path, monkeypatch, capsys):
    from greenlint.hardware import hardware_id
    from greenlint.meter.calibrate import overlay_dir

    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["calibrate", "--status"]) == 0
    assert "no calibration overlay yet" in capsys.readouterr().err
    d = overlay_dir(hardware_id())
    d.mkdir(parents=True)
    w = {"api": "a", "spread_j": 0.05}
    (d / "calibration.json").write_text(json.dumps({
        "mode": "quick", "finished_at": "2026-01-01T00:00:00Z", "basis": "calibrated-estimated",
        "workloads": {"x": w, "y": {**w, "spread_j": 0.2}}, "apis": {"a": {}}, "kb": {"records": 6},
        "load": {"windows": 6, "cores": 2, "others_busy_cores": {"median": 0.9, "max": 1.7},
                 "loadavg_1m": {"median": 3.5, "max": 6.0}, "loaded_windows": 4},
        "startup": {"statement": "import tensorflow", "runs": 3, "cpu_s": 4.9, "energy_j": 49.0,
                    "interval_j": [48.0, 51.0], "kept_from": "2025-12-31T00:00:00Z"},
    }))
    assert main(["calibrate", "--status"]) == 0
    err = capsys.readouterr().err
    assert "basis calibrated-estimated" in err and "1 of 2 within the 10% spread goal" in err
    assert ("a program's start-up (`import tensorflow` in a fresh interpreter, 3 runs): 4.9 CPU s, 49 J estimated, "
            "kept from 2025-12-31T00:00:00Z") in " ".join(err.split())
    # the load it was measured under, and a busy machine said so
    assert "other processes kept 0.90 of 2 cores busy (most 1.70)" in err and "4 of 6 windows on a busy machine" in err


def test_measure_missing_script_names_it(tmp_path, capsys):
    assert main(["measure", "--out", str(tmp_path), str(tmp_path / "missing.py")]) == 2
    assert f"{tmp_path / 'missing.py'}: cannot read file: No such file" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing written


def test_measure_summary_says_not_measured_or_unresolved_never_zero():
    import io

    from rich.console import Console

    from greenlint.cli.measure_cmd import _print_summary
    from greenlint.meter.measure import LevelResult

    site = {"api": "tensorflow.matmul", "line": 4, "cell": None}
    summary = {"records": 2, "meter": {"basis": "not-measured", "components": {}}, "sites": [
        {"site": site, "executions": 3, "median_j": None, "iqr_j": None, "time_s": 0.001, "upper_bound_j": None,
         "note": "not measured: no readable energy counter (times only)"},
        {"site": {**site, "line": 5}, "executions": 20, "median_j": None, "iqr_j": None, "time_s": 0.02,
         "upper_bound_j": 0.5, "note": "below the counter's resolution over 20 executions: it needs about 900 executions"},
    ]}
    out = io.StringIO()
    _print_summary(LevelResult("method", None, 0, summary), Console(file=out, width=300, color_system=None))
    text = out.getvalue()
    assert "not measured" in text and "unresolved (< 0.5 J)" in text and "it needs about 900 executions" in text
    assert "times only" in text and "0 J" not in text.replace("0.5 J", "")
