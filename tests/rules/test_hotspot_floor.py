"""GL101 on a floor (a figure whose model or data size the code does not state: at least its low
end): a hotspot only where that least, times its runs, is itself material (`material-saving-j`).
The shipped predictor prices it: the rule cases' fake predictor gives no floors."""

from __future__ import annotations

from tests.rules.conftest import found

#: Monte Carlo dropout: {runs} one-sample predictions of a model whose input size is not stated.
MC_PREDICTS = (
    "import numpy as np\nfrom tensorflow import keras\n\n"
    "class MCDropout(keras.layers.Dropout):\n"
    "    def call(self, inputs):\n"
    "        return super().call(inputs, training=True)\n\n"
    "mc_model = keras.models.Sequential([MCDropout(0.2), keras.layers.Dense(10)])\n"
    "x = np.load('x.npy')\n"
    "y = np.mean([mc_model.predict(x[:1]) for sample in range({runs})], axis=0)\n"
)


def gl101(shipped, runs: int, options: dict | None = None) -> list:
    return found(shipped, MC_PREDICTS.format(runs=runs), "GL101", options, path="mc.py")


def test_a_floor_whose_least_is_not_material_is_no_hotspot(shipped):
    assert gl101(shipped, 100) == []
    assert len(gl101(shipped, 100, options={"material-saving-j": 0.0})) == 1  # over the 100 J threshold


def test_a_floor_whose_least_is_material_is_a_hotspot(shipped):
    (found,) = gl101(shipped, 100_000)
    assert found.span.line == 10 and "× 100,000 runs" in found.message
