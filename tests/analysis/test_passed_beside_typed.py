"""A parameter of a function or class that the scripts beside its module call (`constructed.Made`,
`Resolver.made_beside`): where every call passes a Keras model, a TF1 session, a `tf.data`
dataset or a `tfds.builder()` made by a call of what the script imports (or a name it binds once to
one, also through a script function every call of which passes that name), the parameter is that
instance, of unknown size, and the calls on it are call sites; unknown otherwise."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from tests.check.fakes import Predictor

HELPERS = """\
import numpy as np


def score_all(model, images):
    out = []
    for img in images:
        out.append(model.predict(img[None]))
    return np.stack(out)


def feed(ds):
    return ds.map(lambda x: x * 2)


class Trainer:
    def __init__(self, sess, steps):
        self.sess = sess
        self.steps = steps

    def train(self, op):
        for _ in range(self.steps):
            self.sess.run(op)
"""


def apis(tmp_path, *scripts: str, folder: str = "", module: str = "helpers.py") -> list[str]:
    """The APIs of *module*'s call sites on a typed receiver (not those a module beside naming
    TensorFlow makes Keras's by their name: `untyped.py`), with the scripts *scripts* (run0.py, ...)
    in *folder*; *module* helpers.py (`HELPERS`) unless written already."""
    (tmp_path / ".git").mkdir(parents=True)
    if module == "helpers.py":
        (tmp_path / "helpers.py").write_text(HELPERS)
    where = tmp_path / folder
    where.mkdir(exist_ok=True)
    for i, script in enumerate(scripts):
        (where / f"run{i}.py").write_text(script)
    sites = analyse_file(tmp_path / module).callsites
    return sorted(s.api for s in sites if s.features.get("receiver") != "untyped")


PREDICT = "tensorflow.keras.Model.predict"


def test_a_model_every_script_beside_passes_types_the_parameter(tmp_path):
    loaded = "from tensorflow import keras\nfrom helpers import score_all\n\nmodel = keras.models.load_model('m.h5')\nscore_all(model, [1])\n"
    made = "import tensorflow as tf\nimport helpers\n\ndef main():\n    helpers.score_all(tf.keras.Model(), [1])\n"
    assert PREDICT in apis(tmp_path, loaded, made)


def test_a_keras_application_passed_by_keyword_types_it(tmp_path):
    script = "import tensorflow as tf\nfrom helpers import score_all\n\nscore_all(images=[1], model=tf.keras.applications.ResNet50())\n"
    assert PREDICT in apis(tmp_path, script)


def test_a_session_and_a_chained_dataset_are_typed(tmp_path):
    script = """\
import tensorflow as tf
from helpers import Trainer, feed

with tf.compat.v1.Session() as sess:
    t = Trainer(sess, 10)
    t.train(None)
feed(tf.data.Dataset.from_tensor_slices([1, 2]).batch(2))
"""
    found = apis(tmp_path, script)
    assert "tensorflow.compat.v1.Session.run" in found and "tensorflow.data.Dataset.map" in found


def test_one_script_passing_something_else_leaves_it_unknown(tmp_path):
    loaded = "from tensorflow.keras.models import load_model\nfrom helpers import score_all\n\nscore_all(load_model('m'), [1])\n"
    other = "import tensorflow as tf\nfrom helpers import score_all\n\nscore_all(tf.zeros([3]), [1])\n"
    assert PREDICT not in apis(tmp_path, loaded, other)


def test_an_unresolved_or_rebound_name_leaves_it_unknown(tmp_path):
    given = "from helpers import score_all\n\ndef main(model):\n    score_all(model, [1])\n"
    rebound = ("from tensorflow import keras\nfrom helpers import score_all\n\n"
               "model = keras.models.load_model('m')\nmodel = model.layers\nscore_all(model, [1])\n")
    for script in (given, rebound):
        assert PREDICT not in apis(tmp_path / str(len(script)), script)


def test_a_script_not_beside_the_module_types_nothing(tmp_path):
    loaded = "from tensorflow import keras\nfrom helpers import score_all\n\nscore_all(keras.models.load_model('m'), [1])\n"
    assert PREDICT in apis(tmp_path / "beside", loaded)
    assert PREDICT not in apis(tmp_path / "apart", loaded, folder="scripts")


MODELS = """\
import numpy as np
from tensorflow import keras


def build_model(width):
    return keras.Sequential([keras.layers.Dense(width)])


def build_data(n):
    return np.zeros(n)
