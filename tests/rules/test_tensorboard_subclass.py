"""GL315 reading a `TensorBoard` subclass of a project module (greenlint.rules.tensorboard_subclass):
its batch hook writing and flushing summaries every `log_every` batches, set by an argument."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

BOARD = (
    "import tensorflow as tf\nfrom tensorflow.keras.callbacks import TensorBoard\n"
    "class BatchBoard(TensorBoard):\n"
    "    def __init__(self, log_every=1, **kwargs):\n        super().__init__(**kwargs)\n"
    "        self.log_every = log_every\n        self.seen = 0\n"
    "    def on_batch_end(self, batch, logs=None):\n        self.seen += 1\n"
    "        if self.seen % self.log_every == 0:\n            for name, value in logs.items():\n"
    "                if name == 'size':\n                    continue\n"
    "                self.writer.add_summary(scalar(name, value), self.seen)\n"
    "            self.writer.flush()\n"
    "        super().on_batch_end(batch, logs)\n"
)
TRAIN = (
    "import tensorflow as tf\nfrom boards import BatchBoard\n"
    "m = tf.keras.Sequential()\nboard = BatchBoard({arguments})\n"
    "m.fit(x, y, epochs=50, callbacks=[board])\n"
)


def _gl315(tmp_path, predictor, arguments: str, board: str = BOARD) -> list[str]:
    files = {"boards.py": board, "train.py": TRAIN.format(arguments=arguments)}
    return [d.message for d in check_in_project(tmp_path, predictor, files, "train.py", "GL315")]


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ("log_dir='logs'", "`BatchBoard(...)` (`log_every` = 1 by default), a `TensorBoard` subclass of the project,"
         " writes summaries from its batch hook every batch"),
        ("log_every=2, log_dir='logs'", "every 2 batches"),
        ("1, log_dir='logs'", "every batch"),
    ],
)
def test_a_project_tensorboard_that_writes_every_few_batches(tmp_path, predictor, arguments, said):
    found = _gl315(tmp_path, predictor, arguments)
    assert len(found) == 1 and said in found[0], found


@pytest.mark.parametrize(
    ("arguments", "board"),
    [
        ("log_every=500, log_dir='logs'", BOARD),  # every 500 batches
        ("log_every=args.every", BOARD),  # a figure the file does not show
        ("**options", BOARD),  # the options may set it
        ("log_dir='logs'", BOARD.replace("self.seen % self.log_every == 0", "logs['loss'] < self.best")),  # not a rate
        ("log_dir='logs'", BOARD.replace("(TensorBoard)", "(tf.keras.callbacks.Callback)")),  # not a TensorBoard
        ("log_dir='logs'", BOARD.replace("def on_batch_end", "def on_epoch_end")),  # once per epoch
    ],
)
def test_a_project_tensorboard_that_writes_rarely_or_unknown_is_not_reported(tmp_path, predictor, arguments, board):
    assert _gl315(tmp_path, predictor, arguments, board) == []
