"""Sample scripts driving a model kept in a wrapper class of another module (`self.keras_model`), as
detection and segmentation repositories write them: the wrapper built in either branch of a command
test, its training and detection reached through functions a command string picks, and a dataset
class whose list of images a method fills before the script loops over it."""

from __future__ import annotations

import pytest

from greenlint.analysis.references import looks_up_strings, text_references
from greenlint.analysis.values import ExtClass, ExtInst, merge
from tests.analysis.test_whole_program import sites, write

WRAPPER = """
import keras
import keras.layers as KL


class Detector():
    def __init__(self, mode, config):
        self.mode = mode
        self.config = config
        self.keras_model = self.build(mode)

    def build(self, mode):
        inputs = KL.Input(shape=(64, 64, 3))
        outputs = KL.Conv2D(8, (3, 3))(inputs)
        return keras.models.Model(inputs, outputs)

    def train(self, generator, epochs):
        self.keras_model.compile(optimizer="sgd", loss="mse")
        self.keras_model.fit_generator(generator, epochs=epochs, steps_per_epoch=100)

    def detect(self, images):
        return self.keras_model.predict(images)
"""

DATASET = """
import numpy as np


class Dataset(object):
    def __init__(self):
        self._image_ids = []
        self.image_info = []

    def prepare(self):
        self.num_images = len(self.image_info)
        self._image_ids = np.arange(self.num_images)

    def add_image(self, path):
        self.image_info.append({"path": path})

    @property
    def image_ids(self):
        return self._image_ids
"""


def test_a_wrapper_built_in_either_branch_of_a_command_test_is_still_the_wrapper(tmp_path):
    write(tmp_path, {"model.py": WRAPPER, "train.py": """
        import sys
        import model as modellib

        if sys.argv[1] == "train":
            model = modellib.Detector(mode="training", config=None)
        else:
            model = modellib.Detector(mode="inference", config=None)
        model.train(None, epochs=3)
        """})
    site = sites(tmp_path / "train.py")[(8, "tensorflow.keras.Model.fit_generator")]
    assert site.features["receiver"] == "wrapper"


def test_two_constructions_of_one_class_join_to_it_with_the_parameters_they_share():
    cls, other = ExtClass("Detector"), ExtClass("Other")
    joined = merge(ExtInst(cls, {"mode": "training", "depth": 50}), ExtInst(cls, {"mode": "inference", "depth": 50}))
    assert type(joined) is ExtInst and joined.cls is cls
    assert joined.passed == {"mode": None, "depth": 50}
    assert merge(ExtInst(cls, None), ExtInst(cls, {"mode": "training"})).passed is None
    assert merge(ExtInst(cls), ExtInst(other)) is None  # different classes: nothing shared is known


@pytest.mark.parametrize("command", ["train", "detect"])
def test_functions_a_command_string_picks_take_the_wrapper_their_one_call_passes(tmp_path, command):
    write(tmp_path, {"model.py": WRAPPER, "run.py": """
        import sys
        import model as modellib


        def train(model):
            model.train(None, epochs=3)


        def detect(model, images):
            for image in images:
                model.detect([image])


        model = modellib.Detector(mode="training", config=None)
        if sys.argv[1] == "train":
            train(model)
        elif sys.argv[1] == "detect":
            detect(model, sys.argv[2:])
        """})
    found = sites(tmp_path / "run.py")
    line, api = (6, "fit_generator") if command == "train" else (11, "predict")
    assert found[(line, f"tensorflow.keras.Model.{api}")].features["receiver"] == "wrapper"


def test_a_string_naming_a_function_is_data_unless_the_module_looks_objects_up_by_strings():
    text = 'if args.command == "train":\n    train(model)\nload(path, "train")\n'
    assert text_references(text, "train") == (3, 0, 0, 2)  # the two strings are counted, and told apart
    assert not looks_up_strings(text)
    assert looks_up_strings(text + 'step = getattr(module, "train")\n')
    assert looks_up_strings("__all__ = ['train']\n")
    assert not looks_up_strings(text + "network = importlib.import_module(args.model_def)\n")  # a module, never `train`
    assert not looks_up_strings(text + "log('eval accuracy: %f' % acc)  # no getattr here\n")  # quoted, commented


def test_a_function_a_lookup_may_reach_by_its_name_keeps_its_parameters_unknown(tmp_path):
    write(tmp_path, {"model.py": WRAPPER, "run.py": """
        import sys
        import model as modellib


        def train(model):
            model.train(None, epochs=3)


        model = modellib.Detector(mode="training", config=None)
        if sys.argv[1] == "train":
            train(model)
        getattr(sys.modules[__name__], "train")(None)
        """})
    assert (6, "tensorflow.keras.Model.fit_generator") not in sites(tmp_path / "run.py")


@pytest.mark.parametrize("order", ["fill-first", "read-first"])
def test_a_list_a_method_fills_has_a_length_not_known_whatever_the_constructor_gave_it(tmp_path, order):
    dataset = DATASET
    if order == "read-first":  # `prepare` reads the list before the method that fills it is defined
        fill = "    def add_image(self, path):\n        self.image_info.append({\"path\": path})\n\n"
        dataset = dataset.replace(fill, "").replace("    @property", fill + "    @property")
    write(tmp_path, {"model.py": WRAPPER, "utils.py": dataset, "evaluate.py": """
        import sys
        import model as modellib
        from utils import Dataset

        model = modellib.Detector(mode="inference", config=None)
        dataset = Dataset()
        for path in sys.argv[1:]:
            dataset.add_image(path)
        dataset.prepare()
        for image_id in dataset.image_ids:
            model.detect([image_id])
        """})
    site = sites(tmp_path / "evaluate.py")[(11, "tensorflow.keras.Model.predict")]
    assert site.runs.count is None  # not 0: the loop runs once per image added


def test_a_list_no_method_fills_keeps_its_literal(tmp_path):
    write(tmp_path, {"run.py": """
        import tensorflow as tf


        class Runner(object):
            def __init__(self):
                self.images = [1, 2, 3]

            def run(self, model):
                for image in self.images:
                    model.predict(image)


        Runner().run(tf.keras.models.load_model("m.keras"))
        """})
    site = sites(tmp_path / "run.py")[(10, "tensorflow.keras.Model.predict")]
    assert site.runs.count == 3
