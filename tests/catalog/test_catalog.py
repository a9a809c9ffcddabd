"""The shipped catalog: canonical names, aliases, signatures, method resolution, return types, kinds."""

from __future__ import annotations

import gzip

import pytest

from greenlint.catalog.catalog import CatalogError, load_catalog, read_catalog
from tests.environment import missing


@pytest.fixture(scope="module")
def cat():
    return load_catalog()


def test_records_versions(cat):
    assert cat.versions["tensorflow"][:1] == "2"
    assert cat.versions["keras"][:1] == "3"
    assert len(cat) > 3000


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("keras.models.Sequential.fit", "tensorflow.keras.Sequential.fit"),
        ("keras.layers.Dense", "tensorflow.keras.layers.Dense"),
        ("tf.keras.layers.Dense", "tensorflow.keras.layers.Dense"),
        ("tensorflow.keras.layers.core.Dense", "tensorflow.keras.layers.Dense"),
        ("tf.keras.models.Model", "tensorflow.keras.Model"),
        ("tf.keras.layers.Input", "tensorflow.keras.Input"),
        ("tf.math.reduce_mean", "tensorflow.reduce_mean"),
        ("tf.compat.v1.keras.models.Sequential", "tensorflow.keras.Sequential"),
        ("tf.compat.v1.feature_column.numeric_column", "tensorflow.feature_column.numeric_column"),
        ("tensorflow.keras.models.load_model", "tensorflow.keras.models.load_model"),
        ("keras.saving.load_model", "tensorflow.keras.models.load_model"),
        ("tf.keras.optimizers.Adam", "tensorflow.keras.optimizers.Adam"),
        ("tf.optimizers.Adam", "tensorflow.keras.optimizers.Adam"),
        ("tf.keras.losses.MAE", "tensorflow.keras.losses.mae"),
    ],
)
def test_canonical_aliases(cat, name, expected):
    assert cat.canonical(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # TF1 names gone from TF2's namespace resolve as tf.compat.v1 keeps them
        ("tf.Session", "tensorflow.compat.v1.Session"),
        ("tf.Session.run", "tensorflow.compat.v1.Session.run"),
        ("tf.InteractiveSession.close", "tensorflow.compat.v1.InteractiveSession.close"),
        ("tf.placeholder", "tensorflow.compat.v1.placeholder"),
        ("tf.global_variables_initializer", "tensorflow.compat.v1.global_variables_initializer"),
        ("tf.train.GradientDescentOptimizer.minimize", "tensorflow.compat.v1.train.GradientDescentOptimizer.minimize"),
        ("tf.layers.dense", "tensorflow.compat.v1.layers.dense"),
        ("tf.random_normal", "tensorflow.random.normal"),  # compat.v1's name of a TF2 op: its TF2 name
        # `import tensorflow.compat.v1 as tf` then `tf.compat.v1.X` (or `tf.compat.v2.X`)
        ("tensorflow.compat.v1.compat.v1.Session.run", "tensorflow.compat.v1.Session.run"),
        ("tensorflow.compat.v1.compat.v2.matmul", "tensorflow.matmul"),
        ("tensorflow.compat.v1.compat.v1.keras.layers.Dense", "tensorflow.keras.layers.Dense"),
        # TF2's own name wins where both exist (tf.train.Checkpoint is not compat.v1's CheckpointV1)
        ("tf.train.Checkpoint", "tensorflow.train.Checkpoint"),
        # never from compat.v1: Keras names, and names neither namespace has
        ("tf.keras.Session", "tensorflow.keras.Session"),
        ("tf.no_such_op", "tensorflow.no_such_op"),
    ],
)
def test_tf1_names(cat, name, expected):
    assert cat.canonical(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # tf.contrib.data's transformations as tf.data.experimental keeps them, its datasets as tf.data does
        ("tf.contrib.data.map_and_batch", "tensorflow.data.experimental.map_and_batch"),
        ("tensorflow.contrib.data.shuffle_and_repeat", "tensorflow.data.experimental.shuffle_and_repeat"),
        ("tf.contrib.data.TFRecordDataset", "tensorflow.data.TFRecordDataset"),
        # a name neither keeps stays as written; another contrib namespace is not moved
        ("tf.contrib.data.no_such_op", "tensorflow.contrib.data.no_such_op"),
        ("tf.contrib.rnn.LSTMCell", "tensorflow.contrib.rnn.LSTMCell"),
    ],
)
def test_moved_contrib_names(cat, name, expected):
    assert cat.canonical(name) == expected


