"""Which factory names count as a large architecture (greenlint.rules.large_step), and GL602 on them."""

from __future__ import annotations

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.large_step import architecture, camel_architecture
from tests.rules.conftest import check_in_project, notebook

#: Every training material: the fake predictor's fits are 1 kJ at most, under `material-saving-j`.
MATERIAL = {"material-saving-j": 0.0}
GL602 = Config(select=("GL602",), no_cache=True, options=MATERIAL)


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("build_transformer_model", "transformer"),
        ("efficientdet", "efficientdet"),
        ("resnet50", "resnet"),
        ("create_bert_model", "bert"),
        ("unet", "unet"),
        ("TransformerBlock", ""),  # a class: a layer or block of any size
        ("build_model", ""),
        ("create_unet_model", "unet"),
        ("resnet_50", "resnet"),
        ("bert_base", "bert"),
        ("define_densenet_flags", ""),  # a flags helper, not a factory
        ("resnet_block", ""),  # a block of any size
        ("get_resnet_like_block_count", ""),
        ("bertha_loader", ""),  # a word must match whole, not as a prefix
        ("yolo_body", "yolo"),  # YOLO code's name for the network without its loss
        ("darknet_body", "darknet"),
        ("resblock_body", ""),  # a block of any size
        ("loop_body", ""),
        ("resnet_graph", "resnet"),  # TF1 and Keras 2 code's name for the function building the network (Mask R-CNN)
        ("build_graph", ""),  # builds some graph, named after no architecture
        ("resnet_block_graph", ""),
        ("", ""),
    ],
)
def test_architecture_names(name, word):
    assert architecture(name) == word


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("YoloV3", "yolov3"),
        ("YOLOv3", "yolov3"),
        ("YoloV3Tiny", "yolov3"),
        ("ResNet50", "resnet"),
        ("Resnet50V2", "resnet"),
        ("EfficientNetB3", "efficientnet"),
        ("UNet", "unet"),
        ("Darknet", "darknet"),
        ("BertModel", "bert"),
        ("DeepLabResNetModel", "deeplab"),  # an architecture on the backbone it is built on
        ("YoloV3DarknetNet", "yolov3"),
        ("DeepLabResNetBlock", ""),  # a block of any size
        ("ResNetDeepLabVggModel", ""),  # one backbone at most
        ("DarknetConv", ""),  # a block of any size
        ("ResNetBlock", ""),
        ("TransformerBlock", ""),
        ("ResNet50Layer", ""),
        ("Bertha", ""),  # a word must match whole, not as a prefix
        ("MobileNetV2", ""),  # not among the large architectures
        ("resnet50", ""),  # snake_case: architecture()'s
        ("Yolo_v3", ""),
        ("", ""),
    ],
)
def test_camel_case_factory_names(name, word):
    assert camel_architecture(name) == word


#: yolov3-tf2's shape: the script builds its model with a CamelCase factory function of a project module.
YOLO_RUN = (
    "import tensorflow as tf\nfrom models import {name}\n"
    "model = {name}(416, classes=80)\nmodel.compile('adam', 'mse')\nmodel.fit(dataset, epochs=100)\n"
)


@pytest.mark.parametrize(
    ("definition", "name", "found"),
    [
        ("def YoloV3(size, classes):\n    return build(size, classes)\n", "YoloV3", [5]),
        # a Keras model class named so is the whole network (BiT's `class ResnetV2(tf.keras.Model)`)
        ("import tensorflow as tf\nclass YoloV3(tf.keras.Model):\n    pass\n", "YoloV3", [5]),
        ("from tensorflow.keras.models import Model\nclass YoloV3(Model):\n    pass\n", "YoloV3", [5]),
        ("import tensorflow as tf\nclass YoloV3(tf.keras.Sequential):\n    pass\n", "YoloV3", [5]),
        # a layer class named so may be a layer of any size
        ("import tensorflow as tf\nclass YoloV3(tf.keras.layers.Layer):\n    pass\n", "YoloV3", []),
        # a Keras model class named otherwise is no evidence (a block: `ResnetIdentityBlock`)
        ("import tensorflow as tf\nclass ResnetIdentityBlock(tf.keras.Model):\n    pass\n", "ResnetIdentityBlock", []),
        # a CamelCase function named otherwise is no evidence
        ("def DarknetConv(size, classes):\n    return build(size, classes)\n", "DarknetConv", []),
    ],
)
def test_an_imported_camel_case_factory_is_evidence(tmp_path, predictor, definition, name, found):
    (tmp_path / "models.py").write_text(definition)
    run = YOLO_RUN.format(name=name)
    path = tmp_path / "train.py"
    path.write_text(run)
    assert [d.span.line for d in check_source(run, str(path), GL602, predictor) if d.code == "GL602"] == found


