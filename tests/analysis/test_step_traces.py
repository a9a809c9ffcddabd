"""Which call of a model traces its step function (analysis/step_traces.py): the first of its kind
since the model's `compile`, in the order the program runs, across functions where that order is known;
a later one reuses it; a validating `fit` traces the test function too; a model built per trip traces
each run."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_source

PROGRAM = """
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(10), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=2)
model.fit(x, y, epochs=3)
model.predict(x)
for i in range(5):
    model.evaluate(x, y)
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y)
for i in range(4):
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    fresh.compile(optimizer="adam", loss="mse")
    fresh.fit(x, y)
"""


def _traces(source: str) -> list[tuple[int, str, dict]]:
    keys = ("traces_step", "traced_at", "traces_each_run", "traces_shared_by")
    return [(s.span.line, s.api.rpartition(".")[2], {k: s.features[k] for k in keys if k in s.features})
            for s in analyse_source(source, "prog.py").callsites if s.api.rpartition(".")[2] in ("fit", "predict", "evaluate")]


def test_the_first_call_of_each_kind_traces_and_a_later_one_reuses_it():
    found = _traces(PROGRAM)
    assert found[:3] == [(5, "fit", {"traces_step": True}), (6, "fit", {"traces_step": False, "traced_at": 5}),
                         (7, "predict", {"traces_step": True})]
    assert (9, "evaluate", {"traces_step": True}) in found  # once for the loop's runs (work_energy.traced_layers)


def test_compile_drops_the_traced_functions():
    assert (11, "fit", {"traces_step": True}) in _traces(PROGRAM)


def test_a_model_built_on_each_trip_traces_each_run():
    assert (15, "fit", {"traces_step": True, "traces_each_run": True}) in _traces(PROGRAM)


def test_an_earlier_call_in_another_function_traced_it_where_the_order_is_known():
    source = PROGRAM + "model.predict(x)\n\ndef later(m):\n    m.predict(x)\n\nlater(model)\n"
    assert _traces(source)[-2:] == [(16, "predict", {"traces_step": True}),
                                    (19, "predict", {"traces_step": False, "traced_at": 16})]


def test_a_call_of_another_function_under_a_branch_leaves_the_order_unknown():
    source = PROGRAM + "def later(m):\n    m.predict(x)\n\nif flag:\n    later(model)\nmodel.predict(x)\n"
    assert _traces(source)[-2:] == [(17, "predict", {"traces_step": True}), (21, "predict", {})]


TRAIN_THEN_SCORE = """
import tensorflow as tf

def score(m):
    m.evaluate(x, y)

def train(m):
    m.fit(x, y, epochs=3{validation})

def main():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    train(model)
    score(model)

main()
"""


def test_the_order_of_calls_across_functions_is_the_order_their_functions_run_not_the_walk_s():
    # score is walked first (defined first, its call put off like train's), but runs after train
    found = _traces(TRAIN_THEN_SCORE.format(validation=""))
    assert found == [(5, "evaluate", {"traces_step": True}), (8, "fit", {"traces_step": True})]
    found = _traces(TRAIN_THEN_SCORE.format(validation=", validation_data=(x, y)"))
    assert found == [(5, "evaluate", {"traces_step": False, "traced_at": 8}), (8, "fit", {"traces_step": True})]


def test_a_fit_that_validates_traces_the_test_function_for_a_later_evaluate():
    head = "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss='mse')\n"
    for validation, expected in ((", validation_data=(x, y)", {"traces_step": False, "traced_at": 4}),
                                 (", validation_split=0.2", {"traces_step": False, "traced_at": 4}),
                                 (", validation_split=0.0", {"traces_step": True}),
                                 (", validation_data=untyped", {"traces_step": False, "traced_at": 4}),
                                 (", validation_split=flag", {})):
        found = _traces(head + f"model.fit(x, y{validation})\nmodel.evaluate(x, y)\n")
        assert found[1] == (5, "evaluate", expected), validation


def test_a_model_built_in_the_function_traces_on_each_call_one_passed_in_once():
    source = PROGRAM + ("\ndef train(data):\n    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                        "    m.compile(optimizer='adam', loss='mse')\n    m.fit(data)\n\n"
                        "def score(m):\n    m.predict(x)\n\ntrain(x)\ntrain(x)\nscore(fresh)\nscore(fresh)\n")
    found = _traces(source)
    assert (20, "fit", {"traces_step": True, "traces_each_run": True}) in found
    assert (23, "predict", {"traces_step": True}) in found


def test_the_loops_inside_the_one_that_rebuilds_the_model_share_its_tracing():
    source = ("import tensorflow as tf\nfor ckpt in ['a', 'b', 'c']:\n    model = tf.keras.models.load_model(ckpt)\n"
              "    for i in range(200):\n        model.predict(x)\n")
    assert _traces(source) == [(5, "predict", {"traces_step": True, "traces_each_run": True, "traces_shared_by": 200})]
