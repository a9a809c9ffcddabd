"""Configuration values a program keeps in a dict or an attribute bag: `config["epochs"]` of a dict of
literal keys, `cfg.TRAIN.EPOCHS` of an `EasyDict` (or `SimpleNamespace`) filled by assignments, in the
module or imported from another; what changes them unseen leaves them unknown."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

TRAIN = """\
import numpy as np
import tensorflow as tf
{head}

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile("adam", "mse")
x = np.zeros((100, 4))
for epoch in range({epochs}):
    model.train_on_batch(x, x)
"""


def step_runs(tmp_path, files: dict[str, str]) -> int | None:
    (tmp_path / ".git").mkdir(exist_ok=True)
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    project_index().refresh()
    (site,) = [s for s in analyse_file(tmp_path / "train.py").callsites if s.api.endswith(".train_on_batch")]
    return site.runs.to_json()["count"]


def train(head: str, epochs: str) -> str:
    return TRAIN.format(head=textwrap.dedent(head), epochs=epochs)


@pytest.mark.parametrize(
    ("head", "epochs", "count"),
    [
        ('config = {"epochs": 5, "lr": 0.1}', 'config["epochs"]', 5),
        ('config = dict(epochs=6)\nconfig["epochs"] = 7', 'config["epochs"]', 7),
        ("from easydict import EasyDict as edict\ncfg = edict()\ncfg.TRAIN = edict()\ncfg.TRAIN.EPOCHS = 20",
         "cfg.TRAIN.EPOCHS", 20),
        ('import easydict\ncfg = easydict.EasyDict({"train": {"epochs": 3}})', "cfg.train.epochs", 3),
        ("from types import SimpleNamespace\nhp = SimpleNamespace(epochs=4)", "hp.epochs", 4),
    ],
)
def test_a_configuration_value_in_the_module_counts(tmp_path, head: str, epochs: str, count: int) -> None:
    assert step_runs(tmp_path, {"train.py": train(head, epochs)}) == count


@pytest.mark.parametrize(
    ("head", "epochs"),
    [
        ('config = {"epochs": 5}\nconfig.update(load())', 'config["epochs"]'),  # changed by what is not seen
        ('config = {"epochs": 5}\nkey = input()\nconfig[key] = 9', 'config["epochs"]'),
        ('config = {"lr": 0.1}', 'config["epochs"]'),  # no such key: a KeyError, not a count
        ("from easydict import EasyDict as edict\ncfg = edict()\nif input():\n    cfg.EPOCHS = 20", "cfg.EPOCHS"),
        ("from easydict import EasyDict as edict\ncfg = edict()\ncfg.EPOCHS = 20\ncfg.update(load())", "cfg.EPOCHS"),
    ],
)
def test_a_configuration_value_changed_or_missing_stays_unknown(tmp_path, head: str, epochs: str) -> None:
    assert step_runs(tmp_path, {"train.py": train("def load():\n    return {}\n" + head, epochs)}) is None


def test_an_attribute_bag_imported_from_a_config_module_counts(tmp_path) -> None:
    config = """\
    from easydict import EasyDict as edict

    __C = edict()
    cfg = __C
    __C.TRAIN = edict()
    __C.TRAIN.FIRST_STAGE_EPOCHS = 20
    __C.TRAIN.SECOND_STAGE_EPOCHS = 30
    """
    head = "from config import cfg"
    epochs = "cfg.TRAIN.FIRST_STAGE_EPOCHS + cfg.TRAIN.SECOND_STAGE_EPOCHS"
    assert step_runs(tmp_path, {"config.py": config, "train.py": train(head, epochs)}) == 50