#: deeplab-resnet's shape: a TF1 graph built by a project class on its own base, its update run by a session
#: (the finding on the optimizer, where the rewrite wraps it).
GRAPH_RUN = (
    "import tensorflow as tf\nfrom models import {name}\n"
    "images = tf.compat.v1.placeholder(tf.float32, [None, 321, 321, 3])\nnet = {name}({{'data': images}})\n"
    "train_op = tf.compat.v1.train.MomentumOptimizer(0.1, 0.9).minimize(tf.reduce_mean(net.output))\n"
    "sess = tf.compat.v1.Session()\nfor step in range(20000):\n    sess.run(train_op)\n"
)


@pytest.mark.parametrize(
    ("definition", "name", "found"),
    [
        # a class whose name ends in a whole model's noun after an architecture's is the whole network
        ("class Network(object):\n    pass\nclass DeepLabResNetModel(Network):\n    pass\n", "DeepLabResNetModel", [5]),
        ("class YoloV3Network:\n    pass\n", "YoloV3Network", [5]),
        # without such a noun, a class may be a layer or block of any size
        ("class Network(object):\n    pass\nclass ResNet50(Network):\n    pass\n", "ResNet50", []),
        ("class DeepLabResNetBlock(object):\n    pass\n", "DeepLabResNetBlock", []),
        # a whole model's noun after no architecture's is no evidence
        ("class SegmentationModel(object):\n    pass\n", "SegmentationModel", []),
    ],
)
def test_an_imported_class_of_the_whole_network_is_evidence_for_a_graph(tmp_path, predictor, definition, name, found):
    (tmp_path / "models.py").write_text(definition)
    run = GRAPH_RUN.format(name=name)
    path = tmp_path / "train.py"
    path.write_text(run)
    assert [d.span.line for d in check_source(run, str(path), GL602, predictor) if d.code == "GL602"] == found


def _findings(text, predictor):
    return [d for d in check_source(text, "train.py", GL602, predictor) if d.code == "GL602"]


def test_a_small_model_in_a_file_with_a_large_factory_is_not_reported_when_its_step_is_known(predictor):
    text = (
        "import tensorflow as tf\nbackbone = build_transformer_model(config)\n"
        "m = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(4)])\nm.fit(x, y, batch_size=32)\n"
    )
    assert _findings(text, predictor) == []


def test_the_basis_names_the_factory(predictor):
    text = "import tensorflow as tf\nm = build_transformer_model(config)\nm.fit(x, y, epochs=3)\n"
    [found] = _findings(text, predictor)
    assert found.span.line == 3 and "build_transformer_model()" in found.message


def test_a_model_built_on_a_yolo_body_is_reported(predictor):
    text = (
        "import tensorflow as tf\nfrom yolo3.model import yolo_body\n"
        "def create_model(num_anchors, num_classes):\n    inputs = tf.keras.Input((416, 416, 3))\n"
        "    return tf.keras.Model(inputs, yolo_body(inputs, num_anchors // 3, num_classes).output)\n"
        "model = create_model(9, 80)\nmodel.fit(dataset, epochs=50)\n"
    )
    [found] = _findings(text, predictor)
    assert found.span.line == 7 and "yolo_body(), named after the yolo architecture" in found.message


def test_a_notebook_reports_only_a_training_after_the_large_model_is_built(predictor):
    small = "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(8)])\nm.fit(a, b)\n"
    backbone = "base = tf.keras.applications.ResNet50(include_top=False)\nfeatures = base.predict(images)\n"
    later = "head = tf.keras.Sequential([base, tf.keras.layers.Dense(5)])\nhead.fit(ds, epochs=3)\n"
    assert [d for d in check_source(notebook(small, backbone), "nb.ipynb", GL602, predictor) if d.code == "GL602"] == []
    found = [d for d in check_source(notebook(small, backbone, later), "nb.ipynb", GL602, predictor) if d.code == "GL602"]
    assert [(d.span.cell, d.span.line) for d in found] == [(3, 2)]


def test_an_unknown_model_alone_is_not_reported(predictor):
    text = "import tensorflow as tf\nm = tf.keras.models.load_model(path)\nm.fit(x, y, epochs=3)\n"
    assert _findings(text, predictor) == []