@pytest.mark.parametrize(
    ("api", "returned"),
    [
        # TF1 graph ops, so that `init.run()` and `training_op.run(feed_dict=...)` resolve
        ("tensorflow.compat.v1.global_variables_initializer", "tensorflow.Operation"),
        ("tensorflow.compat.v1.train.AdamOptimizer.minimize", "tensorflow.Operation"),
        ("tensorflow.group", "tensorflow.Operation"),
        ("tensorflow.compat.v1.get_variable", "tensorflow.Variable"),
        ("tensorflow.compat.v1.get_default_session", "tensorflow.compat.v1.Session"),
    ],
)
def test_tf1_graph_returns(cat, api, returned):
    assert cat.returns(api) == returned
    assert cat.resolve_method(returned, "run" if returned != "tensorflow.Variable" else "eval")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # factory chains follow return types
        ("tensorflow.data.Dataset.from_tensor_slices((x_test, y_test)).batch()", "tensorflow.data.Dataset.batch"),
        ("tensorflow.data.Dataset.from_tensor_slices.shuffle(1000).repeat()", "tensorflow.data.Dataset.repeat"),
        ("tensorflow.data.TFRecordDataset([p]).map()", "tensorflow.data.TFRecordDataset.map"),
        ("tensorflow.keras.utils.image_dataset_from_directory.cache().prefetch()", "tensorflow.data.Dataset.prefetch"),
        ("tensorflow.keras.models.load_model.predict()", "tensorflow.keras.Model.predict"),
        ("tensorflow.keras.applications.MobileNetV2.predict()", "tensorflow.keras.Model.predict"),
        ("tensorflow.lite.TFLiteConverter.from_keras_model.convert()", "tensorflow.lite.TFLiteConverter.convert"),
        # calling objects
        ("tensorflow.keras.layers.Dense(10, name='x')()", "tensorflow.keras.layers.Dense.__call__"),
        ("(tensorflow.constant ** 2).numpy()", "tensorflow.Tensor.numpy"),
        ("tensorflow.nn.softmax(predictions).numpy()", "tensorflow.Tensor.numpy"),
        # FECoM writes a called model by its class: the model's output tensor
        ("tensorflow.keras.Sequential(embeddings).numpy()", "tensorflow.Tensor.numpy"),
        ("tensorflow.keras.losses.CategoricalCrossentropy([[1, 0]], [[-1.0, 3.0]]).numpy()", "tensorflow.Tensor.numpy"),
        ("tensorflow.keras.metrics.Accuracy.result().numpy()", "tensorflow.Tensor.numpy"),
        ("tensorflow.ragged.constant.to_list()", "tensorflow.RaggedTensor.to_list"),
        # not in this TF (estimator, Keras-2 layers) or user attributes: rule-based names
        ("tensorflow.compat.v1.estimator.DNNClassifier.train()", "tensorflow.compat.v1.estimator.DNNClassifier.train"),
        ("tensorflow.compat.v1.layers.Dense(1)()", "tensorflow.compat.v1.layers.Dense.__call__"),
        ("tensorflow.keras.models.Model.encoder.summary()", "tensorflow.keras.Model.encoder.summary"),
    ],
)
def test_canonical_raw_signatures(cat, raw, expected):
    assert cat.canonical(raw) == expected


@pytest.mark.parametrize("name", ["numpy.array", "torch.nn.Linear", "project-level", "tfa.layers.X", "sklearn.fit"])
def test_non_tf_names_have_no_canonical(cat, name):
    assert cat.canonical(name) is None


