"""Which Keras a project trains with (greenlint.rules.keras_flavour), and GL602 following it across
the project's files: imports of the modules a script imports, and the project's TensorFlow pin."""

from __future__ import annotations

import builtins
import json
import os

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules import tf_target
from greenlint.rules.base import FileFacts
from greenlint.rules.keras_flavour import keras_flavour

#: Every training material: the fake predictor's fits are 1 kJ at most, under `material-saving-j`.
MATERIAL = {"material-saving-j": 0.0}
GL602 = Config(select=("GL602",), no_cache=True, options=MATERIAL)
#: GL602 with its opt-in advice for multi-backend Keras 2: TensorFlow 1's graph rewrite.
GL602_REWRITE = Config(select=("GL602",), no_cache=True, options={"multi-backend-rewrite": True, **MATERIAL})
#: unet's shape: the script star-imports the module that imports the multi-backend Keras.
SCRIPT = "from model import *\nmodel = unet()\nmodel.fit_generator(gen, steps_per_epoch=300, epochs=1)\n"
MODEL = (  # its width given on the command line: the model's size is not known, only its architecture's name
    "import sys\nfrom keras.models import *\nfrom keras.layers import *\n"
    "def unet():\n    inputs = Input((256, 256, 1))\n    return Model(inputs, Conv2D(int(sys.argv[1]), 1)(inputs))\n"
)


def _findings(tmp_path, predictor, name, text, config=GL602_REWRITE):
    path = tmp_path / name
    path.write_text(text)
    return [d for d in check_source(text, str(path), config, predictor) if d.code == "GL602"]


#: The advice for multi-backend Keras 2: a `tf.train` optimizer under TensorFlow 1's graph rewrite.
REWRITE = "multi-backend Keras 2"


def test_a_script_training_a_model_of_a_multi_backend_module_gets_the_graph_rewrite(tmp_path, predictor):
    (tmp_path / "model.py").write_text(MODEL)
    found = _findings(tmp_path, predictor, "main.py", SCRIPT)
    assert [d.span.line for d in found] == [3] and REWRITE in found[0].message
    assert "enable_mixed_precision_graph_rewrite" in found[0].message
    assert _findings(tmp_path, predictor, "main.py", SCRIPT, config=GL602) == []  # opt-in


def test_a_multi_backend_script_on_tensorflow_2_is_not_reported(tmp_path, predictor):
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "requirements.txt").write_text("keras==2.3.1\ntensorflow==2.1.0\n")
    assert _findings(tmp_path, predictor, "main.py", SCRIPT) == []


def test_the_same_script_on_a_tf_keras_module_gets_the_policy(tmp_path, predictor):
    (tmp_path / "model.py").write_text(MODEL.replace("from keras.", "from tensorflow.keras."))
    found = _findings(tmp_path, predictor, "main.py", SCRIPT)
    assert [d.span.line for d in found] == [3] and REWRITE not in found[0].message


