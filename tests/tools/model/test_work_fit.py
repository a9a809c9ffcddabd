"""The work model's fit (tools/model/work_fit.py): one throughput for every kind of call, each kind's own
overheads, and an API's offset only where enough of its sites measured it."""

from __future__ import annotations

import math

from greenlint.predict.hierarchy import Hierarchy
from tools.model.sites import Site
from tools.model.work_fit import fit_time_models, fit_work

FIT = "tensorflow.keras.Model.fit"
EVALUATE = "tensorflow.keras.Model.evaluate"
PREDICT = "tensorflow.keras.Model.predict"
WATTS = 10.0


def _site(api: str, i: int, steps: int, fps: float, seconds: float) -> Site:
    features = {"samples": 32.0 * steps, "batch_size": 32.0, "flops_per_sample": fps}
    if api == FIT:
        features["epochs"] = 1
    return Site(api=api, tutorial=f"{api}-{i}", key=(api, i), censored=False, y=math.log10(WATTS * seconds),
                components={}, n_records=3, sources=("test",), features=features, time_s=seconds)


def _sites(api: str, t0: float, per_step: float, per_flop: float, factor: float = 1.0, n: int = 6) -> list[Site]:
    """n sites whose time follows t0 + per_step x steps + per_flop x FLOPs (times *factor*), over a spread
    of steps and FLOPs per sample (a training step costs 3 forward passes)."""
    out = []
    for i in range(n):
        steps, fps = 10 * 4**i, 1e4 * 30**i
        flops = (3.0 if api == FIT else 1.0) * 32 * steps * fps
        out.append(_site(api, i, steps, fps, factor * (t0 + per_step * steps + per_flop * flops)))
    return out


def test_every_kind_shares_one_throughput_and_keeps_its_own_overheads():
    sites = _sites(FIT, 0.5, 5e-3, 1e-12) + _sites(EVALUATE, 0.2, 3e-3, 1e-12)
    time = fit_work(sites, Hierarchy())["time"]
    assert time["training"]["per_flop"] == time["inference"]["per_flop"]
    assert math.isclose(time["training"]["per_flop"], 1e-12, rel_tol=0.2)
    assert math.isclose(time["training"]["per_step"], 5e-3, rel_tol=0.2)
    assert math.isclose(time["inference"]["per_step"], 3e-3, rel_tol=0.2)


def test_an_api_gets_an_offset_only_from_enough_of_its_own_sites():
    sites = (_sites(FIT, 0.5, 5e-3, 1e-12) + _sites(EVALUATE, 0.2, 3e-3, 1e-12)
             + _sites(PREDICT, 0.2, 3e-3, 1e-12, factor=30.0, n=2))  # two predicts 30x dearer: their own start-up
    offsets = fit_work(sites, Hierarchy())["offsets"]
    assert PREDICT not in offsets
    dearer = _sites(PREDICT, 0.2, 3e-3, 1e-12, factor=4.0, n=4)
    offsets = fit_work(sites[:-2] + dearer, Hierarchy())["offsets"]
    # x4 measured at four sites (which also pull the shared inference fit up): the API's own cost, an offset
    assert offsets[PREDICT] > 0.1


def _layered(t0: float, per_layer: float, per_step: float) -> list[tuple[str, dict, float]]:
    """`fit` rows of models of 1 to 20 layers whose time is t0 + per_layer x layers + per_step x steps."""
    rows = []
    for i, (layers, steps) in enumerate([(1, 10), (3, 2000), (5, 40), (8, 500), (12, 10), (20, 3000), (2, 100)]):
        f = {"samples": 32.0 * steps, "batch_size": 32.0, "epochs": 1, "flops_per_sample": 1e3 * (i + 1),
             "n_layers": layers, "traces_step": True}
        rows.append(("training", f, t0 + per_layer * layers + per_step * steps + 1e-12 * 3 * 32 * steps * f["flops_per_sample"]))
    return rows


def test_a_measured_start_up_per_layer_is_kept_and_the_fixed_start_up_fitted_around_it():
    time = fit_time_models(_layered(0.3, 0.05, 4e-3), {"training": 0.05})["training"]
    assert time["per_layer_start"] == 0.05
    assert math.isclose(time["t0"], 0.3, rel_tol=0.1)
    assert math.isclose(time["per_step"], 4e-3, rel_tol=0.1)


def test_without_a_measured_start_up_per_layer_none_is_priced():
    time = fit_time_models(_layered(0.3, 0.05, 4e-3))["training"]
    assert "per_layer_start" not in time
    assert time["t0"] > 0.3  # the layers' start-up spread over the fixed one


def test_a_steps_cost_per_layer_of_its_model_is_fitted_apart_from_its_fixed_cost_and_its_flops():
    """Each layer launches its kernels every step: rows whose step time is a + c x layers + b x FLOPs give
    back c apart from a and b (a deep small model's steps cost more than a shallow one's of the same FLOPs);
    the rows' median layers are kept as `layers_per_step` (what a step of a model of unknown layers counts)."""
    rows = []
    for layers, steps, fps in [(2, 500, 1e4), (4, 2000, 1e6), (8, 800, 3e5), (12, 3000, 1e7),
                               (3, 1500, 3e8), (16, 1000, 1e5), (6, 4000, 1e8), (10, 600, 2e9)]:
        f = {"samples": 32.0 * steps, "batch_size": 32.0, "epochs": 1, "flops_per_sample": fps, "n_layers": layers}
        rows.append(("training", f, 0.3 + (2e-3 + 1e-3 * layers) * steps + 5e-13 * 3 * 32 * steps * fps))
    time = fit_time_models(rows)["training"]
    assert math.isclose(time["per_layer_step"], 1e-3, rel_tol=0.15)
    assert math.isclose(time["per_step"], 2e-3, rel_tol=0.3)
    assert math.isclose(time["per_flop"], 5e-13, rel_tol=0.15)
    assert time["layers_per_step"] == 8