def test_cell_units_number_each_parsed_cell_and_skip_the_broken_ones():
    from greenlint.rules.base import FileFacts
    from greenlint.rules.syntax import cell_units, units

    script = FileFacts("t.py", (), "x = 1\n")
    assert [cell for cell, _ in cell_units(script)] == [None]
    notebook = FileFacts("t.ipynb", (), ("x = 1", "def (", "y = 2"))
    assert [(cell, m.body[0].targets[0].id) for cell, m in cell_units(notebook)] == [(1, "x"), (3, "y")]
    assert units(notebook) == [m for _, m in cell_units(notebook)]


#: simclr's shape: the script builds its model with a project class whose constructor calls a
#: factory named after a large architecture, and trains it in a tf.function step.
RUN = (
    "import tensorflow as tf\nimport model as model_lib\n"
    "model = model_lib.Model(10)\noptimizer = tf.keras.optimizers.SGD()\n"
    "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n"
    "        loss = tf.reduce_mean(model(x, training=True) - y)\n"
    "    grads = tape.gradient(loss, model.trainable_variables)\n"
    "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    "for x, y in dataset:\n    train_step(x, y)\n"
)
MODEL = (
    "import tensorflow as tf\nimport resnet\nclass Model(tf.keras.Model):\n"
    "    def __init__(self, n):\n        super().__init__()\n        self.trunk = resnet.{factory}(depth=50)\n"
    "    def call(self, x):\n        return self.trunk(x)\n"
)


def _project_findings(tmp_path, predictor, factory):
    (tmp_path / "model.py").write_text(MODEL.format(factory=factory))
    path = tmp_path / "run.py"
    path.write_text(RUN)
    return [d for d in check_source(RUN, str(path), GL602, predictor) if d.code == "GL602"]


def test_a_model_built_by_an_imported_class_calling_an_architecture_factory_is_evidence(tmp_path, predictor):
    found = _project_findings(tmp_path, predictor, "resnet")
    assert [d.span.line for d in found] == [12]  # the tf.function's call: one training step each
    assert "model_lib.Model(), whose definition calls resnet()" in found[0].message


def test_an_imported_class_calling_no_architecture_factory_is_no_evidence(tmp_path, predictor):
    assert _project_findings(tmp_path, predictor, "residual_block") == []


#: bert's shape: `from bert import modeling`, the model_fn builds `modeling.BertModel(...)`, whose
#: definition calls `transformer_model(...)`, and an Estimator trains it.
ESTIMATOR_RUN = (
    "import tensorflow as tf\nfrom bert import modeling\n"
    "def model_fn(features, labels, mode):\n    model = modeling.{name}(features)\n"
    "    loss = tf.reduce_mean(model.output)\n    op = tf.compat.v1.train.AdamOptimizer(1e-5).minimize(loss)\n"
    "    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=op)\n"
    "estimator = tf.estimator.Estimator(model_fn=model_fn)\nestimator.train(input_fn, max_steps=num_steps)\n"
)


@pytest.mark.parametrize(
    "name, factory, found",
    [
        ("BertModel", "transformer_model", [9]),
        ("BertModel", "attention_layer", [9]),  # the name alone: the whole model (`whole_network`)
        ("BertEncoder", "transformer_model", [9]),
        ("BertEncoder", "attention_layer", []),  # a part of the model, named so, of any size
    ],
)
def test_a_module_imported_from_its_package_is_read_for_evidence(tmp_path, predictor, name, factory, found):
    (tmp_path / "bert").mkdir()
    (tmp_path / "bert" / "__init__.py").write_text("")
    (tmp_path / "bert" / "modeling.py").write_text(
        f"class {name}:\n    def __init__(self, x):\n        self.output = {factory}(x)\n")
    path = tmp_path / "run.py"
    run = ESTIMATOR_RUN.format(name=name)
    path.write_text(run)
    lines = [d.span.line for d in check_source(run, str(path), GL602, predictor) if d.code == "GL602"]
    assert lines == found