def test_standalone_keras_fit_is_multi_backend_only_under_a_tensorflow_1_pin(tmp_path, predictor, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    script = "import keras\nm = keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n"
    (tmp_path / "requirements.txt").write_text("keras\ntensorflow>=2.4\n")
    assert len(_findings(tmp_path, predictor, "train.py", script)) == 1
    (tmp_path / "requirements.txt").write_text("keras==2.2.4\ntensorflow-gpu==1.13.1\n")
    assert _findings(tmp_path, predictor, "train.py", script) == []


def test_standalone_keras_fit_on_a_tensorflow_before_2_2_is_multi_backend(tmp_path, predictor, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    script = "import keras\nm = keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n"
    (tmp_path / "requirements.txt").write_text("keras\ntensorflow==2.1.0\n")  # Keras 2.4 requires 2.2
    assert _findings(tmp_path, predictor, "train.py", script, config=GL602) == []
    (tmp_path / "requirements.txt").write_text("keras\ntensorflow==2.2.0\n")  # Keras 2.4: tf.keras's policy
    (found,) = _findings(tmp_path, predictor, "train.py", script, config=GL602)
    assert "`tf.keras.mixed_precision.experimental.set_policy(" in found.message


def test_tf_keras_on_tensorflow_before_1_14_has_no_mixed_precision(tmp_path, predictor, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    script = "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n"
    (tmp_path / "requirements.txt").write_text("tensorflow==1.13.1\n")
    assert _findings(tmp_path, predictor, "train.py", script) == []
    (tmp_path / "requirements.txt").write_text("tensorflow==1.15.5\n")  # the graph rewrite
    assert len(_findings(tmp_path, predictor, "train.py", script)) == 1


def test_a_keras_contrib_import_says_multi_backend_keras(tmp_path, predictor, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    script = (
        "from keras.models import Model\nfrom keras_contrib.layers import InstanceNormalization\n"
        "from keras.applications import ResNet50\nm = ResNet50(weights=None)\n"
        "for x, y in batches:\n    m.train_on_batch(x, y)\n"
    )
    assert [REWRITE in d.message for d in _findings(tmp_path, predictor, "gan.py", script)] == [True]
    other = _findings(tmp_path, predictor, "gan.py", script.replace("from keras_contrib.layers", "from my_layers"))
    assert [REWRITE in d.message for d in other] == [False]


GL201 = Config(select=("GL201",), no_cache=True, options=MATERIAL)
#: A demo predicting one face at a time on the standalone `keras` with a tiny model (reported where which
#: Keras runs it is not known: any Keras' per-call overhead outweighs its work), its training script beside it.
DEMO = (
    "from keras.models import Sequential\nfrom keras.layers import Dense\nmodel = Sequential([Dense(2, input_dim=4)])\n"
    "for face in faces:\n    model.predict(face[None])\n"
)


def _predict_findings(tmp_path, predictor, name, text):
    path = tmp_path / name
    path.write_text(text)
    return [d.span.line for d in check_source(text, str(path), GL201, predictor) if d.code == "GL201"]


def test_a_demo_beside_a_fit_generator_training_runs_multi_backend_keras(tmp_path, predictor):
    assert _predict_findings(tmp_path, predictor, "demo.py", DEMO) == [5]  # the standalone `keras` alone says nothing
    (tmp_path / "train.py").write_text("from keras.models import load_model\nm.fit_generator(gen, steps_per_epoch=9)\n")
    assert _predict_findings(tmp_path, predictor, "demo.py", DEMO) == []


def test_a_sample_importing_a_package_module_that_trains_with_fit_generator_runs_multi_backend_keras(
    tmp_path, predictor
):
    (tmp_path / "setup.py").write_text("")  # the project's root, where `lib` is imported from
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("")
    (tmp_path / "lib" / "net.py").write_text(
        "import keras\nclass Net:\n    def train(self, gen):\n        self.model.fit_generator(gen, steps_per_epoch=9)\n"
    )
    (tmp_path / "samples").mkdir()
    sample = "from lib import net\n" + DEMO
    assert _predict_findings(tmp_path / "samples", predictor, "run.py", sample) == []
    (tmp_path / "lib" / "net.py").write_text("import tensorflow as tf\n")
    assert _predict_findings(tmp_path / "samples", predictor, "run2.py", sample) == [6]


#: A predict per image on a ResNet50 of the standalone `keras`, which Keras unknown: its overhead may be a
#: millisecond's session run (multi-backend Keras 2.0-2.3) or tf.keras's start-up, against a large model's work.
BIG_DEMO = (
    "from keras.applications import ResNet50\nfrom train import latest\nmodel = ResNet50(weights=latest())\n"
    "for image in images:\n    model.predict(image[None])\n"
)
TRAIN = (
    "from keras.applications import ResNet50\nfrom loader import batches\n\n\ndef latest():\n    return None\n\n\n"
    "model = ResNet50(weights=None)\ntrain_gen = batches(32)\nmodel.fit(train_gen, steps_per_epoch=100, epochs=5)\n"
)


def test_a_module_it_imports_giving_fit_a_generator_says_tf_keras(tmp_path, predictor):
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "loader.py").write_text("def batches(n):\n    return [n] * 10\n")  # a list: any Keras takes it
    assert _predict_findings(tmp_path, predictor, "demo.py", BIG_DEMO) == []
    (tmp_path / "loader.py").write_text("def batches(n):\n    while True:\n        yield n\n")
    assert _predict_findings(tmp_path, predictor, "demo2.py", BIG_DEMO) == [5]  # only tf.keras fits a generator


def test_a_function_whose_nested_function_yields_is_no_generator(tmp_path, predictor):
    # `batches` returns the list its nested generator fills: any Keras takes it, so it says nothing
    # (the generator of the test above says tf.keras).
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "loader.py").write_text(
        "def batches(n):\n    def rows():\n        for i in range(n):\n            yield [i]\n    return list(rows())\n"
    )
    assert _predict_findings(tmp_path, predictor, "demo.py", BIG_DEMO) == []


def test_each_module_around_the_file_is_read_once(tmp_path, monkeypatch):
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "loader.py").write_text("def batches(n):\n    while True:\n        yield n\n")
    demo = tmp_path / "demo.py"
    demo.write_text(BIG_DEMO)
    opened: list[str] = []
    real_open = builtins.open

    def counting_open(file, *args, **kwargs):
        if str(file).startswith(str(tmp_path)):
            opened.append(os.path.basename(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    flavour = keras_flavour(FileFacts(path=str(demo), sites=(), source=BIG_DEMO))
    assert "`fit()` is given the generator `batches()` (train.py line 11)" in flavour.basis
    assert sorted(opened) == ["loader.py", "train.py"]  # the file's own text is its analysis'


def test_a_notebook_giving_fit_a_generator_in_a_cell_says_tf_keras(tmp_path):
    cells = (
        "from keras.applications import ResNet50\nmodel = ResNet50(weights=None)\n",
        "def batches(n):\n    while True:\n        yield n\n",
        "model.fit(batches(32), steps_per_epoch=100, epochs=5)\n",
    )
    flavour = keras_flavour(FileFacts(path=str(tmp_path / "train.ipynb"), sites=(), source=cells))
    assert not flavour.unknown and "(train.ipynb cell 3 line 1)" in flavour.basis
    other = keras_flavour(FileFacts(path=str(tmp_path / "other.ipynb"), sites=(), source=(cells[0], cells[2])))
    assert other.unknown  # `batches` is no generator the notebook shows


def _versioned(version: str) -> str:
    """A notebook whose first cell shows the standalone Keras it ran with, the next training a ResNet50 of it."""
    cells = [
        (
            "import keras\nkeras.__version__",
            [
                {"output_type": "stream", "name": "stderr", "text": ["Using TensorFlow backend.\n"]},
                {"output_type": "execute_result", "data": {"text/plain": [f"'{version}'"]}, "metadata": {}},
            ],
        ),
        ("m = keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n", []),
    ]
    return json.dumps({"cells": [{"cell_type": "code", "source": s, "outputs": o} for s, o in cells], "nbformat": 4})


def test_a_notebook_whose_saved_output_shows_keras_2_0_runs_multi_backend_keras(tmp_path, predictor, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    assert _findings(tmp_path, predictor, "gan.ipynb", _versioned("2.0.8"), config=GL602) == []
    path = tmp_path / "gan.ipynb"
    flavour = keras_flavour(FileFacts(path=str(path), sites=(), source=("import keras",)))
    assert (
        flavour.multi_backend
        and "`keras` 2.0 (the notebook's saved output of `keras.__version__`, cell 1)" in flavour.basis
    )


def test_a_notebook_whose_saved_output_shows_keras_2_4_or_later_runs_tf_keras(tmp_path, predictor, monkeypatch):
    monkeypatch.setattr(tf_target, "_installed", lambda: None)
    (found,) = _findings(tmp_path, predictor, "gan.ipynb", _versioned("2.4.3"), config=GL602)
    assert "mixed_precision" in found.message
    flavour = keras_flavour(FileFacts(path=str(tmp_path / "gan.ipynb"), sites=(), source=("import keras",)))
    assert not flavour.multi_backend and not flavour.unknown