def test_params_in_order(cat):
    assert cat.params("tensorflow.keras.Model.fit")[:4] == ["x", "y", "batch_size", "epochs"]
    assert cat.params("keras.models.Sequential.fit")[:4] == ["x", "y", "batch_size", "epochs"]
    assert cat.params("tensorflow.keras.layers.Dense")[:2] == ["units", "activation"]
    assert cat.params("tensorflow.keras.layers.Conv2D")[:3] == ["filters", "kernel_size", "strides"]
    assert cat.params("tensorflow.keras.Sequential")[:1] == ["layers"]
    assert cat.params("tensorflow.keras.Model")[:2] == ["inputs", "outputs"]
    assert cat.params("tensorflow.data.Dataset.batch")[:1] == ["batch_size"]
    assert cat.params("tensorflow.data.Dataset.from_tensor_slices")[:1] == ["tensors"]
    assert cat.params("tensorflow.reduce_mean") == ["input_tensor", "axis", "keepdims", "name"]
    # Keras __call__ forwards to call(): its parameters are call's
    assert cat.params("tensorflow.keras.layers.Dense.__call__")[:1] == ["inputs"]
    assert cat.params("tensorflow.no.such.thing") == []


def test_varargs_markers(cat):
    params = cat.params("tensorflow.keras.layers.Dense")
    assert params[-1] == "**kwargs"
    assert all(not p.startswith("*") for p in cat.params("tensorflow.keras.Model.fit"))


def test_resolve_method_through_bases(cat):
    assert cat.resolve_method("tensorflow.keras.Sequential", "fit") == "tensorflow.keras.Sequential.fit"
    assert cat.resolve_method("tensorflow.keras.layers.Dense", "__call__") == "tensorflow.keras.layers.Dense.__call__"
    assert cat.resolve_method("tensorflow.keras.layers.Dense", "fit") is None
    assert cat.resolve_method("tensorflow.keras.models.Sequential", "fit") == "tensorflow.keras.Sequential.fit"
    fit = cat.symbol("tensorflow.keras.Sequential.fit")
    assert fit.kind == "method"
    assert fit.defined_in == "tensorflow.keras.Model"
    assert fit.params == tuple(cat.params("tensorflow.keras.Model.fit"))


def test_class_symbol(cat):
    seq = cat.symbol("tensorflow.keras.Sequential")
    assert seq.kind == "class"
    assert "tensorflow.keras.models.Sequential" in seq.aliases
    assert seq.bases[0] == "tensorflow.keras.Model"
    assert "tensorflow.keras.Layer" in seq.bases
    assert {"fit", "evaluate", "predict", "compile", "add", "__call__"} <= set(seq.methods)
    assert cat.symbol("tensorflow.keras.layers").kind == "module"
    assert cat.symbol("tensorflow.reduce_mean").kind == "function"
    assert cat.symbol("tensorflow.keras.Sequential.no_such_method") is None


def test_returns(cat):
    assert cat.returns("tensorflow.keras.models.load_model") == "tensorflow.keras.Model"
    assert cat.returns("tensorflow.keras.applications.ResNet50") == "tensorflow.keras.Model"
    assert cat.returns("tensorflow.data.Dataset.from_tensor_slices") == "tensorflow.data.Dataset"
    assert cat.returns("tensorflow.data.Dataset.map") == "tensorflow.data.Dataset"
    assert cat.returns("tensorflow.keras.utils.image_dataset_from_directory") == "tensorflow.data.Dataset"
    assert cat.returns("tensorflow.keras.layers.Dense.__call__") == "tensorflow.Tensor"
    assert cat.returns("tensorflow.keras.layers.Dense") == "tensorflow.keras.layers.Dense"
    assert cat.returns("tensorflow.constant") == "tensorflow.Tensor"
    assert cat.returns("tensorflow.keras.Model.fit") == "tensorflow.keras.callbacks.History"
    assert cat.symbol("tensorflow.keras.Sequential.fit").returns == "tensorflow.keras.callbacks.History"


def test_returns_filled_gaps(cat):
    assert cat.returns("tensorflow.data.Dataset.range") == "tensorflow.data.Dataset"
    assert cat.returns("tensorflow.data.Dataset.sample_from_datasets") == "tensorflow.data.Dataset"
    assert cat.canonical("tensorflow.data.Dataset.sample_from_datasets.batch.prefetch") == "tensorflow.data.Dataset.prefetch"
    assert cat.returns("tensorflow.image.total_variation") == "tensorflow.Tensor"


