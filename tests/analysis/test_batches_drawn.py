"""`*_on_batch` on a batch drawn from a Python generator of another module (`x = next(gen)`): its
`samples` are the generator's batch where its yields show it, else unknown with a note naming the
generator, so that the call is priced from what is known (a floor) rather than left without a figure
(image-segmentation-keras' model_compression.py)."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file

LOADER = """
import cv2
import numpy as np


def image_generator(paths, batch_size):
    while True:
        images = []
        for _ in range({batch}):
            images.append(cv2.imread(paths[0]))
        yield np.array(images)
"""

DISTIL = """
import tensorflow as tf
from tensorflow import keras

from loader import image_generator


class Distiller(keras.Model):
    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher


def fit_custom(model, gen, steps):
    for i in range(steps):
        x = next(gen)
        model.train_on_batch(x)


def distil(teacher, student, paths, batch_size=6):
    model = Distiller(student, teacher)
    gen = image_generator(paths, batch_size)
    fit_custom(model, gen, steps=512)
"""


def site(tmp_path, batch: str):
    (tmp_path / "loader.py").write_text(textwrap.dedent(LOADER.replace("{batch}", batch)), encoding="utf-8")
    (tmp_path / "distil.py").write_text(textwrap.dedent(DISTIL).lstrip("\n"), encoding="utf-8")
    result = analyse_file(tmp_path / "distil.py")
    assert result.errors == []
    return next(s for s in result.callsites if s.api.endswith(".train_on_batch"))


def test_a_batch_drawn_from_a_generator_of_unknown_batch_says_which_fact_is_missing(tmp_path):
    found = site(tmp_path, "batch_size")
    samples = found.work["samples"]
    assert samples.value is None and samples.provenance == "unknown"
    assert "Python generator" in samples.note and "cv2.imread" in samples.note
    assert "subclassed model" in found.work["flops_per_sample"].note  # its models are given to it


def test_a_batch_drawn_from_a_generator_whose_yields_show_their_size_has_that_size(tmp_path):
    found = site(tmp_path, "8")
    assert found.work["samples"].value == 8
