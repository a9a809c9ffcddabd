"""A wrapper method of another module (`model.train(..., epochs=30)` on a project class whose `train`
calls `self.keras_model.fit_generator(..., epochs=epochs, steps_per_epoch=self.config.STEPS)`): each
call site in the script walks the method with its own arguments and the instance's construction
(greenlint/analysis/wrapped.py)."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file

CONFIG = """
class Config(object):
    STEPS = 1000
    VALIDATION_STEPS = 50
"""

MODEL = """
import keras
import keras.layers as KL


class Detector():
    def __init__(self, mode, config):
        self.mode = mode
        self.config = config
        inputs = KL.Input(shape=(64, 64, 3))
        self.keras_model = keras.models.Model(inputs, KL.Conv2D(8, (3, 3))(inputs))

    def train(self, generator, epochs):
        self.keras_model.compile(optimizer="sgd", loss="mse")
        self.keras_model.fit_generator(generator, epochs=epochs, steps_per_epoch=self.config.STEPS,
                                       validation_steps=self.config.VALIDATION_STEPS)
"""


def write(folder, files: dict[str, str]) -> None:
    for name, code in files.items():
        (folder / name).write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")


def fits(path) -> list:
    result = analyse_file(path)
    assert result.errors == []
    return sorted((s for s in result.callsites if s.api == "tensorflow.keras.Model.fit_generator"), key=lambda s: s.span.line)


def value(site, key):
    return getattr(site.work.get(key), "value", None)


def test_each_call_of_a_wrapper_method_gets_its_own_epochs_and_its_config_subclass_steps(tmp_path):
    write(tmp_path, {"config.py": CONFIG, "model.py": MODEL, "train.py": """
        from config import Config
        from model import Detector


        class ShortConfig(Config):
            STEPS = 25


        def data():
            while True:
                yield None

        detector = Detector(mode="training", config=ShortConfig())
        detector.train(data(), epochs=3)
        detector.train(data(), epochs=7)
    """})
    first, second = fits(tmp_path / "train.py")
    assert first.features["receiver"] == second.features["receiver"] == "wrapper"
    assert (value(first, "epochs"), value(second, "epochs")) == (3, 7)  # each its own, never one for both
    assert value(first, "steps_per_epoch") == value(second, "steps_per_epoch") == 25  # the subclass's override
    assert (value(first, "steps"), value(second, "steps")) == (75, 175)
    assert first.features.get("validation_steps") == 50  # inherited from the project's Config
    assert "walked with this call's arguments" in first.work["wrapper"].note


def test_the_wrapped_call_in_its_own_module_keeps_its_parameters_unknown(tmp_path):
    write(tmp_path, {"config.py": CONFIG, "model.py": MODEL, "a.py": """
        from config import Config
        from model import Detector
        Detector(mode="training", config=Config()).train(None, epochs=3)
    """, "b.py": """
        from config import Config
        from model import Detector
        Detector(mode="training", config=Config()).train(None, epochs=9)
    """})
    (own,) = fits(tmp_path / "model.py")
    assert value(own, "epochs") is None
    (a,), (b,) = fits(tmp_path / "a.py"), fits(tmp_path / "b.py")
    assert (value(a, "epochs"), value(b, "epochs"), value(a, "steps")) == (3, 9, 3000)


def test_a_config_that_differs_between_branches_leaves_the_steps_unknown(tmp_path):
    write(tmp_path, {"config.py": CONFIG, "model.py": MODEL, "train.py": """
        import sys
        from config import Config
        from model import Detector


        class Short(Config):
            STEPS = 25


        class Long(Config):
            STEPS = 400

        config = Short() if len(sys.argv) > 1 else Long()
        Detector(mode="training", config=config).train(None, epochs=2)
    """})
    (site,) = fits(tmp_path / "train.py")
    assert value(site, "epochs") == 2
    assert value(site, "steps_per_epoch") is None and value(site, "steps") is None


def test_a_config_subclassed_for_inference_on_the_other_branch_keeps_what_both_agree_on(tmp_path):
    write(tmp_path, {"config.py": CONFIG, "model.py": MODEL, "train.py": """
        import sys
        from config import Config
        from model import Detector


        class Short(Config):
            STEPS = 25

        if len(sys.argv) > 1:
            config = Short()
        else:
            class Inference(Short):
                VALIDATION_STEPS = 1
            config = Inference()
        Detector(mode="training", config=config).train(None, epochs=2)
    """})
    (site,) = fits(tmp_path / "train.py")
    assert value(site, "steps_per_epoch") == 25  # the same on both paths
    assert site.features.get("validation_steps") is None  # 50 on one, 1 on the other


def test_a_method_spending_its_work_in_two_calls_of_the_api_is_listed_as_before(tmp_path):
    model = MODEL + """
    def tune(self, generator, epochs, quick):
        if quick:
            self.keras_model.fit_generator(generator, epochs=1, steps_per_epoch=10)
        else:
            self.keras_model.fit_generator(generator, epochs=epochs, steps_per_epoch=10)