def test_members_of_a_module_reached_by_two_paths_are_listed(cat):
    # tf.optimizers is the module tf.keras.optimizers: its schedules are Keras classes
    name = "tensorflow.keras.optimizers.schedules.ExponentialDecay"
    assert cat.symbol(name).kind == "class"
    assert cat.canonical("tensorflow.optimizers.schedules.ExponentialDecay") == name
    assert cat.canonical("keras.optimizers.schedules.CosineDecay") == "tensorflow.keras.optimizers.schedules.CosineDecay"
    assert "tensorflow.keras.optimizers.schedules.LearningRateSchedule" in cat.symbol(name).bases
    assert cat.resolve_method(name, "__call__") == f"{name}.__call__"


@pytest.mark.parametrize(
    ("cls", "entered"),
    [
        ("tensorflow.GradientTape", "tensorflow.GradientTape"),  # `return self`
        ("tensorflow.compat.v1.Session", "tensorflow.compat.v1.Session"),  # annotated `-> 'Session'`
        ("tensorflow.io.TFRecordWriter", "tensorflow.io.TFRecordWriter"),  # pybind: from the table
        ("tensorflow.name_scope", None),  # enters to a string
    ],
)
def test_enter_returns(cat, cls, entered):
    api = cat.resolve_method(cls, "__enter__")
    assert api == f"{cls}.__enter__"
    assert cat.returns(api) == entered


def test_classes_that_are_not_context_managers_have_no_enter(cat):
    assert cat.resolve_method("tensorflow.keras.Sequential", "__enter__") is None


@pytest.mark.parametrize(
    ("api", "kind", "family"),
    [
        ("tensorflow.keras.layers.Dense", "negligible", "tensorflow.keras.layers"),
        ("tensorflow.keras.layers.Dense.__call__", "layer-call", "tensorflow.keras.layers"),
        ("tensorflow.keras.Sequential", "model-construction", "tensorflow.keras"),
        ("tensorflow.keras.Sequential.fit", "model-training", "tensorflow.keras"),
        ("tensorflow.keras.Model.train_on_batch", "model-training", "tensorflow.keras"),
        ("tensorflow.keras.Model.evaluate", "model-evaluation", "tensorflow.keras"),
        ("tensorflow.keras.Sequential.predict", "model-inference", "tensorflow.keras"),
        ("tensorflow.keras.Model.__call__", "model-inference", "tensorflow.keras"),
        ("tensorflow.keras.Model.compile", "compile", "tensorflow.keras"),
        ("tensorflow.keras.Model.save", "io", "tensorflow.keras"),
        ("tensorflow.keras.models.load_model", "model-construction", "tensorflow.keras.models"),
        ("tensorflow.keras.applications.MobileNetV2", "model-construction", "tensorflow.keras.applications"),
        ("tensorflow.data.Dataset.batch", "negligible", "tensorflow.data"),
        ("tensorflow.data.Dataset.from_tensor_slices", "data-pipeline", "tensorflow.data"),
        ("tensorflow.reduce_mean", "tensor-op", "tensorflow"),
        ("tensorflow.math.reduce_std", "tensor-op", "tensorflow.math"),
        ("tensorflow.Tensor.numpy", "tensor-op", "tensorflow"),
        ("tensorflow.io.read_file", "io", "tensorflow.io"),
        ("tensorflow.keras.optimizers.Adam", "negligible", "tensorflow.keras.optimizers"),
        ("tensorflow.keras.optimizers.Adam.apply_gradients", "optimizer", "tensorflow.keras.optimizers"),
        ("tensorflow.keras.losses.SparseCategoricalCrossentropy", "negligible", "tensorflow.keras.losses"),
        ("tensorflow.keras.metrics.Mean.update_state", "loss-metric", "tensorflow.keras.metrics"),
        ("tensorflow.config.list_physical_devices", "negligible", "tensorflow.config"),
        # estimator and Keras-2 layers are gone from TF 2.16+: grouped by name rules
        ("tensorflow.estimator.DNNClassifier", "model-construction", "tensorflow.estimator"),
        ("tensorflow.compat.v1.estimator.Estimator.train", "model-training", "tensorflow.compat.v1.estimator"),
        ("tensorflow.estimator.LinearClassifier.evaluate", "model-evaluation", "tensorflow.estimator"),
        ("tensorflow.compat.v1.estimator.inputs.numpy_input_fn", "data-pipeline", "tensorflow.compat.v1.estimator.inputs"),
        ("tensorflow.compat.v1.layers.Dense.__call__", "layer-call", "tensorflow.compat.v1.layers"),
        ("tensorflow.compat.v1.train.GradientDescentOptimizer.minimize", "optimizer", "tensorflow.compat.v1.train"),
    ],
)
def test_kind_and_family(cat, api, kind, family):
    assert (cat.kind(api), cat.family(api)) == (kind, family)