#: image-segmentation-keras' shape: the trainer builds the model it is named from a registry of
#: model constructors that another module of the project fills.
REGISTRY_RUN = (
    "import tensorflow as tf\ndef train(model, n_classes, epochs=5):\n"
    "    from registry import model_from_name\n    if isinstance(model, str):\n"
    "        model = model_from_name[model](n_classes)\n    model.compile('adam', 'categorical_crossentropy')\n"
    "    model.fit(train_gen, steps_per_epoch=512, epochs=epochs)\n"
)
REGISTRY = "import nets\nmodel_from_name = {{}}\n{entries}"
NETS = (
    "def tiny(n):\n    return small(n)\ndef dense_head(n):\n    return small(n)\n"
    "def deep(n):\n    return resnet50(n)\ndef vgg_unet(n):\n    return encoder_decoder(n)\n"
)


def _registry_findings(tmp_path, predictor, names):
    (tmp_path / "nets.py").write_text(NETS)
    entries = "".join(f"model_from_name[{name!r}] = nets.{name}\n" for name in names)
    (tmp_path / "registry.py").write_text(REGISTRY.format(entries=entries))
    path = tmp_path / "train.py"
    path.write_text(REGISTRY_RUN)
    return [d for d in check_source(REGISTRY_RUN, str(path), GL602, predictor) if d.code == "GL602"]


def test_a_registry_of_mostly_large_models_is_evidence(tmp_path, predictor):
    found = _registry_findings(tmp_path, predictor, ["tiny", "deep", "vgg_unet"])
    assert [d.span.line for d in found] == [7]
    assert "model_from_name[...], which holds 2 large architectures among its 3 models (deep, vgg_unet" in (
        found[0].message
    )


def test_a_registry_of_mostly_small_models_is_no_evidence(tmp_path, predictor):
    assert _registry_findings(tmp_path, predictor, ["tiny", "dense_head", "deep"]) == []


#: ssd-tensorflow's shape: a getter of another module returns the class a registry files under the
#: architecture's name (its constructor's name says nothing), and a TF1 session runs the graph it builds.
GETTER_RUN = (
    "import tensorflow as tf\nimport factory\nnet = factory.get_network(FLAGS.model_name)(params)\n"
    "train_op = tf.compat.v1.train.MomentumOptimizer(0.1, 0.9).minimize(net.loss)\n"
    "sess = tf.compat.v1.Session()\nfor step in range(20000):\n    sess.run(train_op)\n"
)


@pytest.mark.parametrize(
    ("keys", "found"),
    [
        (["ssd_300_vgg", "ssd_512_vgg"], [4]),  # at the optimizer the session's update is built with
        (["ssd_300_vgg", "ssd_300_mobilenet"], []),  # half of them: the key chooses
        (["small_cnn", "mlp"], []),
    ],
)
def test_a_getter_of_a_registry_keyed_by_large_architectures_is_evidence(tmp_path, predictor, keys, found):
    (tmp_path / "detectors.py").write_text("class SSDNet(object):\n    pass\n")
    entries = ", ".join(f"{key!r}: detectors.SSDNet" for key in keys)
    (tmp_path / "factory.py").write_text(
        f"import detectors\nnetworks = {{{entries}}}\ndef get_network(name):\n    return networks[name]\n"
    )
    path = tmp_path / "train.py"
    path.write_text(GETTER_RUN)
    findings = [d for d in check_source(GETTER_RUN, str(path), GL602, predictor) if d.code == "GL602"]
    assert [d.span.line for d in findings] == found
    assert all("get_network(), whose definition returns an entry of networks" in d.message for d in findings)


def test_a_getter_of_other_values_is_no_evidence(tmp_path, predictor):
    (tmp_path / "factory.py").write_text(
        "SIZES = {'vgg': 16, 'resnet': 50}\ndef get_network(name):\n    return SIZES[name]\n"
    )
    path = tmp_path / "train.py"
    path.write_text(GETTER_RUN)
    assert [d for d in check_source(GETTER_RUN, str(path), GL602, predictor) if d.code == "GL602"] == []


def test_a_project_on_the_cpu_only_wheel_is_not_advised_mixed_precision(tmp_path, predictor):
    source = "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n"
    files = {"train.py": source, "requirements.txt": "tensorflow-cpu==2.12\n"}
    assert check_in_project(tmp_path, predictor, files, "train.py", "GL602") == []
    files["requirements.txt"] = "tensorflow==2.12\n"
    found = check_in_project(tmp_path / "gpu", predictor, files, "train.py", "GL602", MATERIAL)
    assert [d.span.line for d in found] == [3]


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("YoloV3", "yolov3"),
        ("YoloV3Tiny", "yolov3"),
        ("Darknet", "darknet"),
        ("ResNet50", "resnet"),
        ("UNet", "unet"),
        ("DarknetConv", ""),  # a block of any size
        ("YoloLoss", ""),
        ("ConvGenerator", ""),
        ("build_transformer_model", "transformer"),  # snake_case as `architecture` reads it
    ],
)
def test_factory_function_names_in_camel_case(name, word):
    from greenlint.rules.large_step import factory_architecture

    assert factory_architecture(name) == word


