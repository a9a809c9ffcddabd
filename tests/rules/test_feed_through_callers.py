"""GL503 on a run fed its function's parameters, its function called in a loop (greenlint.rules.
session_feed_dict_in_loop): the batches drawn from a method of a project class's instance, and from a
reader whose generator fetches them through a session of its own (attention-ocr's shape)."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

MODEL = (
    "import tensorflow as tf\nfrom data import Loader\n\n\nclass Model:\n"
    "    def step(self, batch):\n        feed = {}\n        feed[self.x] = batch['images']\n"
    "        return self.sess.run(self.train_op, feed)\n\n"
    "    def train(self, path):\n        data = Loader(path)\n"
    "        for batch in data.gen(64):\n            self.step(batch)\n"
)
READER = (
    "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\n\n\nclass Loader:\n"
    "    def __init__(self, path):\n        self.records = tf.compat.v1.data.TFRecordDataset([path])\n\n"
    "    def gen(self, size):\n        images = []\n        with tf.compat.v1.Session() as sess:\n"
    "            while True:\n                raw = sess.run(self.next_records)\n"
    "                for item in raw:\n                    images.append({APPEND})\n"
    "                    if len(images) == size:\n                        yield {{'images': np.stack(images)}}\n"
    "                        images = []\n"
)


def _reader(append: str) -> str:
    """The reader module, each record turned into what *append* says before it joins the batch."""
    return READER.replace("{APPEND}", append).replace("{{", "{").replace("}}", "}")


def _gl503(tmp_path, predictor, append: str) -> list[str]:
    files = {"data.py": _reader(append), "model.py": MODEL}
    return [f"{d.span.line}: {d.message}" for d in check_in_project(tmp_path, predictor, files, "model.py", "GL503")]


def test_a_reader_class_of_another_module_decoding_per_item_is_the_feeds_host_work(tmp_path, predictor):
    found = _gl503(tmp_path, predictor, "np.asarray(Image.open(item))")
    assert len(found) == 1 and found[0].startswith("9: ")
    assert "a Python loop over its items (in `gen`, line 15)" in found[0]  # the loop over the items, not the `while`


def test_a_reader_class_slicing_arrays_in_memory_claims_no_host_work(tmp_path, predictor):
    memory = (
        "import numpy as np\n\n\nclass Loader:\n    def __init__(self, path):\n        self.images = np.load(path)\n\n"
        "    def gen(self, size):\n        for start in range(0, len(self.images), size):\n"
        "            yield {'images': self.images[start:start + size]}\n"
    )
    files = {"data.py": memory, "model.py": MODEL}
    assert check_in_project(tmp_path, predictor, files, "model.py", "GL503") == []


def test_a_reader_kept_in_an_attribute_is_followed_to_its_class(tmp_path, predictor):
    model = (
        "import tensorflow as tf\nfrom data import Loader\n\n\nclass Model:\n"
        "    def __init__(self, path):\n        self.loader = Loader(path)\n\n"
        "    def train(self):\n        for batch in self.loader.gen(64):\n"
        "            self.sess.run(self.train_op, feed_dict={self.x: batch['images']})\n"
    )
    files = {"data.py": _reader("np.asarray(Image.open(item))"), "model.py": model}
    found = check_in_project(tmp_path, predictor, files, "model.py", "GL503")
    assert [d.span.line for d in found] == [11]
    assert "in `gen`, line 15" in found[0].message