def test_kind_memo_answers_each_api_its_own_kind(monkeypatch):
    """`Catalog.kind` memoises per API (the resolver asks it of every call it records): asked again,
    and interleaved with other APIs, each answer is the one `kinds.kind_of` computes afresh (a memo
    keyed wrongly would repeat one), and each API's kind is computed once."""
    from greenlint.catalog import kinds
    from greenlint.catalog.catalog import CATALOG_FILE
    from greenlint.paths import DATA_DIR

    fresh = read_catalog(DATA_DIR / "catalog" / CATALOG_FILE)  # its memo empty
    apis = ["tensorflow.keras.Sequential.fit", "tensorflow.keras.Sequential.predict", "tensorflow.reduce_mean",
            "tensorflow.keras.layers.Dense", "tensorflow.keras.layers.Dense.__call__", "tensorflow.io.read_file",
            "tensorflow.not_a_symbol.at_all"]
    expected = [kinds.kind_of(fresh, api) for api in apis]
    assert len(set(expected)) >= 6  # the APIs differ in kind: a memo under one key would show
    computed = []
    kind_of = kinds.kind_of
    monkeypatch.setattr(kinds, "kind_of", lambda cat, api: computed.append(api) or kind_of(cat, api))
    for _ in range(2):
        assert [fresh.kind(api) for api in apis] == expected
        assert [fresh.kind(api) for api in reversed(apis)] == expected[::-1]
    assert computed == apis


@pytest.mark.parametrize(
    "api",
    [
        "tensorflow.keras.config.epsilon",  # a getter: takes nothing
        "tensorflow.executing_eagerly",
        "tensorflow.compat.v1.RunOptions",  # constructors of options, constraints, callbacks, scopes
        "tensorflow.keras.constraints.MaxNorm",
        "tensorflow.keras.initializers.GlorotUniform",
        "tensorflow.keras.callbacks.EarlyStopping",
        "tensorflow.compat.v1.name_scope",
        "tensorflow.GradientTape",
        "tensorflow.device",
        "tensorflow.test.main",  # the test harness
        "tensorflow.test.TestCase.get_temp_dir",
        "tensorflow.test.TestCase.skipTest",
        "tensorflow.test.TestCase.session",
        "tensorflow.keras.Layer.add_weight",  # a layer's bookkeeping
        "tensorflow.keras.Layer.build",
        "tensorflow.keras.layers.SimpleRNNCell.get_recurrent_dropout_mask_for_cell",
        "tensorflow.io.gfile.exists",  # files
        "tensorflow.keras.preprocessing.image.ImageDataGenerator.flow_from_directory",  # pipeline definitions
        "tensorflow.data.Dataset.map",
        "tensorflow.data.TFRecordDataset",
    ],
)
def test_calls_that_do_no_tensor_work_are_negligible(cat, api):
    assert cat.kind(api) == "negligible"


@pytest.mark.parametrize(
    "api",
    [
        "tensorflow.data.Dataset.from_tensor_slices",  # copies its data in
        "tensorflow.data.Dataset.reduce",  # iterates the pipeline
        "tensorflow.data.experimental.TFRecordWriter.write",  # iterates the dataset it writes
        "tensorflow.test.TestCase.evaluate",  # runs the tensors it is given
        "tensorflow.keras.layers.Dense.__call__",
        "tensorflow.keras.Sequential",  # builds a model's weights
        "tensorflow.Variable",
        "tensorflow.zeros",
        "tensorflow.train.Checkpoint",  # I/O
        "tensorflow.keras.optimizers.Adam.apply_gradients",
    ],
)
def test_calls_that_work_are_not_negligible(cat, api):
    assert cat.kind(api) != "negligible"


