"""What a model's `predict` returns: an array of (the data's rows, the model's output per sample), where
the model's output is known; a head trained on those features is priced as the small model it is."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

HEADER = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"
FIT = "tensorflow.keras.Sequential.fit"
#: The held-out detector of issue #26: a ResNet50 trained end to end, and a head trained on its cached features.
DETECTOR = """
images = np.zeros((2000, 224, 224, 3), "float32"); labels = np.zeros((2000,), "int32")
base = keras.applications.ResNet50(include_top=False, weights=None, input_shape=(224, 224, 3), pooling=POOLING)
head = keras.Sequential([HEAD])
full = keras.Sequential([base, keras.layers.Dense(10)])
full.compile("adam", "sparse_categorical_crossentropy")
full.fit(images, labels, epochs=10, batch_size=32)
features = base.predict(images, batch_size=32)
head.compile("adam", "sparse_categorical_crossentropy")
head.fit(features, labels, epochs=10, batch_size=32)
"""


def fits(code: str, api: str = FIT) -> list[dict]:
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return [s.work for s in result.callsites if s.api == api]


def detector(pooling: str = '"avg"', head: str = "keras.layers.Dense(10)") -> tuple[dict, dict]:
    full, head_fit = fits(DETECTOR.replace("POOLING", pooling).replace("HEAD", head))
    return full, head_fit


def test_a_head_trained_on_pooled_features_is_a_2048_to_10_dense_layer():
    full, head = detector()
    assert head["flops_per_sample"].to_json() == {"value": 2 * 2048 * 10, "provenance": "inferred",
                                        "note": "the output of ResNet50.predict at line 11"}
    assert head["params"].value == 2048 * 10 + 10 and head["params"].bound is None
    assert head["input_shape"].value == [2048]
    assert head["samples"].value == 2000 and head["samples"].note == "the output of ResNet50.predict at line 11"
    # end to end, the whole backbone runs per sample: at least 10^5 times the head's FLOPs
    assert full["flops_per_sample"].value > 1e5 * head["flops_per_sample"].value


def test_the_model_built_on_the_base_walks_on_past_it():
    # the base's output known, its head is sized: the FLOPs whole, only the base's parameters untabled
    full, _ = detector()
    alone = fits(DETECTOR.replace("POOLING", '"avg"').replace("HEAD", "keras.layers.Dense(10)"),
                 "tensorflow.keras.Model.predict")[0]
    assert full["flops_per_sample"].value == alone["flops_per_sample"].value + 2 * 2048 * 10
    assert full["flops_per_sample"].bound is None
    assert full["params"].to_json() == {"value": 20490, "provenance": "inferred", "bound": "lower",
                              "note": "parameters unknown: ResNet50 (params are a lower bound)"}


def test_max_pooling_gives_the_channels_and_no_pooling_the_last_feature_map():
    _, pooled = detector('"max"')
    assert pooled["input_shape"].value == [2048]
    _, flat = detector("None", "keras.layers.Flatten(), keras.layers.Dense(10)")
    assert flat["input_shape"].value == [7, 7, 2048]  # at its table's input, 224x224
    assert flat["params"].value == 7 * 7 * 2048 * 10 + 10


def test_the_feature_map_at_another_input_keeps_its_channels_alone():
    code = """
    base = keras.applications.VGG16(include_top=False, input_shape=(128, 128, 3))
    features = base.predict(np.zeros((100, 128, 128, 3)))
    head = keras.Sequential([HEAD])
    head.fit(features, np.zeros(100), epochs=3)
    """
    pooled, = fits(code.replace("HEAD", "keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(4)"))
    assert pooled["params"].value == 512 * 4 + 4 and pooled["input_shape"].value == [None, None, 512]
    flat, = fits(code.replace("HEAD", "keras.layers.Flatten(), keras.layers.Dense(4)"))
    # the map's sides at 128x128 are not tabled, never guessed: the flattened head is unknown (not 0)
    assert flat["flops_per_sample"].value is None


def test_with_its_top_an_application_gives_its_class_scores():
    code = """
    m = keras.applications.MobileNetV2(CLASSES)
    scores = m.predict(np.zeros((50, 224, 224, 3)))
    head = keras.Sequential([keras.layers.Dense(2)])
    head.fit(scores, np.zeros(50))
    """
    w, = fits(code.replace("CLASSES", ""))
    assert w["params"].value == 1000 * 2 + 2
    w, = fits(code.replace("CLASSES", "weights=None, classes=7"))
    assert w["params"].value == 7 * 2 + 2


def test_a_layer_stack_a_functional_model_and_an_eager_call_give_their_outputs():
    code = """
    x = np.random.rand(300, 64)
    enc = keras.Sequential([keras.layers.Dense(16, input_shape=(64,)), keras.layers.Dense(8)])
    inp = keras.Input(shape=(64,))
    graph = keras.Model(inp, keras.layers.Dense(12)(inp))
    z = GET
    head = keras.Sequential([keras.layers.Dense(3, input_shape=(z.shape[1],))])
    head.fit(z, np.zeros(300))
    """
    for get, width, how in [("enc.predict(x)", 8, "the output of Sequential.predict at line 9"),
                            ("enc.predict_on_batch(x)", 8, "the output of Sequential.predict_on_batch at line 9"),
                            ("graph.predict(x)", 12, "the output of Model.predict at line 9"),
                            ("enc(x)", 8, "the output of Sequential called at line 9")]:
        w, = fits(code.replace("GET", get))
        assert w["params"].value == width * 3 + 3, get
        assert w["samples"].to_json() == {"value": 300, "provenance": "inferred", "note": how}, get


def test_features_written_and_read_back_keep_their_shape():
    w, = fits("""
    base = keras.applications.ResNet50(include_top=False, pooling="avg")
    np.save("features.npy", base.predict(np.zeros((40, 224, 224, 3))))
    features = np.load("features.npy")
    head = keras.Sequential([keras.layers.Dense(10)])
    head.fit(features, np.zeros(40))
    """)
    assert w["params"].value == 20490 and w["samples"].value == 40


def test_rows_unknown_stay_unknown_while_the_width_is_known():
    code = """
    x = X
    enc = keras.Sequential([keras.layers.Dense(8, input_shape=(64,))])
    z = PREDICT
    head = keras.Sequential([keras.layers.Dense(3)])
    head.fit(z, epochs=2)
    """
    for data, predict in [("np.load('data.npy')", "enc.predict(x)"),  # rows read at run time
                          ("np.zeros((500, 64))", "enc.predict(tf.data.Dataset.from_tensor_slices(x).batch(10), steps=4)"),
                          ("np.zeros((500, 64))", "enc.predict(tf.data.Dataset.from_tensor_slices(x).batch(10).repeat())")]:
        w, = fits(code.replace("X", data).replace("PREDICT", predict))
        assert w["params"].value == 8 * 3 + 3, predict
        assert w["samples"].value is None, predict
    w, = fits(code.replace("X", "np.zeros((500, 64))").replace("PREDICT", "enc.predict(x, steps=None)"))
    assert w["samples"].value == 500


UNKNOWN_OUTPUTS = {
    "": "m = keras.Sequential([keras.layers.Dense(8, input_shape=(64,))])",  # the case known: the rest tells the others
    "a loaded model": "m = keras.models.load_model('m.keras')",
    "a pooling not known": "m = keras.applications.ResNet50(include_top=False, pooling=POOL)",
    "a top not known": "m = keras.applications.ResNet50(include_top=TOP)",
    "a layer not known": "m = keras.Sequential([keras.layers.Dense(8, input_shape=(64,)), Mine()])",
    "a subclassed model": "m = Net()",
    "two outputs": "m = keras.Model(inp, [keras.layers.Dense(4)(inp), keras.layers.Dense(5)(inp)])",
}


def test_an_unknown_output_leaves_the_array_unknown():
    for why, model in UNKNOWN_OUTPUTS.items():
        w, = fits(f"""
        import sys
        POOL, TOP = sys.argv[1], sys.argv[2] == "top"
        class Mine(keras.layers.Layer):
            pass
        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.d = keras.layers.Dense(4)
            def call(self, x):
                return self.d(x)
        inp = keras.Input(shape=(64,))
        {model}
        z = m.predict(np.zeros((30, 64)))
        head = keras.Sequential([keras.layers.Dense(3)])
        head.fit(z, np.zeros(30))
        """)
        assert (w["params"].value, w["flops_per_sample"].value) == ((None, None) if why else (27, 48)), why
