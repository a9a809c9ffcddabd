"""Models built as research code builds them: layers stacked by a helper called once per stage, by a
loop over the stages' sizes, on an Application's output (unroll.py). The graph, and so the model's
parameters and FLOPs, holds every layer added; the call sites and their runs stay those of one walk."""

from __future__ import annotations

import textwrap
from collections import Counter

from greenlint.analysis.analyse import analyse_source

#: Parameters of Conv2D(f, 3) on c channels, and of the Dense(10) head on f features.
CONV = {(3, 64): 3 * 3 * 3 * 64 + 64, (64, 128): 3 * 3 * 64 * 128 + 128, (128, 256): 3 * 3 * 128 * 256 + 256}


def analyse(code: str):
    result = analyse_source(textwrap.dedent(code), "model.py")
    assert result.errors == []
    return result.callsites


def work_of(sites, line: int, api_end: str) -> dict:
    site = next(s for s in sites if s.span.line == line and s.api.endswith(api_end))
    return {k: v.value for k, v in site.work.items()}


def expected_params(last: int) -> int:
    return sum(CONV.values()) + last * 10 + 10


def test_a_helper_called_once_per_stage_adds_each_stages_layers():
    sites = analyse("""
        from tensorflow import keras
        from tensorflow.keras import layers


        def conv_block(x, filters):
            x = layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
            return layers.MaxPooling2D()(x)


        inp = keras.Input((64, 64, 3))
        x = conv_block(inp, 64)
        x = conv_block(x, 128)
        x = conv_block(x, 256)
        x = layers.GlobalAveragePooling2D()(x)
        model = keras.Model(inp, layers.Dense(10)(x))
        model.fit(x=None, epochs=1)
        """)
    work = work_of(sites, 17, ".fit")
    assert work["params"] == expected_params(256)
    conv = 2 * 9 * (3 * 64 * 64 * 64 + 64 * 128 * 32 * 32 + 128 * 256 * 16 * 16)  # FLOPs: a multiply-add is 2
    assert work["flops_per_sample"] >= conv
    # the helper's call sites are listed once each, run 3 times (its three calls)
    lines = Counter(s.span.line for s in sites if s.api.endswith("Conv2D.__call__"))
    assert lines == {7: 1}
    assert next(s for s in sites if s.api.endswith("Conv2D.__call__")).runs.count == 3


def test_a_loop_over_the_stages_sizes_adds_a_stage_per_trip_and_lists_its_calls_once():
    sites = analyse("""
        from tensorflow import keras
        from tensorflow.keras import layers

        inp = keras.Input((64, 64, 3))
        x = inp
        for filters in (64, 128, 256):
            x = layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
            x = layers.MaxPooling2D()(x)
        x = layers.GlobalAveragePooling2D()(x)
        model = keras.Model(inp, layers.Dense(10)(x))
        model.fit(x=None, epochs=1)

        seq = keras.Sequential([keras.Input((64, 64, 3))])
        for i in range(3):
            seq.add(layers.Conv2D(64, 3, padding="same"))
        seq.fit(x=None, epochs=1)
        """)
    assert work_of(sites, 12, ".fit")["params"] == expected_params(256)
    conv = [s for s in sites if s.api.endswith("Conv2D.__call__")]
    assert [s.span.line for s in conv] == [8] and conv[0].runs.count == 3
    assert work_of(sites, 17, ".fit")["params"] == CONV[(3, 64)] + 2 * (3 * 3 * 64 * 64 + 64)
    assert [s.span.line for s in sites if s.api.endswith("Sequential.add")] == [16]


def test_a_range_whose_bounds_are_known_here_adds_a_block_per_trip():
    """SRGAN's generator: `for _ in range(self.n_residual_blocks - 1)`, its count an attribute set
    before the builder is called. Its bounds resolve as a literal's do, so the loop is walked trip by
    trip (it left the generator unseen: the model built after it had no size); a count past
    `unroll.MAX_TRIPS` is not: the tensor after it is the floor of its graphs, the first block's
    (symjoin.py), a lower bound."""
    code = """
        from tensorflow import keras
        from tensorflow.keras import layers


        class Generator:
            def __init__(self):
                self.blocks = BLOCKS
                self.model = self.build()
                self.model.fit(x=None, epochs=1)

            def build(self):
                inp = keras.Input((64, 64, 3))
                x = layers.Conv2D(64, 3, padding="same")(inp)
                for _ in range(self.blocks - 1):
                    x = layers.Conv2D(64, 3, padding="same")(x)
                return keras.Model(inp, x)
        """
    three = work_of(analyse(code.replace("BLOCKS", "4")), 10, ".fit")
    assert three["params"] == CONV[(3, 64)] + 3 * (3 * 3 * 64 * 64 + 64)
    past = next(s for s in analyse(code.replace("BLOCKS", "1000")) if s.span.line == 10 and s.api.endswith(".fit"))
    assert past.work["params"].value == CONV[(3, 64)] and past.work["params"].bound == "lower"