"""
    write(tmp_path, {"config.py": CONFIG, "model.py": model, "train.py": """
        import sys
        from config import Config
        from model import Detector
        Detector(mode="training", config=Config()).tune(None, epochs=4, quick=len(sys.argv) > 1)
    """})
    (site,) = fits(tmp_path / "train.py")
    assert site.features["receiver"] == "wrapper"
    # which of the two runs is not known: neither is taken (the site as before this walk, `wrappers.spent_work`)
    assert "its arguments not known here" in site.work["wrapper"].note
    assert value(site, "epochs") is None and value(site, "steps_per_epoch") is None  # not Keras's default 1
    assert site.work["epochs"].provenance == "unknown" and "not known here" in site.work["epochs"].note


def test_what_a_base_constructor_computes_from_an_attribute_a_subclass_overrides_is_unknown(tmp_path):
    write(tmp_path, {"config.py": """
        class Config(object):
            IMAGES = 2
            STEPS = 10

            def __init__(self):
                self.BATCH = self.IMAGES * 1
    """, "model.py": """
        import keras
        import keras.layers as KL


        class Detector():
            def __init__(self, config):
                self.config = config
                inputs = KL.Input(shape=(8,))
                self.keras_model = keras.models.Model(inputs, KL.Dense(2)(inputs))

            def train(self, x, epochs):
                self.keras_model.compile(optimizer="sgd", loss="mse")
                self.keras_model.fit(x, epochs=epochs, batch_size=self.config.BATCH)
    """, "train.py": """
        import numpy as np
        from config import Config
        from model import Detector


        class Big(Config):
            IMAGES = 6

        Detector(config=Big()).train(np.zeros((120, 8)), epochs=2)
        Detector(config=Config()).train(np.zeros((120, 8)), epochs=2)
    """})
    result = analyse_file(tmp_path / "train.py")
    big, plain = sorted((s for s in result.callsites if s.api == "tensorflow.keras.Model.fit"), key=lambda s: s.span.line)
    assert value(big, "batch_size") is None  # Config.__init__'s 2 * 1 is not Big's 6 * 1
    assert value(plain, "batch_size") == 2


def test_a_wrapped_call_on_a_model_not_known_is_matched_as_in_its_own_module(tmp_path):
    """The method's module imports Keras, the script does not: `self.model.predict(...)` on a model the
    walk cannot type is still Keras's in the walk for the script's call (untyped.py), as in its module."""
    write(tmp_path, {"model.py": """
        import keras


        class Runner():
            def __init__(self, model, batch):
                self.model = model
                self.batch = batch

            def infer(self, x, n):
                return self.model.predict(x, batch_size=self.batch, steps=n)
    """, "run.py": """
        import sys
        from model import Runner
        Runner(getattr(sys, "model"), 4).infer(None, n=5)
    """})
    result = analyse_file(tmp_path / "run.py")
    (site,) = [s for s in result.callsites if s.api == "tensorflow.keras.Model.predict"]
    assert "walked with this call's arguments" in site.work["wrapper"].note
    assert value(site, "steps") == 5
    assert site.features["receiver"] == "wrapper" and site.features.get("receiver_kind") != "untyped"  # the site's own


def test_a_wrapper_not_followed_leaves_the_epochs_and_batch_it_passes_unknown_not_keras_defaults(tmp_path):
    """Which of two fits a call of the wrapper runs is not known: the epochs and batch size the wrapper
    passes are unknown, so its figure is a floor that says so (epochs from one up to a stated most), not
    priced at Keras' default of one epoch as if the caller had passed none."""
    from greenlint.predict import load_predictor
    from greenlint.predict.site_predictions import with_work

    model = MODEL + """
    def tune(self, generator, epochs, quick):
        if quick:
            self.keras_model.fit(generator, epochs=1, steps_per_epoch=10)
        else:
            self.keras_model.fit(generator, epochs=epochs, steps_per_epoch=10, batch_size=64)
"""
    write(tmp_path, {"config.py": CONFIG, "model.py": model, "train.py": """
        import sys
        from config import Config
        from model import Detector
        Detector(mode="training", config=Config()).tune(None, epochs=4, quick=len(sys.argv) > 1)
    """})
    (site,) = [s for s in analyse_file(tmp_path / "train.py").callsites if s.api == "tensorflow.keras.Model.fit"]
    assert site.features["receiver"] == "wrapper"
    assert site.work["epochs"].provenance == "unknown" and value(site, "epochs") is None
    assert site.work["batch_size"].provenance == "unknown"
    pred = load_predictor(overlay=False).predict(site.api, with_work(site.features, site.work))
    assert pred.floor and "epochs unknown" in pred.evidence.note and "1,000 epochs" in pred.evidence.note
