"""calibrate -> check/calls round trip on a simulated machine (CPU and DRAM counters, no GPU): the
calibrator measures known per-call energies, writes the overlay, and `greenlint calls`/`check` on a
small program show figures centred on what was measured, labelled `calibrated here`, naming the
overlay; `--no-calibration`, `calibration = false` and another `--cache-dir` leave it out."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main
from greenlint.meter.calibrate import Calibrator, Plan
from tests.meter.simulated import SimulatedCounter, SimulatedTime
from tests.meter.test_calibrate import CONFIG

PLAN = Plan("quick", 3, 0.5)
#: The simulated machine's idle draw per component (W): small beside the calls' own joules, so that
#: the windows' boundary error (idle power x a sampler interval) stays a few percent.
IDLE_W = 0.05

MATMUL, SUM = "tensorflow.matmul", "tensorflow.reduce_sum"
PROGRAM = """import tensorflow as tf

a = tf.random.normal((256, 256))
b = tf.matmul(a, a)
c = tf.reduce_sum(b)
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
model.fit(a, a, epochs=5, batch_size=32)
"""


def calibrate(sim: SimulatedCounter, scale: float = 1.0) -> dict:
    # both workloads spend DRAM energy: a zero one measures as noise around 0 J, of either sign
    workloads = [
        sim.workload("matmul_256", MATMUL, 3.6e-3 * scale, 0.4e-3 * scale, features={"n": 256, "elements": 256**2, "flops": 2 * 256**3}),
        sim.workload("reduce_sum", SUM, 1.6e-3 * scale, 0.2e-3 * scale, features={"elements": 1, "flops": 1 << 20}),
    ]
    return Calibrator(PLAN, workloads, CONFIG, sim.source_set(), clock=sim.time.clock()).run(lambda wl: None, lambda: None)


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    """A cache folder holding the simulated machine's overlay, and the calibration's result."""
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GREENLINT_CACHE_DIR", str(cache))
        result = calibrate(SimulatedCounter(SimulatedTime(), IDLE_W, CONFIG.interval_s))
    return cache, result


@pytest.fixture
def program(tmp_path):
    (tmp_path / "train.py").write_text(PROGRAM)
    return tmp_path


def calls_json(capsys, *args) -> list[dict]:
    assert main(["calls", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)["call_sites"]


def by_api(objects: list[dict]) -> dict[str, dict]:
    return {o["api"]: o for o in objects}


def test_calls_show_the_figures_measured_here_labelled_and_the_overlay_named(calibrated, program, capsys):
    cache, result = calibrated
    overlay = cache / "calibration" / result["hardware_id"]
    sites = by_api(calls_json(capsys, str(program / "train.py"), "--cache-dir", str(cache)))
    named = {"path": str(overlay), "hardware_id": result["hardware_id"]}
    assert all(o["calibration"] == named for o in sites.values())
    # reduce_sum(b) sums 256 x 256 elements, the workload 1024 x 1024: calibrated here, moved to its
    # smaller work by the reference model (a dispatch-bound op: less, far from 16x less)
    sum_site, sum_measured = sites[SUM], result["apis"][SUM]["per_execution_j"]
    assert sum_site["basis"] == "calibrated" and 0.5 * sum_measured < sum_site["energy_j"] < sum_measured
    for api in (MATMUL,):
        site, measured = sites[api], result["apis"][api]["per_execution_j"]
        assert site["basis"] == "calibrated"
        assert site["energy_j"] == pytest.approx(measured, rel=1e-3)  # the call states the workload's work (KB rounding)
        low, high = site["interval_j"]
        assert low < measured < high and high / low < 2  # the measured spread, not the model's prior
        assert site["gpu_j"] is None and site["cpu_j"] > site["ram_j"] > 0  # no GPU counter here
    fit = sites["tensorflow.keras.Sequential.fit"]
    assert fit["basis"] == "calibrated-rescaled" and fit["gpu_j"] is None
    assert fit["cpu_j"] + fit["ram_j"] == pytest.approx(fit["energy_j"])

    assert main(["calls", str(program / "train.py"), "--cache-dir", str(cache)]) == 0
    text = capsys.readouterr().out
    assert "calibrated here" in text and "calibrated here, rescaled" in text
    assert f"figures calibrated here by {overlay} (hardware {result['hardware_id']})" in " ".join(text.split())


def test_check_names_the_overlay_in_text_and_json(calibrated, program, capsys):
    cache, result = calibrated
    with (program / "train.py").open("a") as f:  # a finding to carry the overlay: predict() per item (GL201)
        f.write("for row in a:\n    model.predict(row[None])\n")
    args = [str(program / "train.py"), "--select", "ALL", "--exit-zero", "--cache-dir", str(cache)]
    assert main(["check", *args]) == 0
    err = capsys.readouterr().err
    assert f"calibrated here by {cache / 'calibration' / result['hardware_id']}" in err and result["hardware_id"] in err
    assert main(["check", *args, "--format", "json"]) == 0
    diagnostics = json.loads(capsys.readouterr().out)
    assert diagnostics and all(d["calibration"]["hardware_id"] == result["hardware_id"] for d in diagnostics)


def test_the_flag_the_config_and_another_cache_dir_leave_the_overlay_out(calibrated, program, capsys, tmp_path_factory):
    cache, _ = calibrated
    path = str(program / "train.py")
    off = by_api(calls_json(capsys, path, "--cache-dir", str(cache), "--no-calibration"))
    assert all(o["calibration"] is None for o in off.values())
    assert off[MATMUL]["basis"] != "calibrated" and off[MATMUL]["gpu_j"] is not None
    (program / "pyproject.toml").write_text("[tool.greenlint]\ncalibration = false\n")
    configured = by_api(calls_json(capsys, path, "--cache-dir", str(cache)))
    assert configured[MATMUL]["calibration"] is None and configured[MATMUL]["energy_j"] == off[MATMUL]["energy_j"]
    (program / "pyproject.toml").unlink()
    elsewhere = by_api(calls_json(capsys, path, "--cache-dir", str(tmp_path_factory.mktemp("other"))))
    assert elsewhere[MATMUL]["calibration"] is None and elsewhere[MATMUL]["energy_j"] == off[MATMUL]["energy_j"]


def test_repeated_calibrations_keep_and_report_their_disagreement(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    sim = SimulatedCounter(SimulatedTime(), IDLE_W, CONFIG.interval_s)
    first = calibrate(sim)
    second = calibrate(sim, scale=2.0)  # the same machine, measured twice as costly
    assert [h["workloads"]["matmul_256"] for h in second["history"]] == [
        {"api": MATMUL, "per_execution_j": first["apis"][MATMUL]["per_execution_j"],
         "per_execution_s": first["apis"][MATMUL]["per_execution_s"]}]
    ratio = second["apis"][MATMUL]["per_execution_j"] / first["apis"][MATMUL]["per_execution_j"]
    assert ratio == pytest.approx(2.0, rel=0.01)  # twice the joules: the simulated counter has no noise
    assert second["disagreement"][MATMUL] == {"runs": 2, "ratio": pytest.approx(ratio, rel=1e-3)}
    assert main(["calibrate", "--status"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "2 calibrations of this machine stored" in err and f"{MATMUL} ×{ratio:.3g}" in err
    assert main(["kb", "show", MATMUL, "--kb", str(tmp_path / "calibration" / second["hardware_id"])]) == 0
    assert f"{MATMUL}: 2 calibrations of this machine stored, joules per call {ratio:.3g}× apart" in capsys.readouterr().out
    # the figures say it too, and their interval covers both calibrations
    from greenlint.predict import model_path
    from greenlint.predict.loading import load

    p = load(model_path()).predict(MATMUL, {})
    assert "2 calibrations of this machine differ" in p.evidence.note
    assert p.interval_j[0] < first["apis"][MATMUL]["per_execution_j"] * 1.05 and p.interval_j[1] > second["apis"][MATMUL]["per_execution_j"]


def test_the_editor_applies_the_overlay_its_configuration_names(calibrated, program):
    from greenlint.check.config import Config
    from greenlint.lsp_server.analysis import _analyse_unit

    cache, result = calibrated
    path = str(program / "train.py")

    def matmul(config: Config, predictor=lambda: pytest.fail("the configuration names its own overlay")):
        done = _analyse_unit(PROGRAM, path, config, None, None, 0, predictor, lambda: False)
        return next(s.prediction for s in done.result.sites if s.callsite.api == MATMUL)

    here = matmul(Config(root=program, cache_dir=cache))
    assert here.basis.label == "calibrated here" and result["hardware_id"] in here.evidence.sources
    off = matmul(Config(root=program, cache_dir=cache, calibration=False))
    assert off.basis.label != "calibrated here" and off.gpu_j is not None
