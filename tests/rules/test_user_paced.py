"""GL330 on a loop a person paces through a function of a project module (greenlint.rules.user_paced):
the demo script calls on every pass a helper that waits for a key where the call asks it to show."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

HELPER = (
    "import cv2\n\n\ndef detect(model, image, show=False):\n    boxes = model(image[None])\n"
    "    if show:\n        cv2.imshow('boxes', image)\n        cv2.waitKey(0)\n    return boxes\n"
)
DEMO = (
    "import cv2\nimport tensorflow as tf\nfrom tools.helpers import detect\n\n"
    "model = tf.keras.Sequential()\nwhile True:\n    image = cv2.imread(pick())\n"
    "    model.predict(image[None])\n    detect(model, image, show=True)\n"
)


def _gl330(tmp_path, predictor, demo: str) -> list:
    files = {"setup.py": "", "tools/__init__.py": "", "tools/helpers.py": HELPER, "demo.py": demo}
    return check_in_project(tmp_path, predictor, files, "demo.py", "GL330")


@pytest.mark.parametrize("call", ["detect(model, image, show=True)", "detect(model, image, True)"])
def test_no_finding_where_an_imported_helper_waits_for_a_key_on_every_pass(tmp_path, predictor, call):
    assert _gl330(tmp_path, predictor, DEMO.replace("detect(model, image, show=True)", call)) == []


@pytest.mark.parametrize(
    "call",
    ["detect(model, image)", "detect(model, image, show=False)", "if fast:\n        detect(model, image, show=True)"],
    ids=["default-shows-nothing", "asked-not-to-show", "called-on-some-passes"],
)
def test_a_helper_that_does_not_wait_on_every_pass_leaves_the_loop_endless(tmp_path, predictor, call):
    (found,) = _gl330(tmp_path, predictor, DEMO.replace("detect(model, image, show=True)", call))
    assert found.span.line == 6