CAMEL_FACTORY = (
    "import tensorflow as tf\n{definition}\n"
    "model = YoloV3(416)\nmodel.compile('adam', 'mse')\nmodel.fit(dataset, epochs=50)\n"
)


def test_a_camel_case_factory_function_named_after_an_architecture_is_evidence(predictor):
    definition = "def YoloV3(size):\n    inputs = tf.keras.Input((size, size, 3))\n    return tf.keras.Model(inputs, f(inputs))\n"
    [found] = _findings(CAMEL_FACTORY.format(definition=definition), predictor)
    assert "YoloV3(), named after the yolov3 architecture" in found.message


def test_a_camel_case_layer_class_of_that_name_is_no_evidence(predictor):
    definition = "class YoloV3(tf.keras.layers.Layer):\n    def call(self, x):\n        return f(x)\n"
    assert _findings(CAMEL_FACTORY.format(definition=definition), predictor) == []


def test_a_camel_case_keras_model_class_of_that_name_is_evidence(predictor):
    definition = "class YoloV3(tf.keras.Model):\n    def call(self, x):\n        return f(x)\n"
    [found] = _findings(CAMEL_FACTORY.format(definition=definition), predictor)
    assert "YoloV3(), named after the yolov3 architecture" in found.message


def test_an_imported_factory_calling_a_camel_case_factory_of_its_module_is_evidence(tmp_path, predictor):
    (tmp_path / "models.py").write_text(
        "import tensorflow as tf\n"
        "def Darknet(name=None):\n    x = inputs = tf.keras.Input([None, None, 3])\n    return tf.keras.Model(inputs, x)\n"
        "def build(size):\n    inputs = tf.keras.Input([size, size, 3])\n    return tf.keras.Model(inputs, Darknet()(inputs))\n"
        "class Darknet2(tf.keras.layers.Layer):\n    pass\n"
        "def build_small(size):\n    inputs = tf.keras.Input([size, size, 3])\n    return tf.keras.Model(inputs, Darknet2()(inputs))\n"
    )
    run = "import tensorflow as tf\nfrom models import {builder}\nmodel = {builder}(416)\nmodel.fit(dataset, epochs=50)\n"
    path = tmp_path / "run.py"
    found = [d for d in check_source(run.format(builder="build"), str(path), GL602, predictor) if d.code == "GL602"]
    assert len(found) == 1 and "whose definition calls Darknet(), named after the darknet architecture" in found[0].message
    # a layer class named so is a layer or block of any size: no evidence
    assert [d for d in check_source(run.format(builder="build_small"), str(path), GL602, predictor) if d.code == "GL602"] == []


#: A project factory named after an architecture, imported and trained: its body makes the network
#: itself, or loads it from TensorFlow Hub (whose SavedModel computes in float32 whatever the policy).
HUB_RUN = "import tensorflow as tf\nfrom models import {name}\nm = {name}(5)\nm.compile('sgd', 'mse')\nm.fit(ds, epochs=30)\n"


@pytest.mark.parametrize(
    ("name", "body", "found"),
    [
        ("create_resnet50", "return build(n)", [5]),
        ("create_resnet50", "return tf.keras.Sequential([hub.KerasLayer(HANDLE, trainable=True), tf.keras.layers.Dense(n)])",
         []),
        ("create_resnet50", "return tf.keras.Sequential([hub.load(HANDLE), tf.keras.layers.Dense(n)])", []),
        ("ResNet50", "return build(n)", [5]),
        ("ResNet50", "return tf.keras.Sequential([hub.KerasLayer(HANDLE), tf.keras.layers.Dense(n)])", []),
    ],
)
def test_an_imported_factory_loading_its_network_from_tf_hub_is_no_evidence(tmp_path, predictor, name, body, found):
    (tmp_path / "models.py").write_text(
        f"import tensorflow as tf\nimport tensorflow_hub as hub\ndef {name}(n):\n    {body}\n")
    run = HUB_RUN.format(name=name)
    path = tmp_path / "train.py"
    path.write_text(run)
    assert [d.span.line for d in check_source(run, str(path), GL602, predictor) if d.code == "GL602"] == found
