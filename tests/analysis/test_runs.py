"""`CallSite.runs`: how often a call site runs per program run (loops, if/break, calls of its function)."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

HEADER = "import tensorflow as tf\nfrom tensorflow import keras\nm = keras.Sequential()\n"


def runs(code: str) -> dict[int, dict]:
    """line (in *code*, 1-based) -> runs of the model-method call on it."""
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    skip = HEADER.count("\n")
    return {s.span.line - skip: s.runs.to_json() for s in result.callsites if s.api.startswith("tensorflow.keras.Sequential.")}


def count(r: dict) -> tuple:
    return r["count"], r["bound"]


def test_top_level_call_runs_once_and_literal_loops_multiply():
    found = runs(
        """
        m.fit(x)
        for i in range(3):
            for j in [1, 2]:
                m.predict(x)
        """
    )
    assert count(found[2]) == (1, "exact") and found[2]["note"] is None
    assert count(found[5]) == (6, "exact")


def test_python_2_ranges_count_like_range():
    """`xrange`, Python 2's builtin or imported from six.moves, counts its trips; a project's own
    function of that name does not."""
    found = runs(
        """
        from six.moves import xrange
        for i in xrange(4):
            m.predict(x)
        """
    )
    assert count(found[4]) == (4, "exact")
    assert count(runs("for i in xrange(2, 8):\n    m.predict(x)\n")[2]) == (6, "exact")
    own = runs("def xrange(n):\n    return load(n)\nfor i in xrange(4):\n    m.predict(x)\n")
    assert own[4]["count"] != 4


def test_a_progress_bar_runs_as_often_as_what_it_wraps():
    """`tqdm(range(n))`, `trange(a, b)`, `tqdm.auto.tqdm(items, desc=...)`: the bar yields what it wraps."""
    found = runs(
        """
        import tqdm
        from tqdm.auto import tqdm as bar, trange
        for i in tqdm.tqdm(range(7), desc="epochs"):
            m.predict(x)
        for i in trange(2, 8, leave=False):
            m.predict(x)
        for item in bar([1, 2, 3]):
            m.predict(x)
        for i in tqdm.trange(4):
            m.predict(x)
        """
    )
    assert [count(found[line]) for line in (5, 7, 9, 11)] == [(7, "exact"), (6, "exact"), (3, "exact"), (4, "exact")]
    other = runs("import progress_meter\nfor i in progress_meter.tqdm(range(7)):\n    m.predict(x)\n")
    assert other[3]["count"] != 7  # another library's function of that name is not tqdm's


def test_a_counted_while_loop_runs_its_count():
    """`while step < n: ...; step += k` counts its trips; other conditions make it an upper bound;
    a counter bound again, stepped under a condition or skipped by `continue` leaves it unknown."""
    found = runs(
        """
        step = 0
        while step < 50:
            m.predict(x)
            step += 1
        i = 10
        while i <= 40 and not done:
            m.predict(x)
            i += 10
        """
    )
    assert count(found[4]) == (50, "exact")
    assert count(found[8]) == (4, "upper")
    unknown = [
        "step = 0\nwhile step < 50:\n    m.predict(x)\n    step = sess.run(global_step)\n    step += 1\n",
        "step = 0\nwhile step < 50:\n    m.predict(x)\n    if ok:\n        step += 1\n",
        "step = 0\nwhile step < 50:\n    if skip():\n        continue\n    m.predict(x)\n    step += 1\n",
        "step = 0\nwhile step != 5:\n    m.predict(x)\n    step += 2\n",
    ]
    for code in unknown:
        [site] = runs(code).values()
        assert site["count"] is None, code


def test_a_loop_resuming_at_a_start_not_known_runs_at_most_its_stop():
    """`range(start_epoch, epochs)` where `start_epoch` is 0 without a checkpoint and read from one
    otherwise: at most `epochs` trips; a start never bound to 0 leaves the count unknown."""
    code = """
        def train(epochs=20):
            if could_load():
                start_epoch = counter() // 100
            else:
                start_epoch = 0
            for epoch in range(start_epoch, epochs):
                m.predict(x)
        train()
        """
    found = runs(code)[8]
    assert count(found) == (20, "upper")
    assert "resumes its count at a start not known here" in found["note"]
    assert "under a condition" not in found["note"]
    assert runs(code.replace("start_epoch = 0", "start_epoch = first()"))[8]["count"] is None
    guarded = runs(code.replace("                m.predict(x)", "                if ok:\n                    m.predict(x)"))[9]
    assert "under a condition" in guarded["note"] and "resumes its count" in guarded["note"]


def test_a_call_under_if_in_a_loop_is_at_most_the_loop_bound():
    found = runs(
        """
        for epoch in range(201):
            if epoch > 10 and verbose:
                m.fit(x)
            m.predict(x)
        """
    )
    assert count(found[4]) == (201, "upper")
    assert "at most" in found[4]["note"]
    assert count(found[5]) == (201, "exact")  # the unguarded sibling


def test_a_guard_on_one_residue_divides_the_loop_count():
    """`step % 100 == 99` holds once every 100 steps like `== 0`; a residue read from the step, or one
    the divisor can never leave, is no period."""
    found = runs(
        """
        class Trainer:
            def __init__(self):
                self.every = 50

            def train(self):
                for step in range(10000):
                    m.train_on_batch(x, y)
                    if step % 100 == 99:
                        m.save("ckpt.keras")
                    if step % self.every == self.every - 1:
                        m.evaluate(x)
                    if step % 10 == step // 1000:
                        m.predict(x)
                    if step % 10 == 10:
                        m.test_on_batch(x, y)

        Trainer().train()
        """
    )
    assert count(found[10]) == (100, "upper")
    assert count(found[12]) == (200, "upper")
    assert count(found[14]) == (10000, "upper")  # the residue moves with the step: only the loop bounds it
    assert count(found[16]) == (10000, "upper")


def test_a_modulo_guard_divides_the_loop_count():
    found = runs(
        """
        for step in range(10000):
            m.train_on_batch(x, y)
            if step % 100 == 0:
                m.save("ckpt.keras")
            else:
                m.predict(x)
            if (step + 1) % 10 == 0 and verbose:
                m.evaluate(x)
            for k in range(3):
                if 0 == k % 2:
                    m.test_on_batch(x, y)
        """
    )
    assert count(found[3]) == (10000, "exact")
    assert count(found[5]) == (100, "upper") and found[5]["loop"] == 100  # not 10000
    assert count(found[7]) == (10000, "upper")  # the else branch: at most the bound
    assert count(found[9]) == (1000, "upper")
    assert count(found[12]) == (20000, "upper")  # k in 0, 2 of 3, each of 10000 steps


def test_a_modulo_guard_by_a_name_divides_by_the_value_it_holds():
    """`epoch % save_interval == 0` with the interval a module constant or a parameter bound at the
    function's one call, or computed from one (`save_interval * 10`), divides as a literal does; an
    interval of unknown value divides nothing."""
    found = runs(
        """
        EVERY = 50
        def train(epochs, save_interval=10):
            for epoch in range(epochs):
                m.train_on_batch(x, y)
                if epoch % save_interval == 0:
                    m.predict(x)
                if epoch % EVERY == 0:
                    m.save("ckpt.keras")
                if epoch % interval_of_unknown_value == 0:
                    m.evaluate(x)
                if epoch % (save_interval * 10) == 0:
                    m.test_on_batch(x, y)
                if epoch % (interval_of_unknown_value * 10) == 0:
                    m.predict_on_batch(x)
        train(epochs=4000, save_interval=200)
        """
    )
    assert count(found[5]) == (4000, "exact")
    assert count(found[7]) == (20, "upper")  # 4000 / 200, the value bound at the call, not the default
    assert count(found[9]) == (80, "upper")
    assert count(found[11]) == (4000, "upper")  # at most the loop bound
    assert count(found[13]) == (2, "upper")  # an interval computed from the name's value: 4000 / 2000
    assert count(found[15]) == (4000, "upper")


def test_a_modulo_guard_by_a_dict_entry_divides_by_the_value_it_holds():
    """`step % config["every"] == 0` divides by the entry the analysis resolves; an entry of a dict
    of unknown content divides nothing."""
    found = runs(
        """
        config = {"every": 50}
        for step in range(4000):
            m.train_on_batch(x, y)
            if step % config["every"] == 0:
                m.save("ckpt.keras")
            if step % loaded["every"] == 0:
                m.predict(x)
        """
    )
    assert count(found[6]) == (80, "upper")
    assert count(found[8]) == (4000, "upper")


def test_a_modulo_guard_by_a_command_line_option_divides_by_its_default():
    """`step % args.display_step == 0` (argparse) and `FLAGS.k` (absl) divide by the option's
    default, which the note names: a command line may change it; `np.mod`/`tf.math.mod` take the
    remainder as `%` does; `or step == 1` runs once more; an option with no default divides nothing."""
    found = runs(
        """
        import argparse
        import numpy as np
        from absl import flags
        LOG_EVERY = 250
        parser = argparse.ArgumentParser()
        parser.add_argument("--display-step", type=int, default=100)
        parser.add_argument("--log_every", type=int, default=LOG_EVERY)
        parser.add_argument("--eval_every", type=int)
        flags.DEFINE_integer("save_steps", 500, "save every")
        args = parser.parse_args()
        FLAGS = flags.FLAGS
        for step in range(10000):
            if step % args.display_step == 0 or step == 1:
                m.predict(x)
            if np.mod(step, FLAGS.save_steps) == 0:
                m.save("ckpt.keras")
            if tf.math.mod(step, args.log_every) == 0:
                m.evaluate(x)
            if step % args.eval_every == 0:
                m.test_on_batch(x, y)
            if not step % 40:
                m.train_on_batch(x, y)
        """
    )
    assert count(found[15]) == (101, "upper")  # 100 periods and step 1
    assert "default of `--display_step`" in found[15]["note"] and "command line may change" in found[15]["note"]
    assert count(found[17]) == (20, "upper") and "`--save_steps`" in found[17]["note"]
    assert count(found[19]) == (40, "upper")  # the default a module constant
    assert count(found[21]) == (10000, "upper") and "command line" not in found[21]["note"]
    assert count(found[23]) == (250, "upper")


def test_a_modulo_guard_in_a_helper_divides_its_calls():
    found = runs(
        """
        def log(step):
            if step % 100 == 0:
                m.save("ckpt.keras")
        for step in range(1000):
            log(step)
        """
    )
    assert count(found[4]) == (10, "upper") and found[4]["loop"] == 10


def test_loops_say_loop_and_callers_say_callers():
    found = runs(
        """
        def show(x):
            return m.predict(x)
        show(a)
        show(b)
        def score(x):
            return m.evaluate(x)
        for i in range(3):
            score(x)
        """
    )
    helper = found[3]  # a helper called from two cells runs twice, in no loop
    assert (helper["count"], helper["loop"], helper["callers"], helper["varies"]) == (2, 1, 2, False)
    looped = found[7]  # a helper called from a 3-trip loop runs 3 times, in a loop
    assert (looped["count"], looped["loop"], looped["callers"]) == (3, 3, 1)
    top = runs("m.fit(x)\n")[1]
    assert (top["loop"], top["callers"], top["varies"]) == (1, 1, False)


def test_take_bounds_a_loop_over_a_data_set():
    found = runs(
        """
        for batch in ds.take(1):
            m.predict(batch)
        for i, batch in enumerate(ds.take(5)):
            m.evaluate(batch)
        for x, y in tf.data.Dataset.from_tensor_slices((a, b)).batch(32).take(3):
            m.train_on_batch(x, y)
        """
    )
    assert count(found[3]) == (1, "upper") and found[3]["loop"] == 1  # a loop of one trip: no repeat
    assert count(found[5]) == (5, "upper") and found[5]["loop"] == 5
    assert found[7]["loop"] in (3, None)


def test_loop_variable_reaching_arguments_or_receiver_varies():
    result = analyse_source(
        textwrap.dedent(
            """
            import tensorflow as tf
            from tensorflow import keras
            models = [keras.Sequential(), keras.Sequential()]  # noqa
            for dtype in [tf.float32, tf.int32]:
                c = tf.constant([1, 2], dtype=dtype)
            for layer in [keras.layers.Dense(1), keras.layers.Dense(2)]:
                f = tf.function(layer)
            for name in ["a.keras", "b.keras"]:
                keras.models.load_model(name).predict(x)
            for shape in [(1, 2), (3, 4)]:
                z = tf.zeros(shape)
            for units in [8, 16]:
                hidden = keras.layers.Dense(units)
                net = keras.Sequential([hidden])
            for i in range(3):
                print(i)
                w = tf.constant([1, 2])
                models[0].predict(batches[i])
            """
        ),
        "loops.py",
    )
    by_line = {(s.span.line, s.api.rsplit(".", 1)[-1]): s.runs.to_json() for s in result.callsites}
    assert by_line[(6, "constant")]["varies"] and by_line[(6, "constant")]["varying"] == [["dtype"]]
    assert by_line[(8, "function")]["varies"]
    assert by_line[(10, "predict")]["varying"] == [["receiver"]]
    assert by_line[(12, "zeros")]["varies"]
    assert by_line[(15, "Sequential")]["varies"]  # a different model per iteration, through `hidden`
    assert not by_line[(18, "constant")]["varies"]  # the loop variable only prints
    assert by_line[(18, "constant")]["loop"] == 3
    assert by_line[(19, "predict")]["varying"] == [["x"]]  # the data differs, the model does not


def test_a_loop_variable_reaches_through_a_helper_s_parameters():
    result = analyse_source(
        textwrap.dedent(
            """
            import tensorflow as tf
            def check(dt):
                kind = dt
                return tf.constant([1, 2], dtype=kind)
            def same():
                return tf.constant([1, 2])
            for d in [tf.float32, tf.int64]:
                check(d)
                same()
            """
        ),
        "helper.py",
    )
    by_line = {s.span.line: s.runs.to_json() for s in result.callsites if s.api == "tensorflow.constant"}
    assert by_line[5]["varies"] and by_line[5]["loop"] == 2
    assert not by_line[7]["varies"] and by_line[7]["loop"] == 2


def test_never_multiply_past_a_break():
    found = runs(
        """
        for i in range(1000):
            m.evaluate(x)
            break
        for i in range(10):
            m.predict(x)
            if i > 3:
                break
        for i in range(4):
            for j in range(5):
                break
            m.fit(x)
        """
    )
    assert count(found[3]) == (1, "upper")  # not 1000
    assert count(found[6]) == (10, "upper")  # a conditional break: at most the bound
    assert count(found[12]) == (4, "exact")  # the inner loop's break leaves only the inner loop


def test_unknown_loops_and_uncounted_functions_stay_unknown():
    found = runs(
        """
        while True:
            m.fit(x)
        def callback():
            m.predict(x)
        tf.function(callback)
        for batch in dataset:
            m.evaluate(x)
        """
    )
    for line in (3, 5, 8):
        assert count(found[line]) == (None, "unknown"), line
    assert "callback" in found[5]["note"]


def test_a_helper_called_seven_times_runs_its_fit_seven_times():
    found = runs(
        """
        def compile_and_fit(name, max_epochs=10000):
            m.compile(optimizer="adam", loss="mse")
            return m.fit(x, epochs=max_epochs)
        h = {}
        for name in ["a", "b", "c", "d", "e"]:
            h[name] = compile_and_fit(name)
        h["f"] = compile_and_fit("f")
        h["g"] = compile_and_fit("g", max_epochs=5)
        """
    )
    assert count(found[4]) == (7, "exact")
    assert "compile_and_fit() runs 7" in found[4]["note"]


def test_functions_multiply_through_their_callers():
    found = runs(
        """
        def step():
            m.predict(x)
        def train():
            for _ in range(3):
                step()
        train()
        train()
        def guarded():
            for i in range(10):
                if i:
                    step2()
        def step2():
            m.evaluate(x)
        guarded()
        """
    )
    assert count(found[3]) == (6, "exact")
    assert count(found[14]) == (10, "upper")


def test_recursion_and_uncalled_functions_are_unknown():
    found = runs(
        """
        def again(n):
            m.fit(x)
            again(n - 1)
        again(3)
        def never():
            m.predict(x)
        """
    )
    assert count(found[3]) == (None, "unknown")
    assert count(found[7]) == (None, "unknown")


def test_comprehension_filter_is_an_upper_bound():
    found = runs("ys = [m.predict(x) for x in range(8) if x % 2]\nzs = [m.predict(x) for x in range(8)]\n")
    assert count(found[1]) == (8, "upper")
    assert count(found[2]) == (8, "exact")


def test_features_keep_the_literal_loop_factor_alone():
    result = analyse_source(HEADER + "for i in range(1000):\n    m.evaluate(x)\n    break\n", "s.py")
    site = next(s for s in result.callsites if s.api.endswith(".evaluate"))
    assert site.features["loop_multiplier"] == 1000 and site.runs.count == 1


def test_a_helper_walked_at_its_first_call_is_walked_again_with_its_arguments():
    # `h = compile_and_fit(model, ...)` needs the return value at the first call, before the
    # other calls are seen; once all are, the body is walked again with the model passed
    code = """
    def compile_and_fit(model, name, max_epochs=10000):
        model.compile(optimizer="adam", loss="mse")
        return model.fit(x, epochs=max_epochs, callbacks=[keras.callbacks.EarlyStopping()])
    h = {}
    h["tiny"] = compile_and_fit(m, "tiny")
    h["small"] = compile_and_fit(m, "small")
    for i in range(5):
        h[i] = compile_and_fit(m, str(i))
    """
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    fits = [s for s in result.callsites if s.api == "tensorflow.keras.Sequential.fit"]
    assert len(fits) == 1  # found once, not once per walk
    assert (fits[0].runs.count, fits[0].runs.bound) == (7, "exact")
    assert fits[0].work["epochs"].value == 10000 and fits[0].work["epochs"].bound == "upper"
    stops = [s for s in result.callsites if s.api.endswith("EarlyStopping")]
    assert len(stops) == 1 and stops[0].runs.count == 7


def test_loops_over_data_sets_of_known_length():
    found = runs(
        """
        import numpy as np
        ds = tf.data.Dataset.from_tensor_slices(np.zeros((1000, 4))).batch(64)
        for batch in ds:
            m.predict(batch)
        for row in np.zeros((30, 2)):
            m.evaluate(row)
        for batch in ds.filter(f):
            m.fit(batch)
        for batch in ds.repeat():
            m.predict(batch)
        """
    )
    assert count(found[5]) == (16, "exact")  # ceil(1000 / 64) batches
    assert count(found[7]) == (30, "exact")
    assert count(found[9]) == (16, "upper")
    assert count(found[11]) == (None, "unknown")


def test_a_dataset_loop_leaves_the_literal_loop_feature_alone():
    result = analyse_source(
        HEADER + "import numpy as np\nfor row in np.zeros((30, 2)):\n    m.evaluate(row)\n", "s.py"
    )
    site = next(s for s in result.callsites if s.api.endswith(".evaluate"))
    assert site.features["loop_multiplier"] == 1 and site.features["loop_unbounded"] is True
    assert site.runs.count == 30


def test_a_sweep_that_recompiles_the_model_varies_but_training_steps_do_not():
    result = analyse_source(
        textwrap.dedent(
            """
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            for trial in range(8):
                model.compile(optimizer=tf.keras.optimizers.Adam(10 ** -(2 + trial / 4)), loss="mse")
                model.fit(x, y, epochs=30)
            for x, y in batches:
                model.train_on_batch(x, y)
                model.evaluate(vx, vy)
            """
        ),
        "sweep.py",
    )
    by_line = {s.span.line: s.runs.to_json() for s in result.callsites if s.api.rsplit(".", 1)[-1] in ("fit", "evaluate")}
    assert by_line[6]["varies"] and by_line[6]["varying"] == [["receiver"]]  # each trial, another optimizer
    assert not by_line[9]["varies"]  # the same model, trained step after step


def test_a_model_built_from_a_helper_s_varying_layer_varies():
    result = analyse_source(
        textwrap.dedent(
            """
            import tensorflow as tf
            def fit_one(layer):
                model = tf.keras.Sequential()
                model.add(layer)
                model.compile(optimizer="rmsprop", loss="mse")
                model.fit(x, y, epochs=1)
                return model
            for groups in [-1, 16, 1]:
                fit_one(tf.keras.layers.GroupNormalization(groups=groups))
            for i in range(3):
                fit_one(tf.keras.layers.Dense(4))
            """
        ),
        "helper.py",
    )
    [fit] = [s.runs.to_json() for s in result.callsites if s.api.endswith(".fit")]
    assert fit["loop"] == 3 and fit["callers"] == 2
    assert not fit["varies"]  # the second loop fits the same kind of model three times
    assert ["receiver"] in fit["varying"] and [] in fit["varying"]


def test_a_helper_whose_calls_are_not_all_seen_keeps_the_loops_of_those_seen():
    found = runs(
        """
        def act(state):
            if explore:
                return 0
            return m.predict(state)
        def play(state):
            return act(state)
        for episode in range(600):
            for step in range(200):
                play(obs)
                if done:
                    break
        callbacks = [act]
        """
    )
    site = found[5]
    assert site["count"] is None  # `act` is also passed elsewhere
    assert (site["loop"], site["loop_bound"]) == (120000, "upper")  # the step loop may break


def test_names_a_loop_binds_afresh_differ_between_iterations():
    result = analyse_source(
        textwrap.dedent(
            """
            import tensorflow as tf
            for step in range(100):
                dtype = pick(dtypes)
                a = tf.constant([1, 2], dtype=dtype)
                shape = (2, 2)
                b = tf.zeros(shape)
            for epoch in range(10):
                for xb in shuffled(x):
                    pass
                c = tf.reduce_mean(xb)
            """
        ),
        "fresh.py",
    )
    by_api = {s.api.rsplit(".", 1)[-1]: s.runs.to_json() for s in result.callsites}
    assert by_api["constant"]["varies"]  # a call's result may differ every time
    assert not by_api["zeros"]["varies"] and by_api["zeros"]["loop"] == 100  # the same literal every time
    assert by_api["reduce_mean"]["varies"]  # an inner loop's variable


def test_a_lambda_called_by_the_name_it_is_assigned_to_has_uncounted_callers():
    found = runs(
        """
        def build():
            make = lambda: m.predict(x)
            return make()
        """
    )
    assert count(found[3]) == (None, "unknown")


def test_a_dict_filled_from_the_loop_s_work_varies():
    result = analyse_source(
        textwrap.dedent(
            """
            import tensorflow as tf
            sess = tf.compat.v1.Session()
            for step in range(100):
                feed = {}
                feed[x] = next(batches)
                sess.run(train, feed_dict=feed)
                fixed = {}
                fixed[x] = data
                sess.run(train, feed_dict=fixed)
            """
        ),
        "feeds.py",
    )
    by_line = {s.span.line: s.runs.to_json() for s in result.callsites if s.api.endswith(".run")}
    assert by_line[7]["varies"]  # each pass fills the dict with another batch
    assert not by_line[10]["varies"]  # the same data, filled in again


def test_a_loop_over_a_list_filled_by_append_runs_as_often_as_the_filling_loop():
    found = runs(
        """
        imgs = []
        for i in range(5):
            imgs.append(i)
        for img in imgs:
            m.predict(img)
        preds = [m.predict(x) for x in imgs]
        picked = []
        for i in range(10):
            if i % 2:
                picked.append(i)
        for p in picked:
            m.evaluate(p)
        """
    )
    assert count(found[6]) == (5, "exact")  # not 0: the list holds 5 items
    assert count(found[7]) == (5, "exact")
    assert count(found[13]) == (10, "upper")  # appended under a condition: at most 10


def test_a_list_filled_where_greenlint_cannot_count_gives_an_unknown_count_never_0():
    found = runs(
        """
        files = []
        for f in open("list.txt"):
            files.append(f)
        for f in files:
            m.predict(f)
        more = []
        more.extend(files)
        for f in more:
            m.evaluate(f)
        filled = []
        fill(filled)
        for f in filled:
            m.test_on_batch(f)
        for f in []:
            m.train_on_batch(f)
        """
    )
    assert count(found[6]) == (None, "unknown")
    assert count(found[10]) == (None, "unknown")
    assert count(found[14]) == (None, "unknown")
    assert count(found[16]) == (0, "exact")  # a literal empty list really never runs


def test_a_call_in_an_inner_loop_of_unknown_length_has_an_unknown_count():
    found = runs(
        """
        for epoch in range(3):
            for batch in gen():
                m.train_on_batch(batch)
        """
    )
    assert count(found[4]) == (None, "unknown")


LOAD_UNLESS_GIVEN = """
import os
import tensorflow as tf


