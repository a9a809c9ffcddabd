"""A script's call of another module's function that spends its work in a TF call (wrappers.py) is no call
site of the script where that module's own sites already count it (`Resolver.passed_beside`: `train()
runs 1× (1 call in main.py)`): the work is listed once, at the wrapped call. It stays a site where they
cannot: a call in a loop of unknown length, a function its module calls too, another script's calls
whose runs are not known (`Imports.counted_there`); and where this call's own arguments tell its work
(wrapped.py)."""

from __future__ import annotations

from greenlint.analysis.project import project_index
from tests.analysis.test_whole_program import sites, write

FIT = "tensorflow.keras.Sequential.fit"

TRAINER = """
import numpy as np
import tensorflow as tf


class Trainer:
    def __init__(self, epochs=10):
        self.epochs = epochs
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(784,))])
        self.model.compile(optimizer="adam", loss="mse")

    def train(self):
        self.model.fit(np.zeros((60000, 784)), np.zeros((60000, 10)), epochs=self.epochs)

    def train_for(self, epochs):
        self.model.fit(np.zeros((60000, 784)), np.zeros((60000, 10)), epochs=epochs)


def fit_model(epochs):
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(784,))])
    model.fit(np.zeros((60000, 784)), np.zeros((60000, 10)), epochs=epochs)


def fit_twice():
    fit_model(1)
    fit_model(2)
"""


def project(tmp_path, main: str, **others: str):
    (tmp_path / ".git").mkdir(exist_ok=True)
    write(tmp_path, {"trainer.py": TRAINER, "main.py": main, **{f"{name}.py": code for name, code in others.items()}})
    return sites(tmp_path / "main.py"), sites(tmp_path / "trainer.py")


def test_a_call_the_wrapped_module_counts_is_listed_once_at_the_wrapped_call(tmp_path):
    main, trainer = project(tmp_path, """
        from trainer import Trainer

        if __name__ == "__main__":
            t = Trainer(epochs=30)
            t.train()
        """)
    assert (5, FIT) not in main
    fit = trainer[(12, FIT)]
    assert fit.runs.count == 1 and "1 call in main.py" in fit.runs.note


def test_a_call_walked_with_its_own_arguments_stays_a_site_of_the_script(tmp_path):
    main, _ = project(tmp_path, """
        from trainer import Trainer

        t = Trainer()
        t.train_for(5)
        """)
    # its arguments tell its work, which rules read there (analysis/wrapped.py: each call its own)
    assert "walked with this call's arguments" in main[(4, FIT)].work["wrapper"].note
    assert main[(4, FIT)].work["epochs"].value == 5


def test_a_call_in_a_loop_of_unknown_length_stays_a_site_of_the_script(tmp_path):
    main, trainer = project(tmp_path, """
        import sys
        from trainer import Trainer

        t = Trainer(epochs=30)
        for _ in sys.argv[1:]:
            t.train()
        """)
    assert main[(6, FIT)].features["receiver"] == "wrapper"
    assert trainer[(12, FIT)].runs.count is None


def test_a_function_its_own_module_calls_too_stays_a_site_of_the_script(tmp_path):
    main, _ = project(tmp_path, """
        from trainer import fit_model

        fit_model(5)
        """)
    assert main[(3, FIT)].features["receiver"] == "wrapper"


def test_another_scripts_uncounted_calls_keep_the_site_and_key_the_script(tmp_path):
    main = """
        from trainer import Trainer

        t = Trainer(epochs=3)
        t.train()
        """
    counted, _ = project(tmp_path, main, other="""
        from trainer import Trainer

        t = Trainer(epochs=4)
        t.train()
        """)
    assert (4, FIT) not in counted
    path = str(tmp_path / "main.py")
    before = project_index().analysis_inputs(path)
    uncounted, _ = project(tmp_path, main, other="""
        import sys
        from trainer import Trainer

        t = Trainer(epochs=4)
        for _ in sys.argv:
            t.train()
        """)
    assert project_index().analysis_inputs(path) != before
    assert uncounted[(4, FIT)].features["receiver"] == "wrapper"