def test_a_loop_left_early_is_not_walked_trip_by_trip():
    sites = analyse("""
        from tensorflow import keras
        from tensorflow.keras import layers

        inp = keras.Input((64, 64, 3))
        x = inp
        for filters in (64, 128, 256):
            if filters > 100:
                break
            x = layers.Conv2D(filters, 3)(x)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work_of(sites, 12, ".fit").get("params") is None  # which trips ran is not known


def test_a_detector_on_an_applications_output_carries_the_backbones_flops():
    sites = analyse("""
        from tensorflow import keras
        from tensorflow.keras import layers

        backbone = keras.applications.ResNet50(include_top=False, input_shape=(224, 224, 3))
        x = layers.GlobalAveragePooling2D()(backbone.output)
        detector = keras.Model(backbone.input, layers.Dense(10)(x))
        detector.fit(x=None, epochs=1)

        inp = keras.Input((224, 224, 3))
        wrapped = keras.Model(inp, layers.Dense(10)(layers.GlobalAveragePooling2D()(backbone(inp))))
        wrapped.fit(x=None, epochs=1)
        """)
    for line in (8, 12):
        work = work_of(sites, line, ".fit")
        assert work["flops_per_sample"] > 5e9  # ResNet50's forward pass at 224x224: about 8e9 FLOPs
        site = next(s for s in sites if s.span.line == line and s.api.endswith(".fit"))
        assert "ResNet50" in site.work["flops_per_sample"].note  # its parameters unknown: a lower bound


def test_a_generator_called_with_its_default_batch_and_an_explicit_one_yields_each_calls_batches():
    sites = analyse("""
        import numpy as np
        from tensorflow import keras


        def generator(batch_size=16):
            while True:
                yield np.zeros((batch_size, 8)), np.zeros((batch_size, 1))


        model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(1)])
        model.fit_generator(generator(), steps_per_epoch=10, epochs=2)
        model.fit_generator(generator(batch_size=64), steps_per_epoch=10, epochs=2)
        """)
    assert work_of(sites, 12, ".fit_generator")["batch_size"] == 16
    assert work_of(sites, 13, ".fit_generator")["batch_size"] == 64


def test_a_sequential_feature_extractor_called_on_a_tensor_passes_its_output_shape_on():
    """ACGAN's discriminator: a Sequential called on an Input (`features = model(img)`), then two Dense
    heads on its output. The heads' FLOPs need the Sequential's output shape, known where its layers
    are walked whole from the shape it is called on (a lower bound "unknown: Dense" before); a
    generator's `Dense(np.prod(img_shape))` is a literal size as well."""
    sites = analyse("""
        import numpy as np
        from tensorflow import keras
        from tensorflow.keras import layers

        img_shape = (28, 28, 1)
        trunk = keras.Sequential([layers.Flatten(), layers.Dense(np.prod(img_shape))])
        img = keras.Input(shape=img_shape)
        features = trunk(img)
        model = keras.Model(img, [layers.Dense(1)(features), layers.Dense(10)(features)])
        model.fit(x=None, epochs=1)
        """)
    work = work_of(sites, 11, ".fit")
    pixels = 28 * 28
    assert work["params"] == pixels * pixels + pixels + (pixels + 1) + (pixels * 10 + 10)
    assert work["flops_per_sample"] >= 2 * (pixels * pixels + pixels * 1 + pixels * 10)
    assert next(s for s in sites if s.span.line == 11).work["flops_per_sample"].bound is None


def test_the_models_a_loop_adds_to_are_those_its_names_hold_before_it():
    """`unroll.models_added_to`: the receivers of the body's `.add(...)` that hold a model, each with
    a copy of what is known of it; none where no name holds a model (the body is then not walked)."""
    import ast

    from greenlint.analysis import unroll
    from greenlint.analysis.values import Inst
    from greenlint.analysis.work import is_model

    loop = ast.parse("for i in range(n):\n    if i:\n        seq.add(layer)\n    seen.add(i)\n").body[0]
    model = Inst("tensorflow.keras.Sequential", "constructor", {"n_layers": 1})
    found = unroll.models_added_to(loop, {"seq": model, "seen": set(), "n": 3}, is_model)
    assert found == [(model, {"n_layers": 1})] and found[0][1] is not model.meta
    assert unroll.models_added_to(loop, {"other": model, "seen": set()}, is_model) == []
    assert unroll.models_added_to(loop, {"seq": None, "seen": set()}, is_model) == []
