"""An `if` whose test is a known constant takes one branch (`Resolver.s_if`): that branch's bindings
hold, the other's call sites are still listed; a test not known merges both branches. A conditional
expression (`x if C else y`, `Resolver.e_ifexp`) takes its branch alike."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

MODULE_FLAG = """
    import numpy as np
    from tensorflow import keras

    USE_BN = {flag}

    inp = keras.Input((32,))
    x = keras.layers.Dense(10)(inp)
    if USE_BN:
        x = keras.layers.BatchNormalization()(x)
    else:
        x = keras.layers.Dense(4)(x)
    model = keras.Model(inp, x)
    model.compile("adam", "mse")
    model.fit(np.zeros((64, 32)), np.zeros((64, 4)), epochs=2)
    """
#: Dense(10) on 32 features, then Dense(4) on its 10: the model of the `else` branch.
DENSE_ONLY = 32 * 10 + 10 + 10 * 4 + 4
#: Dense(10), then BatchNormalization's 4 weights per feature: the model of the `if` branch.
BN_PATH = 32 * 10 + 10 + 4 * 10


def sites(code: str):
    result = analyse_source(textwrap.dedent(code), "train.py")
    assert result.errors == []
    return result.callsites


def value(sites_, line: int, api_end: str, key: str):
    site = next(s for s in sites_ if s.span.line == line and s.api.endswith(api_end))
    return getattr(site.work.get(key), "value", None)


def test_a_module_constant_takes_its_branch_and_keeps_the_others_sites():
    found = sites(MODULE_FLAG.format(flag="False"))
    assert value(found, 15, "fit", "params") == DENSE_ONLY
    assert any(s.span.line == 10 and s.api.endswith("BatchNormalization") for s in found)  # still code


def test_a_test_not_known_merges_both_branches():
    """Either model may be fitted: the lighter one's weights are a floor (analysis/symjoin.py)."""
    found = sites(MODULE_FLAG.format(flag="flag_from_elsewhere()"))
    params = next(s for s in found if s.span.line == 15 and s.api.endswith("fit")).work["params"]
    assert params.value == min(BN_PATH, DENSE_ONLY) and params.bound == "lower"
    assert "one of several paths" in params.note


def test_an_options_default_takes_its_branch_and_names_the_option():
    found = sites("""
        import argparse
        import numpy as np
        from tensorflow import keras

        parser = argparse.ArgumentParser()
        parser.add_argument("--small", action="store_true", default=True)
        args = parser.parse_args()
        if args.small:
            units = 8
        else:
            units = 64
        model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(units)])
        model.compile("adam", "mse")
        model.fit(np.zeros((64, 32)), np.zeros((64, units)), epochs=2)
        """)
    fit = next(s for s in found if s.span.line == 15 and s.api.endswith("fit"))
    assert fit.work["params"].value == 32 * 8 + 8
    assert fit.work["options"].value == ["small"]  # the figure follows `--small`'s default, and says so


def test_a_comparison_with_an_options_default_names_the_option():
    found = sites("""
        import argparse
        import numpy as np
        from tensorflow import keras

        parser = argparse.ArgumentParser()
        parser.add_argument("--size", default="small")
        args = parser.parse_args()
        units = 64
        if not args.size == "small":
            units = 8
        model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(units)])
        model.compile("adam", "mse")
        model.fit(np.zeros((64, 32)), np.zeros((64, units)), epochs=2)
        """)
    fit = next(s for s in found if s.span.line == 14 and s.api.endswith("fit"))
    assert fit.work["params"].value == 32 * 64 + 64
    assert fit.work["options"].value == ["size"]


def test_a_literal_every_caller_gives_takes_its_branch():
    found = sites("""
        import numpy as np
        from tensorflow import keras

        def train(bn):
            inp = keras.Input((32,))
            x = keras.layers.Dense(10)(inp)
            if bn:
                x = keras.layers.BatchNormalization()(x)
            model = keras.Model(inp, x)
            model.compile("adam", "mse")
            model.fit(np.zeros((64, 32)), np.zeros((64, 10)), epochs=2)

        train(False)
        train(bn=False)
        """)
    assert value(found, 12, "fit", "params") == 32 * 10 + 10


