"""The per-layer step-cost measurement (tools/model/layer_overhead.py) and its committed output."""
import json
from pathlib import Path

import pytest

from tools.model.layer_overhead import _slope

OUTPUT = Path(__file__).resolve().parents[3] / "data" / "model" / "layer_overhead.json"


def test_slope_is_the_least_squares_line():
    assert _slope([(2, 1.0), (5, 2.5), (10, 5.0)]) == pytest.approx(0.5)
    assert _slope([(1, 3.0), (2, 1.0), (3, 2.0)]) == pytest.approx(-0.5)


@pytest.mark.parametrize("kind", ["dense", "conv"])
def test_committed_slopes_follow_from_their_models(kind):
    measured = json.loads(OUTPUT.read_text())["kinds"][kind]
    for clock in ("cpu", "wall"):
        points = [(m["layers"], m[f"{clock}_ms"]) for m in measured["models"]]
        assert measured[f"per_layer_{clock}_ms"] == pytest.approx(_slope(points), abs=1e-4)


def test_cnns_are_compared_at_equal_flops():
    flops = [m["forward_flops_per_sample"] for m in json.loads(OUTPUT.read_text())["kinds"]["conv"]["models"]]
    assert max(flops) / min(flops) < 1.1
