"""The first-call set-up measurement (tools/model/first_call.py), its committed output and what the work
model's fit reads of it."""
import json
import math

import pytest

from tools.model.first_call import MEASURED, METHODS, per_layer_start
from tools.model.layer_overhead import _slope


@pytest.mark.parametrize("kind", ["dense", "conv"])
def test_committed_slopes_follow_from_their_models(kind):
    measured = json.loads(MEASURED.read_text())["kinds"][kind]
    for method in METHODS:
        points = [(m["layers"], m[f"{method}_cpu_s"]) for m in measured["models"]]
        assert measured[f"{method}_per_layer_cpu_s"] == pytest.approx(_slope(points), abs=1e-5)


def test_each_group_reads_the_mean_of_its_methods_over_the_kinds(tmp_path):
    path = tmp_path / "first_call.json"
    kinds = {"dense": {"fit_per_layer_cpu_s": 0.1, "evaluate_per_layer_cpu_s": 0.004, "predict_per_layer_cpu_s": 0.002},
             "conv": {"fit_per_layer_cpu_s": 0.2, "evaluate_per_layer_cpu_s": -0.001, "predict_per_layer_cpu_s": 0.006}}
    path.write_text(json.dumps({"kinds": kinds}))
    got = per_layer_start(path)
    assert math.isclose(got["training"], 0.15)
    assert math.isclose(got["inference"], (0.004 + 0.0 + 0.002 + 0.006) / 4)  # a negative slope counts as none