def test_a_return_in_the_taken_branch_ends_the_function_for_that_value():
    found = sites("""
        import numpy as np
        from tensorflow import keras

        SMALL = True

        def make():
            if SMALL:
                return keras.Sequential([keras.Input((32,)), keras.layers.Dense(2)])
            return keras.Sequential([keras.Input((32,)), keras.layers.Dense(64)])

        model = make()
        model.compile("adam", "mse")
        model.fit(np.zeros((64, 32)), np.zeros((64, 2)), epochs=2)
        """)
    assert value(found, 14, "fit", "params") == 32 * 2 + 2
    assert any(s.span.line == 10 and s.api.endswith("Dense") for s in found)  # after the return: still code


def test_a_test_of_a_name_its_loop_rebinds_is_not_known_for_every_trip():
    found = sites("""
        import numpy as np
        from tensorflow import keras

        first = True
        for trip in range(3):
            if first:
                units = 64
                first = False
            else:
                units = 8
            layer = keras.layers.Dense(units)
            layer(keras.Input((32,)))
        """)
    assert value(found, 13, "__call__", "params") is None  # 64 units on the first trip, 8 after


def test_a_test_of_instance_state_is_not_known_for_every_call():
    found = sites("""
        from tensorflow import keras

        class Trainer:
            def __init__(self):
                self.first = True

            def step(self):
                if self.first:
                    units = 64
                else:
                    units = 8
                self.first = False
                keras.layers.Dense(units)(keras.Input((32,)))

        trainer = Trainer()
        trainer.step()
        trainer.step()
        """)
    assert value(found, 14, "__call__", "params") is None  # 64 units on the first call, 8 after


def test_a_conditional_expression_on_a_module_constant_takes_its_branch():
    found = sites("""
        import numpy as np
        from tensorflow import keras

        SMALL = True
        units = 2 if SMALL else 64
        model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(units)])
        model.compile("adam", "mse")
        model.fit(np.zeros((64, 32)), np.zeros((64, units)), epochs=2)
        """)
    assert value(found, 9, "fit", "params") == 32 * 2 + 2


def test_a_conditional_expression_on_an_options_default_names_the_option():
    found = sites("""
        import argparse
        import numpy as np
        from tensorflow import keras

        parser = argparse.ArgumentParser()
        parser.add_argument("--small", action="store_true", default=True)
        args = parser.parse_args()
        units = 8 if args.small else 64
        model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(units)])
        model.compile("adam", "mse")
        model.fit(np.zeros((64, 32)), np.zeros((64, units)), epochs=2)
        """)
    fit = next(s for s in found if s.span.line == 12 and s.api.endswith("fit"))
    assert fit.work["params"].value == 32 * 8 + 8
    assert fit.work["options"].value == ["small"]


def test_a_conditional_expression_on_a_name_its_loop_rebinds_is_not_known_for_every_trip():
    found = sites("""
        from tensorflow import keras

        first = True
        for trip in range(3):
            units = 64 if first else 8
            first = False
            keras.layers.Dense(units)(keras.Input((32,)))
        """)
    assert value(found, 8, "__call__", "params") is None  # 64 units on the first trip, 8 after


def test_the_branch_a_constant_keeps_from_running_is_unreached_an_options_default_keeps_none():
    found = sites(MODULE_FLAG.format(flag="False"))
    bn = next(s for s in found if s.span.line == 10 and s.api.endswith("BatchNormalization"))
    dense = next(s for s in found if s.span.line == 12 and s.api.endswith("Dense"))
    assert bn.features.get("unreached") is True and "unreached" not in dense.features
    optional = sites("""
        import argparse
        from tensorflow import keras

        parser = argparse.ArgumentParser()
        parser.add_argument("--bn", action="store_true", default=False)
        args = parser.parse_args()
        x = keras.Input((32,))
        if args.bn:
            x = keras.layers.BatchNormalization()(x)
        """)
    (bn,) = [s for s in optional if s.api.endswith("BatchNormalization")]
    assert "unreached" not in bn.features  # a command line may take it


def test_a_function_given_is_true():
    """`if map_fn:` given a function maps: the pipeline keeps its size (both branches merged lose it)."""
    found = sites("""
        import tensorflow as tf

        (images, _), _ = tf.keras.datasets.mnist.load_data()


        def resized(image):
            return tf.image.resize(image, [32, 32])


        def batched(dataset, batch_size, map_fn=None):
            if map_fn:
                dataset = dataset.map(map_fn)
            return dataset.batch(batch_size, drop_remainder=True)


        @tf.function
        def step(x):
            return tf.reduce_sum(x)


        for x in batched(tf.data.Dataset.from_tensor_slices(images), 64, map_fn=resized):
            step(x)
        """)
    assert next(s for s in found if s.span.line == 23 and s.api.endswith("__call__")).runs.count == 937