"""


def test_a_function_of_the_project_returning_a_model_types_it(tmp_path):
    (tmp_path / "models.py").write_text(MODELS)
    built = "import tensorflow as tf\nfrom models import build_model\nfrom helpers import score_all\n\nscore_all(build_model(8), [1])\n"
    assert "tensorflow.keras.Sequential.predict" in apis(tmp_path, built)


def test_a_function_of_the_project_returning_other_than_a_model_types_nothing(tmp_path):
    (tmp_path / "models.py").write_text(MODELS)
    other = "import tensorflow as tf\nfrom models import build_data\nfrom helpers import score_all\n\nscore_all(build_data(8), [1])\n"
    assert not any(api.endswith(".predict") for api in apis(tmp_path, other))


def gl201(tmp_path, script: str) -> list[int]:
    """The lines of helpers.py that GL201 reports, with run0.py *script* beside it."""
    apis(tmp_path, script)
    path = tmp_path / "helpers.py"
    config = Config(select=("GL201",), no_cache=True)
    return [d.span.line for d in check_source(path.read_text(), str(path), config, Predictor()) if d.code == "GL201"]


def test_gl201_reports_the_predict_loop_of_a_model_passed_from_beside(tmp_path):
    # the images of an unknown number (a literal list of one would make the loop a single call)
    loaded = "import sys\nfrom tensorflow import keras\nfrom helpers import score_all\n\nscore_all(keras.models.load_model('m'), sys.argv)\n"
    given = "import sys\nimport tensorflow as tf\nfrom helpers import score_all\n\ndef main(model):\n    score_all(model, sys.argv)\n"
    assert gl201(tmp_path / "loaded", loaded) == [7]
    assert gl201(tmp_path / "given", given) == []


PIPELINE = """\
def pipeline(builder, batch):
    return builder.as_dataset(split="train").shuffle(1000).batch(batch)
"""
SHUFFLE = "tensorflow.data.Dataset.shuffle"


def pipeline_apis(tmp_path, *scripts: str) -> list[str]:
    """The APIs of data.py's call sites (`pipeline(builder, batch)`: the split a builder's `as_dataset()`
    gives, shuffled and batched), with the scripts *scripts* beside it."""
    tmp_path.mkdir(parents=True)
    (tmp_path / "data.py").write_text(PIPELINE)
    return apis(tmp_path, *scripts, module="data.py")


def test_a_tfds_builder_passed_from_beside_makes_its_split_a_dataset(tmp_path):
    direct = "import tensorflow_datasets as tfds\nimport data\n\nbuilder = tfds.builder('mnist')\ndata.pipeline(builder, 32)\n"
    assert SHUFFLE in pipeline_apis(tmp_path / "direct", direct)
    through = """\
import tensorflow_datasets as tfds
import data as data_lib


def evaluate(model, builder):
    return data_lib.pipeline(builder, 256)


def main():
    builder = tfds.builder('cifar10')
    data_lib.pipeline(builder, 512)
    evaluate(None, builder)
"""
    assert SHUFFLE in pipeline_apis(tmp_path / "through", through)


def test_a_builder_parameter_given_anything_else_somewhere_stays_unknown(tmp_path):
    other = """\
import tensorflow_datasets as tfds
import data


def evaluate(builder):
    return data.pipeline(builder, 256)


def main():
    builder = tfds.builder('cifar10')
    data.pipeline(builder, 512)
    evaluate(builder)
    evaluate(make_other())
"""
    assert SHUFFLE not in pipeline_apis(tmp_path / "other", other)
    mixed = "import tensorflow_datasets as tfds\nimport data\n\ndata.pipeline(tfds.builder('mnist'), 32)\ndata.pipeline(get(), 32)\n"
    assert SHUFFLE not in pipeline_apis(tmp_path / "mixed", mixed)


def test_a_builder_of_this_module_passed_to_its_function_types_the_split(tmp_path):
    module = PIPELINE + "\n\nimport tensorflow_datasets as tfds\n\nds = pipeline(tfds.builder('mnist'), 32)\n"
    given = PIPELINE + "\n\ndef main(b):\n    return pipeline(b, 32)\n"
    (tmp_path / "a").mkdir(parents=True)
    (tmp_path / "b").mkdir(parents=True)
    (tmp_path / "a" / "one.py").write_text(module)
    (tmp_path / "b" / "one.py").write_text(given)
    assert SHUFFLE in [s.api for s in analyse_file(tmp_path / "a" / "one.py").callsites]
    assert SHUFFLE not in [s.api for s in analyse_file(tmp_path / "b" / "one.py").callsites]


def test_as_dataset_without_a_split_gives_every_split_not_a_dataset(tmp_path):
    (tmp_path / "a").mkdir(parents=True)
    (tmp_path / "a" / "one.py").write_text(
        "import tensorflow_datasets as tfds\n\nsplits = tfds.builder(NAME).as_dataset()\nsplits.shuffle(10)\n"
        "one = tfds.builder(NAME).as_dataset(split='train')\none.shuffle(10)\n")
    lines = [s.span.line for s in analyse_file(tmp_path / "a" / "one.py").callsites if s.api == SHUFFLE]
    assert lines == [6]