def test_malformed_catalog_file_names_the_file(tmp_path):
    bad = tmp_path / "catalog.json.gz"
    bad.write_bytes(gzip.compress(b"{not json"))
    with pytest.raises(CatalogError, match="catalog.json.gz"):
        read_catalog(bad)
    with pytest.raises(CatalogError, match="missing"):
        read_catalog(tmp_path / "absent.json.gz")
    bad.write_bytes(gzip.compress(b'{"symbols": []}'))
    with pytest.raises(CatalogError, match="symbols"):
        read_catalog(bad)


def test_legacy_optimizer_stand_ins_keep_their_names():
    """Keras 3 binds every `tf.keras.optimizers.legacy.*` to one placeholder class: names stay distinct."""
    from greenlint.catalog.catalog import load_catalog

    catalog = load_catalog()
    for name in ("Adam", "SGD", "RMSprop", "Adagrad", "Ftrl", "Optimizer"):
        api = f"tensorflow.keras.optimizers.legacy.{name}"
        assert catalog.canonical(api) == api
    assert catalog.canonical("tensorflow.keras.layers.Convolution2D") == "tensorflow.keras.layers.Conv2D"
    assert catalog.canonical("tensorflow.math.floormod") == catalog.canonical("tensorflow.math.mod")


def test_a_tensor_array_rebound_in_a_loop_stays_a_tensor_array():
    from greenlint.analysis.analyse import analyse_source

    code = (
        "import tensorflow as tf\nta = tf.TensorArray(tf.float32, size=3)\n"
        "for i in range(3):\n    ta = ta.write(i, 1.0)\nout = ta.stack()\n"
    )
    apis = [c.api for c in analyse_source(code, path="ta.py").callsites]
    assert apis[-1] == "tensorflow.TensorArray.stack"


def test_keras2_api_is_covered_and_marked():
    """Code written for Keras 2 (tf-keras) resolves: symbols Keras 3 lacks are marked "keras2"."""
    import gzip
    import json

    from greenlint.catalog.catalog import CATALOG_FILE, load_catalog
    from greenlint.paths import DATA_DIR

    payload = json.loads(gzip.decompress((DATA_DIR / "catalog" / CATALOG_FILE).read_bytes()))
    if "tf_keras" not in payload["versions"]:
        missing("catalog generated without tf-keras")
    symbols = payload["symbols"]
    assert symbols["tensorflow.keras.dtensor.experimental.LayoutMap"]["v"] == "keras2"
    assert "reset_states" in symbols["tensorflow.keras.Metric"]["m2"]
    assert "v" not in symbols["tensorflow.keras.layers.Dense"]
    catalog = load_catalog()
    assert catalog.resolve_method("tensorflow.keras.metrics.Mean", "reset_states") == (
        "tensorflow.keras.metrics.Mean.reset_states"
    )
    assert catalog.resolve_method("tensorflow.keras.Model", "fit_generator") == "tensorflow.keras.Model.fit_generator"


def test_estimator_api_is_read_from_source():
    """tf.estimator (tensorflow-estimator 2.15, which does not import with this TF) resolves with signatures."""
    from greenlint.analysis.analyse import analyse_source
    from greenlint.catalog.catalog import load_catalog

    catalog = load_catalog()
    if "tensorflow_estimator" not in catalog.versions:
        missing("catalog generated without tensorflow-estimator")
    code = (
        "import tensorflow as tf\n"
        "est = tf.estimator.DNNClassifier(hidden_units=[10], feature_columns=cols)\n"
        "est.train(input_fn, steps=100)\n"
    )
    sites = analyse_source(code, path="est.py").callsites
    assert [(s.api, s.features.get("hidden_units"), s.features.get("steps")) for s in sites] == [
        ("tensorflow.estimator.DNNClassifier", [10], None),
        ("tensorflow.estimator.DNNClassifier.train", None, 100),
    ]


def test_estimator_names_of_tensorflows_own_classes_are_their_aliases():
    """tf.estimator re-exports TF's session hooks (`tf.estimator.StopAtStepHook` is
    `tf.compat.v1.train.StopAtStepHook`)."""
    from greenlint.catalog.catalog import load_catalog

    catalog = load_catalog()
    if "tensorflow_estimator" not in catalog.versions:
        missing("catalog generated without tensorflow-estimator")
    for name in ("tensorflow.estimator.StopAtStepHook", "tensorflow.compat.v1.estimator.StopAtStepHook"):
        assert catalog.canonical(name) == "tensorflow.compat.v1.train.StopAtStepHook"
