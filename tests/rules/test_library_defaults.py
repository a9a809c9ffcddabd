"""A default of a parameter of a function the file neither calls nor names (`defaults.Origin.UNCALLED`):
a library's API, whose callers elsewhere pass the value that runs. GL301 declines it; the same
default of a function the file calls, or passes on (`app.run(main)`), is what runs."""

from __future__ import annotations

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source

GL301 = Config(select=("GL301",), no_cache=True)

HEAD = "import tensorflow as tf\nfiles = ['a.jpg', 'b.jpg']\n"
EVAL = (
    "def build_eval_dataset(filenames, batch_size=1):\n"
    "    dataset = tf.data.Dataset.from_tensor_slices(filenames)\n"
    "    dataset = dataset.map(tf.io.read_file)\n"
    "    return dataset.batch(batch_size)\n"
)


def _lines(text: str, predictor) -> list[int]:
    return [d.span.line for d in check_source(text, "data.py", GL301, predictor) if d.code == "GL301"]


def test_the_batch_default_of_a_function_the_file_never_names_is_not_reported(predictor):
    assert _lines(HEAD + EVAL, predictor) == []


def test_the_same_default_is_what_runs_where_the_file_calls_it_or_passes_it_on(predictor):
    assert _lines(HEAD + EVAL + "ds = build_eval_dataset(files)\n", predictor) == [6]
    assert _lines(HEAD + EVAL + "app.run(build_eval_dataset)\n", predictor) == [6]


def test_a_default_reached_through_a_caller_the_file_never_names_is_declined(predictor):
    # the function around the batch is called; the value comes from a default of one that is not
    pipeline = EVAL.replace("batch_size=1", "batch_size")
    caller = "def evaluate(model, size=1):\n    return model.predict(build_eval_dataset(files, size))\n"
    assert _lines(HEAD + pipeline + caller, predictor) == []
    assert _lines(HEAD + pipeline + caller + "evaluate(tf.keras.Sequential())\n", predictor) == [6]
