"""A call of another module's helper listed as the TF call it makes (analysis/wrappers.py): rules
that judge a call by its arguments do not read the helper's arguments as the TF call's."""

from __future__ import annotations

import json
import textwrap

from greenlint.cli import main

HELPER = """
from tensorflow import keras


class Detector:
    def __init__(self):
        self.model = keras.models.load_model("detector.keras")

    def predict(self, image):
        return self.model.predict(image[None], verbose=0)
"""

SCRIPT = """
import numpy as np
from detector import Detector

yolo = Detector()
for frame in range(1000):
    boxes = yolo.predict(np.zeros((416, 416, 3)))
"""


def test_a_wrapped_predict_per_frame_is_found_but_its_verbose_is_not_taken_for_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "detector.py").write_text(textwrap.dedent(HELPER).lstrip("\n"))
    (tmp_path / "predict.py").write_text(textwrap.dedent(SCRIPT).lstrip("\n"))
    main(["check", "predict.py", "--isolated", "--no-cache", "--select", "GL201,GL204", "--format", "json"])
    found = {(d["location"]["row"], d["code"]) for d in json.loads(capsys.readouterr().out)}
    assert (6, "GL201") in found  # one predict() per frame, through the helper
    assert (6, "GL204") not in found  # the helper passes verbose=0: its call's arguments are not seen here
