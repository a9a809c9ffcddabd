"""GL503's random draws (`feed_work._draws`) are known by the module their name is imported as:
NumPy's `random` under any alias counts, a project's own module named `random` does not (its
functions may do any work per item)."""

from __future__ import annotations

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source

GL503 = Config(select=("GL503",), no_cache=True)

SKIP_GRAM = (
    "import numpy as np\nimport tensorflow as tf\n{imports}\n\n\ndef generate_batch(size, skips):\n"
    "    batch = np.ndarray(shape=(size,), dtype=np.int32)\n    for i in range(size // skips):\n"
    "        for j in range(skips):\n            target = {draw}\n            batch[i * skips + j] = buffer[target]\n"
    "    return batch\n\n\nwith tf.compat.v1.Session() as sess:\n    for step in range(100001):\n"
    "        sess.run([optimizer, loss], feed_dict={{train_inputs: generate_batch(128, 2)}})\n"
)


def _lines(text: str, path: str, predictor) -> list[int]:
    return [d.span.line for d in check_source(text, path, GL503, predictor) if d.code == "GL503"]


def test_numpy_random_under_an_alias_is_a_draw(tmp_path, predictor):
    for imports, draw in (("import numpy.random as npr", "npr.randint(0, 3)"),
                          ("from numpy import random as rnd", "rnd.randint(0, 3)"),
                          ("from random import randint", "randint(0, 3)")):
        text = SKIP_GRAM.format(imports=imports, draw=draw)
        assert _lines(text, str(tmp_path / "train.py"), predictor) == [], imports


def test_a_call_named_like_a_draw_of_no_random_module_is_work(tmp_path, predictor):
    text = SKIP_GRAM.format(imports="import random", draw="random.randint(0, 3)")
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / "random.py").write_text("def randint(low, high):\n    return decode(low, high)\n")
    assert _lines(text, str(tmp_path / "own" / "train.py"), predictor) == [17]  # a project's `random` module
    assert _lines(text, str(tmp_path / "train.py"), predictor) == []  # the standard library's


def test_a_draw_from_a_module_a_star_import_brings_is_a_draw(tmp_path, predictor):
    """`from common import *` where common.py imports `random` (and NumPy as `npr`): its names are
    those modules."""
    (tmp_path / "common.py").write_text("import random\nimport numpy.random as npr\n")
    for draw in ("random.randint(0, 3)", "npr.randint(0, 3)"):
        text = SKIP_GRAM.format(imports="from common import *", draw=draw)
        assert _lines(text, str(tmp_path / "train.py"), predictor) == [], draw



def test_a_star_import_brings_what_its_all_exports(tmp_path, predictor):
    (tmp_path / "common.py").write_text("import random as rnd\n__all__ = ['rnd', 'batches']\n")
    text = SKIP_GRAM.format(imports="from common import *", draw="rnd.randint(0, 3)")
    assert _lines(text, str(tmp_path / "train.py"), predictor) == []
    (tmp_path / "common.py").write_text("import random as rnd\n__all__ = ['batches']\n")  # (`rnd` then not defined)
    assert _lines(text, str(tmp_path / "train.py"), predictor) == [17]