def load(path):
    return tf.keras.models.load_model(path)


def predict(model=None, inp=None, path=None):
    if model is None:
        model = load(path)
    return model.predict(inp)


def predict_folder(folder, path=None, model=None):
    if model is None:
        model = tf.keras.models.load_model(path)
    for name in os.listdir(folder):
        predict(model, name)
"""


def loops(code: str) -> dict[int, int | None]:
    """line -> `runs.loop` of the call site on it (one a line)."""
    result = analyse_source(code, "snippet.py")
    assert result.errors == []
    return {s.span.line: s.runs.loop for s in result.callsites}


def test_a_load_under_if_model_is_none_is_in_no_loop_that_passes_a_model():
    found = loops(LOAD_UNLESS_GIVEN)
    assert found[7] == 1  # the loop in predict_folder gives predict a model: load never runs there
    assert found[18] == 1
    assert found[13] is None  # predict itself runs in that loop


def test_a_load_under_if_model_is_none_is_in_a_loop_that_passes_none():
    found = loops(LOAD_UNLESS_GIVEN + """

def predict_each(folder, path):
    for name in os.listdir(folder):
        predict(None, name, path)
""")
    assert found[7] is None  # reloaded on every name


def test_a_def_nested_in_a_function_is_named_only_in_that_function():
    # two functions each define their own `step`: neither's calls are the other's, so each
    # `step` runs as often as its own enclosing loop calls it
    found = runs(
        """
        def evaluate(x):
            def step(batch):
                m.predict(batch)
            for _ in range(4):
                step(x)

        def train(x):
            def step(batch):
                m.train_on_batch(batch, batch)
            for _ in range(3):
                step(x)

        evaluate(1)
        train(2)
        """
    )
    assert count(found[4]) == (4, "exact")
    assert count(found[10]) == (3, "exact")


def test_a_nested_def_passed_on_by_its_function_keeps_an_unknown_count():
    found = runs(
        """
        def train(x, register):
            def step(batch):
                m.train_on_batch(batch, batch)
            for _ in range(3):
                step(x)
            register(step)

        train(2, print)
        """
    )
    assert found[4]["count"] is None


def test_nested_modulo_guards_on_one_counter_run_as_often_as_the_rarer():
    """`if step % 100 == 0:` around `if step % (100 * 10) == 0:` both test the step: the inner body runs
    on 1 in 1000 steps (8 of 7001), not 1 in 100,000; a single guard still divides once."""
    found = runs(
        """
        EVERY = 100
        for step in range(7001):
            m.train_on_batch(x, y)
            if step % EVERY == 0:
                m.evaluate(x)
                if step % (EVERY * 10) == 0:
                    m.predict(x)
        """
    )
    assert count(found[4]) == (7001, "exact")
    assert count(found[6]) == (71, "upper")
    assert count(found[8]) == (8, "upper")


def test_a_loop_of_unknown_length_leaves_a_floor_of_the_counted_loops():
    """`least`: the counted loops around a site and the calls of its function, each loop of unknown
    length once; none where an `if` or a `break` may skip it, nor where its count is known."""
    found = runs(
        """
        def step(batch):
            m.train_on_batch(batch)

        for epoch in range(50):
            for batch in loader:
                step(batch)
            for batch in loader:
                if batch is not None:
                    m.predict(batch)
            for batch in loader:
                m.evaluate(batch)
                if done(batch):
                    break
        for epoch in range(3):
            m.fit(x)
        """
    )
    assert count(found[3]) == (None, "unknown") and found[3]["least"] == 50
    assert "least" not in found[10] and "least" not in found[12]
    assert count(found[16]) == (3, "exact") and "least" not in found[16]
