"""A name of the program's namespace looked up by a string the walk knows (by_name.py): `globals()[key]` is
the module-level name *key* (defined there, or bound by an import, `from models import *` included),
`locals()[key]` the name of the scope it is in, so `globals()[model_name](...)` builds the model that
function builds; a key with several values or none known, or a shadowed `globals`, leaves it unknown."""

from __future__ import annotations

import pytest

from tests.analysis.test_whole_program import sites, write

MODELS = """
import tensorflow as tf


def wide(units=64):
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(units)])
    model.compile(optimizer="adam", loss="mse")
    return model


def narrow(units=2):
    return wide(units)
"""

#: The parameters of the model each builder makes: 8 inputs, then `units` outputs.
WIDE, NARROW = 8 * 64 + 64, 8 * 2 + 2

TRAIN = """
import sys

import numpy as np
import tensorflow as tf
from models import *

EPOCHS = 3
NAME = "wide"
x = np.zeros((32, 8))
{code}
"""

FIT = "tensorflow.keras.Sequential.fit"
UNTYPED_FIT = "tensorflow.keras.Model.fit"


def fits(tmp_path, code: str) -> dict:
    (tmp_path / ".git").mkdir(exist_ok=True)
    write(tmp_path, {"models.py": MODELS, "train.py": TRAIN.format(code=code)})
    return {key: site for key, site in sites(tmp_path / "train.py").items() if key[1] in (FIT, UNTYPED_FIT)}


def params(found: dict) -> list:
    return [site.work["params"].value if site.api == FIT else None for _, site in sorted(found.items())]


@pytest.mark.parametrize(
    "code",
    [
        'model = globals()["wide"]()\nmodel.fit(x, x)',  # a literal key
        "model = globals()[NAME]()\nmodel.fit(x, x)",  # a module constant
        'model = locals()["wide"]()\nmodel.fit(x, x)',  # the module's scope, at module level
        # a parameter the one call binds (to a variable holding a literal)
        'def train(model_name):\n    model = globals()[model_name]()\n    model.fit(x, x)\n\n\n'
        'if __name__ == "__main__":\n    model_name = "wide"\n    train(model_name)',
        # a function of the module itself, not imported
        'def build():\n    return wide()\n\n\nglobals()["build"]().fit(x, x)',
    ],
)
def test_a_known_key_is_the_module_level_name(tmp_path, code):
    assert params(fits(tmp_path, code)) == [WIDE]


def test_each_call_of_a_factory_by_name_builds_the_model_its_key_names(tmp_path):
    code = (
        "def build(name):\n    return globals()[name]()\n\n\n"
        'build("wide").fit(x, x)\nbuild("narrow").fit(x, x)'
    )
    assert params(fits(tmp_path, code)) == [WIDE, NARROW]


def test_a_constant_read_by_its_name_is_its_value(tmp_path):
    found = fits(tmp_path, 'model = wide()\nmodel.fit(x, x, epochs=globals()["EPOCHS"])')
    assert [site.work["epochs"].value for site in found.values()] == [3]


@pytest.mark.parametrize(
    "code",
    [
        "model = globals()[sys.argv[1]]()\nmodel.fit(x, x)",  # a key not known
        # one of two names, chosen at run time
        'name = "wide" if len(sys.argv) > 1 else "narrow"\nmodel = globals()[name]()\nmodel.fit(x, x)',
        # a parameter two calls bind to different names: the fit in the body trains one or the other
        'def train(model_name):\n    model = globals()[model_name]()\n    model.fit(x, x)\n\n\n'
        'train("wide")\ntrain("narrow")',
        'model = globals()["EPOCHS"]()\nmodel.fit(x, x)',  # a key naming a constant: no model
        'model = globals()["absent"]()\nmodel.fit(x, x)',  # no such name
        # `locals()` in a function holds its own names only
        'def train():\n    model = locals()["wide"]()\n    model.fit(x, x)\n\n\ntrain()',
        # `globals` bound by the program is not the builtin
        'def globals():\n    return {}\n\n\nmodel = globals()["wide"]()\nmodel.fit(x, x)',
    ],
)
def test_a_key_not_known_to_name_a_builder_stays_unknown(tmp_path, code):
    assert params(fits(tmp_path, code)) == [None]


APPLICATION = """
import numpy as np
from tensorflow.keras.applications import *

x = np.zeros((32, 224, 224, 3))
model = {built}(weights=None)
model.fit(x, np.zeros((32, 1000)))
"""


def test_a_key_naming_a_star_imported_keras_model_is_that_model(tmp_path):
    found = []
    for built in ("MobileNetV2", 'globals()["MobileNetV2"]'):
        write(tmp_path, {"train.py": APPLICATION.format(built=built)})
        found.append({api: site.work["params"].value for (_, api), site in sites(tmp_path / "train.py").items()
                      if api.endswith(".fit")})
    assert found[0] == found[1]
    assert next(iter(found[0].values())) > 1_000_000
