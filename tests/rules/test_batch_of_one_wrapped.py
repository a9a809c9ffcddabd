"""GL206 on a call of another module's helper that runs the model on a batch of one it makes from
its parameter (greenlint.rules.batch_of_one_in_loop, `_wrapped_item`): keras-yolo2's
`yolo.predict(image)` once per frame of a video, its `np.expand_dims` in frontend.py."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

FRONTEND = (
    "import numpy as np\nimport tensorflow as tf\n\n\nclass Detector:\n"
    "    def __init__(self, path):\n        self.model = tf.keras.models.load_model(path)\n\n"
    "    def detect(self, image):\n        {BATCH}\n"
    "        return self.model.predict_on_batch(batch)\n"
)
VIDEO = (
    "from frontend import Detector\n\ndetector = Detector('m.keras')\nfor i in range(nb_frames):\n"
    "    ok, image = reader.read()\n    boxes = detector.detect(image)\n    image = draw(image, boxes)\n"
)


def _gl206(tmp_path, predictor, batch: str, main: str = VIDEO) -> list[str]:
    files = {"frontend.py": FRONTEND.replace("{BATCH}", batch), "video.py": main}
    return [f"{d.span.line}: {d.message}" for d in check_in_project(tmp_path, predictor, files, "video.py", "GL206")]


def test_a_helper_of_another_module_making_a_batch_of_one_per_frame_is_reported(tmp_path, predictor):
    found = _gl206(tmp_path, predictor, "batch = np.expand_dims(image, 0)")
    assert len(found) == 1 and found[0].startswith("6: "), found
    assert "(through `detector.detect`" in found[0]


def test_a_helper_given_whole_batches_is_not(tmp_path, predictor):
    assert _gl206(tmp_path, predictor, "batch = np.stack(image)") == []


def test_a_helper_called_on_the_same_item_each_pass_is_not(tmp_path, predictor):
    same = "from frontend import Detector\n\ndetector = Detector('m.keras')\nfor i in range(nb_frames):\n    detector.detect(probe)\n"
    assert _gl206(tmp_path, predictor, "batch = np.expand_dims(image, 0)", same) == []
