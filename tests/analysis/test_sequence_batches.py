"""A `keras.utils.Sequence` given to `fit` batches itself, as a generator does: Keras draws
`__getitem__(i)` per step and ignores `fit`'s `batch_size`. The fit's batch is what `__getitem__`
returns, with `self` as the file's constructions set it, or unknown; never Keras' default 32."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file, analyse_source

SEQUENCE = """\
import numpy as np
from tensorflow import keras


class Batches(keras.utils.Sequence):
    def __init__(self, rows, batch_size=1):
        self.rows = rows
        self.batch_size = batch_size

    def __len__(self):
        return len(self.rows) // self.batch_size

    def __getitem__(self, i):
        part = self.rows[i * self.batch_size:(i + 1) * self.batch_size]
        return np.stack(part), np.zeros(self.batch_size)


model = keras.Sequential([keras.layers.Dense(1, input_shape=(8,))])
model.compile("adam", "mse")
"""


def _fits(text: str) -> list:
    result = analyse_source(text, path="train.py")
    assert result.errors == []
    return [s for s in result.callsites if s.api.endswith((".fit", ".fit_generator"))]


def test_the_batch_a_sequence_returns_is_the_fits_batch():
    for call in ("model.fit(Batches(rows, batch_size=4), epochs=3)\n",
                 "gen = Batches(rows, 4)\nmodel.fit_generator(gen, epochs=3)\n"):
        [fit] = _fits(SEQUENCE + call)
        batch = fit.work["batch_size"]
        assert (batch.value, batch.provenance) == (4, "inferred")
        assert batch.note.startswith("the Sequence's __getitem__ returns batches of 4")
        assert fit.work["samples"].value is None  # its __len__ is not read


def test_a_training_and_a_validation_sequence_of_one_batch_give_it():
    """Two constructions passing one batch: `__init__`, first walked before the second was seen, is
    walked again for what they pass (resolver.returned_as_constructed)."""
    [fit] = _fits(SEQUENCE + "size = 4\ntrain = Batches(rows, size)\nval = Batches(rows, size)\n"
                  "model.fit(train, validation_data=val, epochs=3)\n")
    assert fit.work["batch_size"].value == 4


def test_constructions_that_differ_leave_the_sequences_batch_unknown():
    """`self` is the class's, its attributes merged over the constructions seen: a training Sequence of 4
    and a validation one of 64, both made before the fit, give it no one batch. A fit given one made
    before the other is (the first below) has its batch: the second construction is not seen yet."""
    [fit] = _fits(SEQUENCE + "train = Batches(rows, 4)\nval = Batches(rows, 64)\n"
                  "model.fit(train, validation_data=val, epochs=3)\n")
    batch = fit.work["batch_size"]
    assert batch.value is None and batch.note == "the Sequence's batch size is not known statically"
    fits = _fits(SEQUENCE + "model.fit(Batches(rows, 4), epochs=3)\nmodel.fit(Batches(rows, 64), epochs=3)\n")
    assert [fit.work["batch_size"].value for fit in fits] == [4, None]


def test_a_fits_batch_size_is_not_the_batch_of_a_sequence_it_is_given():
    """`fit(seq, batch_size=32)`: Keras takes the Sequence's batches, whatever fit is told."""
    fits = _fits(SEQUENCE.replace("np.zeros(self.batch_size)", "np.zeros(len(part))")
                 + "model.fit(Batches(rows, 4), batch_size=32, epochs=3)\n")
    assert fits[0].work["batch_size"].value is None


def _other_module_fits(tmp_path, calls: str) -> list:
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "batches.py").write_text(SEQUENCE.split("\n\nmodel = ", 1)[0] + "\n")
    (tmp_path / "main.py").write_text(
        "from tensorflow import keras\nfrom batches import Batches\n"
        "model = keras.Sequential([keras.layers.Dense(1, input_shape=(8,))])\n" + calls
    )
    return [s for s in analyse_file(tmp_path / "main.py").callsites if s.api.endswith(".fit")]


def test_a_sequence_of_another_module_batches_as_its_construction_here_asks(tmp_path):
    """Its `__init__` and `__getitem__` are walked again with this file's arguments (their Templates):
    each construction its own batch, a `**dict` spread in as well; never Keras' default 32."""
    fits = _other_module_fits(tmp_path, "model.fit(Batches(rows, batch_size=2), epochs=3)\n"
                              "common = {'batch_size': 16}\nmodel.fit(Batches(rows, **common), epochs=3)\n"
                              "model.fit(Batches(rows), epochs=3)\n")
    assert [fit.work["batch_size"].value for fit in fits] == [2, 16, 1]
    assert all(fit.features.get("input_kind") == "sequence" for fit in fits)


def test_a_sequence_of_another_module_given_an_unknown_batch_has_none(tmp_path):
    [fit] = _other_module_fits(tmp_path, "model.fit(Batches(rows, batch_size=size()), epochs=3)\n")
    assert fit.work["batch_size"].value is None


def _batch(call: str):
    [fit] = _fits(SEQUENCE + call)
    return fit.work["batch_size"].value


def test_a_dict_the_code_shows_is_spread_into_the_constructions_keywords():
    """`**common` where `common` is a dict display, `dict(k=v)`, `dict(other, k=v)` or `{}` given literal
    keys: its keys are the call's keywords (builders.spread), so the Sequence's batch is the one it holds."""
    fit = "model.fit(Batches(rows, **common), epochs=3)\n"
    for built in ("common = {'batch_size': 4}\n",
                  "common = dict(batch_size=4)\n",
                  "base = {'batch_size': 4}\ncommon = dict(base)\n",
                  "common = {}\ncommon['batch_size'] = 4\n",
                  "common = dict(batch_size=4)\nprint(common)\n"):
        assert _batch(built + fit) == 4, built


def test_a_dict_changed_where_the_analysis_cannot_follow_spreads_nothing_and_no_default_holds():
    """A `**d` whose keys are not known may pass any parameter: it is unknown, not its default (1 here);
    so is a parameter an unknown `*seq` may fill."""
    fit = "model.fit(Batches(rows, **common), epochs=3)\n"
    for built in ("common = {'batch_size': 4}\ncommon.update(other)\n",
                  "common = {'batch_size': 4}\ncommon[name] = 2\n",
                  "common = {'batch_size': 4}\ncommon.clear()\n",
                  "common = {'batch_size': 4}\nchange(common)\n",
                  "common = dict(options)\n",
                  "common = load()\n"):
        assert _batch(built + fit) is None, built
    assert _batch("model.fit(Batches(*things), epochs=3)\n") is None
    assert _batch("model.fit(Batches(rows), epochs=3)\n") == 1  # nothing spread: the default holds
