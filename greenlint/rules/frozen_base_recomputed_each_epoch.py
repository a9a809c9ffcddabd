"""GL532 frozen-base-recomputed-each-epoch: a frozen pretrained base run again, in every epoch of a fit, on data that does not change."""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from greenlint.analysis.hostwork import AUGMENTS
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import SAVING_OPTION, Joules, immaterial_saving, in_tests, saving_clause, saving_j
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import SCOPES, cell_units, definitions, last_name, map_function, scope_of
from greenlint.units import fmt_bytes, fmt_count

#: Layers and functions that give an input the same output every time, without weights to train:
#: what may run on the data before the base (by the last name of their API).
PREPROCESSING = frozenset(
    {"Rescaling", "Resizing", "CenterCrop", "Normalization", "preprocess_input", "cast", "convert_image_dtype"}
)
#: What a `Sequential` list may start with: its input, no computation.
INPUTS = frozenset({"Input", "InputLayer"})
#: What a dataset's `map` may call and give each element the same result on every pass.
FIXED_MAPS = PREPROCESSING | frozenset(
    {"resize", "one_hot", "reshape", "expand_dims", "squeeze", "read_file", "decode_jpeg", "decode_png", "decode_image"}
)
#: Dataset methods that keep each element's values as they are (order, batching, caching aside).
KEEPS = frozenset({"batch", "prefetch", "cache", "shuffle", "take", "skip", "unbatch", "with_options"})
#: The last names of the calls that make a dataset of the same elements on every pass.
SOURCES = frozenset(
    {"image_dataset_from_directory", "text_dataset_from_directory", "from_tensor_slices", "from_tensors"}
)
#: `ImageDataGenerator` flows: the same images on every pass unless the generator augments them.
FLOWS = frozenset({"flow", "flow_from_directory", "flow_from_dataframe"})
#: `ImageDataGenerator` arguments that change the images from pass to pass, or run code greenlint does not read.
CHANGES = AUGMENTS | {"preprocessing_function"}
#: Keras Applications that draw at random inside their body when run in training mode (EfficientNet's
#: blocks drop their residual branch at random: stochastic depth), by the start of their name.
RANDOM_BODY = ("EfficientNet",)
#: Keras Applications whose top (`include_top=True`, the default) has a dropout layer.
RANDOM_TOP = frozenset({"MobileNet", "MobileNetV3Small", "MobileNetV3Large"})
#: The hub layer whose call runs in inference mode when it is not trainable (its default).
HUB_LAYER = "tensorflow_hub.KerasLayer"
#: How the message names a dataset whose elements are the same on every pass.
DATASET = "a dataset with no random map"
#: Bytes of a float32 feature.
FLOAT32 = 4


class Base(NamedTuple):
    """The frozen base a fitted model runs first: how the code names it, its Keras Application (None
    for another model), and its forward FLOPs per sample where the analysis knows them."""

    name: str
    application: str | None
    flops: float | None
    features: tuple[int, ...] | None  # the shape of its output per sample


STACK = (
    "import numpy as np\n"
    "import tensorflow as tf\n"
    "x = np.load('images.npy')\n"
    "y = np.load('labels.npy')\n"
    "base = tf.keras.applications.ResNet50(include_top=False, input_shape=(224, 224, 3))\n"
    "base.trainable = False\n"
    "model = tf.keras.Sequential([tf.keras.layers.Rescaling(1 / 255.0), base,"
    " tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])\n"
    "model.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
    "model.fit({data}, epochs={epochs})\n"
)

GRAPH = (
    "import tensorflow as tf\n"
    "train = tf.keras.utils.image_dataset_from_directory('train', image_size=(224, 224))\n"
    "base = tf.keras.applications.{app}(include_top=False)\n"
    "base.trainable = False\n"
    "inputs = tf.keras.Input(shape=(224, 224, 3))\n"
    "x = {first}\n"
    "x = base(x{training})\n"
    "x = tf.keras.layers.GlobalAveragePooling2D()(x)\n"
    "outputs = tf.keras.layers.Dense(10)(x)\n"
    "model = tf.keras.Model(inputs, outputs)\n"
    "model.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
    "model.fit(train, epochs=5)\n"
)

#: STACK built with `Sequential.add`: the base's FLOPs known from the model's, the fit priced.
ADDED = STACK.format(data="x, y", epochs=20).replace(
    "model = tf.keras.Sequential([tf.keras.layers.Rescaling(1 / 255.0), base,"
    " tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])\n",
    "model = tf.keras.Sequential()\nmodel.add(base)\nmodel.add(tf.keras.layers.Flatten())\nmodel.add(tf.keras.layers.Dense(10))\n",
)

HUB = (
    "import tensorflow as tf\n"
    "import tensorflow_hub as hub\n"
    "from tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
    "flow = ImageDataGenerator({augment}).flow_from_directory('train', target_size=(224, 224))\n"
    "def create_model(url):\n"
    "    extractor = hub.KerasLayer(url, {trainable}input_shape=(224, 224, 3))\n"
    "    return tf.keras.Sequential([extractor, tf.keras.layers.Dense(10, activation='softmax')])\n"
    "model = create_model('https://tfhub.dev/google/imagenet/resnet_v2_50/feature_vector/4')\n"
    "model.compile(optimizer='adam', loss='categorical_crossentropy')\n"
    "model.fit(flow, epochs=5)\n"
)


class FrozenBaseRecomputedEachEpoch(Rule):
    """
    ## What it does
    Flags a Keras `fit` of two epochs or more of a model whose first computation on its input is a
    frozen pretrained base, on data that is the same in every epoch, so that only the head after
    the base trains and every epoch runs the base's forward pass again on the same samples:

    - the model is built in the file (where the fit is, or in a function of the file that returns
      it) as a `Sequential([...])` list or a functional `Model(inputs, outputs)` whose outputs
      follow one chain of calls back to its `Input`; before the base only deterministic
      preprocessing runs (`Rescaling`, `Resizing`, `CenterCrop`, `Normalization`, a
      `preprocess_input`, a cast, arithmetic), and at least one layer follows it;
    - the base is frozen for the whole fit: `base.trainable = False` set before the model's
      `compile` (no `if` around it), and nothing set trainable again (`trainable = True` or a
      value not a literal, on any layer) between it and the fit; or a `hub.KerasLayer` not made
      trainable (its default), which runs in inference mode;
    - nothing inside the base draws at random in training mode: the base is called with
      `training=False`, or it is a Keras Application without dropout (not an EfficientNet, whose
      blocks drop at random; not a MobileNet with its top) or a hub layer;
    - the data is the same every epoch: arrays, a `tf.data` pipeline from
      `image_dataset_from_directory` or `from_tensor_slices` whose methods only batch, shuffle,
      cache and prefetch or map with deterministic functions (a cast, a resize, a
      `preprocess_input`, a `Rescaling` layer), or an `ImageDataGenerator` flow with no
      augmentation argument; and each epoch is a whole pass (no `steps_per_epoch`, or one that
      reads the data's own size: `len(ds)`), not a share of it that the next epoch goes on from.

    A fine-tuning stage later in the file (the base unfrozen, compiled and fitted again) is not
    this fit: the first stage's finding stands. Not reported: random augmentation before the base
    (`RandomFlip`, a `data_augmentation` model, a random `map`, an augmenting
    `ImageDataGenerator`), a base that trains or is unfrozen before the fit, data of unknown
    origin (a Python generator, a parameter).

    Opt-in until the real-world benchmark has judged its findings.

    ## Why is this bad?
    Feature extraction without augmentation (Keras' transfer-learning guide, Chollet's *Deep
    Learning with Python*): the base's output on a sample is the same in every epoch, and the
    base's forward pass is usually most of each step, since the head is a pooling and a dense
    layer. Running the base once over the data (`base.predict(x)`, or `dataset.map(base)` then
    `.cache()`) and fitting the head on those features for the epochs costs one forward pass of
    the base instead of one per epoch: (epochs − 1)/epochs of its work saved, the validation
    data's passes alike. The features must fit in memory or on disk: samples × the base's output
    per sample (a ResNet50's 7×7×2048 floats are 401 kB an image; pooled first, 8 kB).

    ## Example
    ```python
    import tensorflow as tf

    base = tf.keras.applications.ResNet50(include_top=False, input_shape=(224, 224, 3))
    base.trainable = False
    model = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(x, y, epochs=20)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    base = tf.keras.applications.ResNet50(include_top=False, input_shape=(224, 224, 3))
    features = base.predict(x)  # once
    head = tf.keras.Sequential([tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
    head.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    head.fit(features, y, epochs=20)
    ```

    ## Energy evidence
    None measured: the saving is the base's forward passes of every epoch after the first; the
    message prices them as their share of the fit's figure where the analysis knows the FLOPs of
    the base and of the training step.

    ## Fix safety
    No automatic fix: the head becomes a model of its own, fitted on the features.

    ## Options
    - `material-saving-j`
    """

    code = "GL532"
    name = "frozen-base-recomputed-each-epoch"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    CALLS = frozenset({"fit"})
    MENTIONS = ("trainable", "KerasLayer")  # a frozen base: `base.trainable = False`, or hub's layer
    OPTIONS = (SAVING_OPTION,)
    MESSAGE = (
        "`{call}` trains only the layers after `{base}`, a frozen{application} base that runs first on data that is"
        " the same every epoch ({data}): each of its {epochs} epochs runs the base's forward pass again on the same"
        " samples; run the base once over the data ({run}) and fit the head on its features: {saved} of the base's"
        " forward work saved{flops}{price}{size}"
    )
    FIX_TITLE = "Compute the frozen base's features once and fit the head on them"
    VALID = (
        Valid(STACK.format(data="x, y", epochs=1)),  # one epoch: each sample through the base once anyway
        Valid(  # random augmentation before the base: other images every epoch
            STACK.format(data="x, y", epochs=10).replace(
                "tf.keras.layers.Rescaling(1 / 255.0)", "tf.keras.layers.RandomFlip('horizontal')"
            )
        ),
        Valid(  # a Sequential whose first layer added is a random augmentation
            STACK.format(data="x, y", epochs=20).replace(
                "model = tf.keras.Sequential([tf.keras.layers.Rescaling(1 / 255.0), base,"
                " tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])\n",
                "model = tf.keras.Sequential()\nmodel.add(tf.keras.layers.RandomZoom(0.2))\nmodel.add(base)\n"
                "model.add(tf.keras.layers.Dense(10))\n",
            ),
        ),
        Valid(ADDED),  # priced, and under `material-saving-j`: the fake predictor's fit of 500 J saves too little
        Valid(  # not frozen: the base trains with the head
            STACK.format(data="x, y", epochs=10).replace("base.trainable = False\n", "")
        ),
        Valid(  # unfrozen again before the fit (a fine-tuning stage): the base's output changes as it trains
            STACK.format(data="x, y", epochs=10).replace(
                "model.fit(", "base.trainable = True\nmodel.compile(optimizer='adam', loss='mse')\nmodel.fit("
            )
        ),
        Valid(  # its last layers unfrozen before the compile: they train, the base's output changes
            STACK.format(data="x, y", epochs=10).replace(
                "model.compile(", "for layer in base.layers[-20:]:\n    layer.trainable = True\nmodel.compile("
            )
        ),
        Valid(  # frozen after the compile: Keras 2 still trains the base
            STACK.format(data="x, y", epochs=10)
            .replace("base.trainable = False\n", "")
            .replace("model.fit(", "base.trainable = False\nmodel.fit(")
        ),
        Valid(  # frozen under a condition: which stage runs is not known
            STACK.format(data="x, y", epochs=10).replace("base.trainable = False", "if freeze:\n    base.trainable = False")
        ),
        Valid(  # frozen under a condition, inside a `with` block: the `with` hides no condition around it
            STACK.format(data="x, y", epochs=10).replace(
                "base.trainable = False", "if freeze:\n    with tf.device('/gpu:0'):\n        base.trainable = False"
            )
        ),
        Valid(  # data from a Python generator: what it yields each epoch is not known
            STACK.format(data="batches()", epochs=10)
        ),
        Valid(  # a dataset mapped with a random augmentation: other images every epoch
            STACK.format(data="ds", epochs=10).replace(
                "model = ", "ds = tf.data.Dataset.from_tensor_slices((x, y)).map(augment).batch(32)\nmodel = "
            )
        ),
        Valid(  # a functional model with a data_augmentation model before the base
            GRAPH.format(app="ResNet50", first="data_augmentation(inputs)", training=", training=False").replace(
                "inputs = ",
                "data_augmentation = tf.keras.Sequential([tf.keras.layers.RandomFlip('horizontal')])\ninputs = ",
            )
        ),
        Valid(  # EfficientNet called in training mode: its blocks drop at random, other features every epoch
            GRAPH.format(app="EfficientNetB0", first="inputs", training="")
        ),
        Valid(  # the base is not the first computation: a trained layer before it changes its input every step
            GRAPH.format(app="ResNet50", first="tf.keras.layers.Conv2D(3, 1)(inputs)", training=", training=False")
        ),
        Valid(  # a tenth of the batches each epoch: the epochs go on over other samples, none recomputed
            GRAPH.format(app="ResNet50", first="inputs", training=", training=False").replace(
                "epochs=5)", "epochs=3, steps_per_epoch=int(0.1 * len(train)))"
            )
        ),
        Valid(HUB.format(augment="rescale=1 / 255.0", trainable="trainable=True, ")),  # a hub layer that trains
        Valid(  # an ImageDataGenerator that augments: other images every epoch
            HUB.format(augment="rescale=1 / 255.0, horizontal_flip=True", trainable="")
        ),
    )
    INVALID = (
        Invalid(
            STACK.format(data="x, y", epochs=20),
            line=9,
            message_contains="trains only the layers after `base`, a frozen ResNet50 base",
        ),
        Invalid(  # a fine-tuning stage later in the file does not change the first stage's fit
            STACK.format(data="x, y", epochs=20)
            + "base.trainable = True\nmodel.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, epochs=5)\n",
            line=9,
        ),
        Invalid(  # a deterministic dataset: shuffled each epoch, the same images
            STACK.format(data="ds", epochs=10).replace(
                "model = ",
                "ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (tf.cast(a, tf.float32), b))\n"
                "ds = ds.shuffle(1000).batch(32).prefetch(tf.data.AUTOTUNE)\nmodel = ",
            ),
            line=11,
            message_contains="9/10 of the base's forward work saved",
        ),
        Invalid(  # a dataset mapped with a rescaling layer the file makes
            GRAPH.format(app="ResNet50", first="inputs", training=", training=False").replace(
                "base = ",
                "norm = tf.keras.layers.Rescaling(1 / 255.0)\ntrain = train.map(lambda x, y: (norm(x), y)).cache()\nbase = ",
            ),
            line=14,
        ),
        Invalid(  # functional, `preprocess_input` first, EfficientNet in inference mode
            GRAPH.format(
                app="EfficientNetB0",
                first="tf.keras.applications.efficientnet.preprocess_input(inputs)",
                training=", training=False",
            ),
            line=12,
            message_contains="a frozen EfficientNetB0 base",
        ),
        Invalid(  # a Sequential built with `add`
            ADDED,
            line=12,
            message_contains="19/20 of the base's forward work saved, ",
            options={"material-saving-j": 0.0},  # the fake predictor's 500 J fit: any saving counts
        ),
        Invalid(  # the model built from the base's own input and output: the base runs first
            "import numpy as np\n"
            "import tensorflow as tf\n"
            "x = np.load('x.npy')\n"
            "base = tf.keras.applications.VGG16(include_top=False, input_shape=(150, 150, 3))\n"
            "base.trainable = False\n"
            "h = tf.keras.layers.Flatten()(base.output)\n"
            "model = tf.keras.Model(base.input, tf.keras.layers.Dense(1, activation='sigmoid')(h))\n"
            "model.compile(optimizer='rmsprop', loss='binary_crossentropy')\n"
            "model.fit(x, np.load('y.npy'), epochs=30, batch_size=20)\n",
            line=9,
            message_contains="a frozen VGG16 base",
        ),
        Invalid(  # a hub layer, frozen by default, in a model a function of the file builds; a rescaling flow,
            # each epoch all of its batches
            HUB.format(augment="rescale=1 / 255.0", trainable="").replace(
                "epochs=5)", "epochs=5, steps_per_epoch=len(flow))"
            ),
            line=10,
            message_contains="trains only the layers after `extractor`",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            epochs = site.work_value("epochs")
            if not (is_keras_model_method(site.api, ("fit",)) and type(epochs) is int and epochs >= 2):
                continue
            call = facts.node(site)
            cell = site.callsite.span.cell
            if call is None or not isinstance(call.func, ast.Attribute) or in_tests(facts, site):
                continue
            data = _fixed_data(facts, site, call, cell) if _whole_epochs(facts, call, cell) else None
            base = _frozen_base(facts, site, call, cell) if data is not None else None
            if data is None or base is None:
                continue
            share = (epochs - 1) / epochs
            saving = _saving(site, base, share)
            if saving is not None and immaterial_saving(saving[0], options):
                continue
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                self.MESSAGE.format(
                    call=f"{ast.unparse(call.func)}(...)",
                    base=base.name,
                    application=f" {base.application}" if base.application else "",
                    data=data,
                    epochs=epochs,
                    run=_run_once(base, data),
                    saved=f"{epochs - 1}/{epochs}",
                    flops=_flops(site, base, epochs),
                    price=f", {saving_clause(saving[0], saving[1], site.prediction.label)}" if saving else "",
                    size=_size(site, base),
                ),
            )


def _run_once(base: Base, data: str) -> str:
    """How the base runs once over the data: a cached map of a dataset, else a prediction."""
    if data == DATASET:
        return f"`dataset.map(lambda x, y: ({base.name}(x, training=False), y)).cache()`"
    model = f"tf.keras.Sequential([{base.name}])" if base.application == "hub.KerasLayer" else base.name
    return f"`features = {model}.predict(x)`"


def _saving(site: Site, base: Base, share: float) -> tuple[Joules, tuple[float, float]] | None:
    """The joules the change saves, with its share of the fit's figure: the base's forward FLOPs of
    every epoch but one against the step's FLOPs (forward and backward), where the analysis knows both."""
    forward, backward = site.work_value("flops_per_sample"), site.work_value("backward_flops_per_sample")
    if base.flops is None or not forward or backward is None or site.work_lower("flops_per_sample"):
        return None
    part = min(1.0, share * base.flops / (forward + backward))
    saving = saving_j([site], (part, part))
    return None if saving is None else (saving, (part, part))


def _flops(site: Site, base: Base, epochs: int) -> str:
    """` (9 × 1,000 samples × 4.1 GFLOPs)`: the forward work saved, where the samples and the base's FLOPs are known."""
    samples = site.work_value("samples")
    if base.flops is None or type(samples) is not int:
        return ""
    return f" ({epochs - 1} × {fmt_count(samples)} samples × {base.flops / 1e9:.3g} GFLOPs)"


def _size(site: Site, base: Base) -> str:
    """`; its features take 401 kB a sample (401 MB for the 1,000 samples)`, where the base's output shape is known."""
    if base.features is None:
        return ""
    each = math.prod(base.features) * FLOAT32
    samples = site.work_value("samples")
    total = f" ({fmt_bytes(each * samples)} for the {fmt_count(samples)} samples)" if type(samples) is int else ""
    shape = "×".join(map(str, base.features))
    return f"; its features take {fmt_bytes(each)} a sample ({shape} float32){total}"


# -- the data -----------------------------------------------------------------------------------
def _whole_epochs(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """Each epoch is a whole pass over the data: no `steps_per_epoch`, or one that reads the data's own
    size with no number in it (`len(ds)`, `ceil(flow.samples / flow.batch_size)`); a share of it
    (`int(0.1 * len(ds))`) goes on from where the last epoch stopped, over other samples."""
    steps = argument(call, "steps_per_epoch")
    if steps is None:
        return True
    given = argument(call, "x", 0)
    value = _resolved(facts, steps, call, cell) if isinstance(steps, ast.Name) else steps
    nodes = list(ast.walk(value)) if value is not None else []
    return (
        isinstance(given, ast.Name)
        and any(isinstance(n, ast.Name) and n.id == given.id for n in nodes)
        and not any(isinstance(n, ast.Constant) and type(n.value) in (int, float) for n in nodes)
    )


def _fixed_data(facts: FileFacts, site: Site, call: ast.Call, cell: int | None) -> str | None:
    """How the fit's data is the same every epoch ("arrays", "a dataset with no random map", "an
    ImageDataGenerator flow without augmentation"); None where it may change or is not known."""
    if site.features.get("input_kind") == "arrays":
        return "arrays"
    given = argument(call, "x", 0)
    chain = _resolved(facts, given, call, cell)
    methods: list[ast.Call] = []
    while isinstance(chain, ast.Call) and isinstance(chain.func, ast.Attribute) and chain.func.attr in KEEPS | {"map"}:
        methods.append(chain)
        chain = _resolved(facts, chain.func.value, chain, cell)
    if not isinstance(chain, ast.Call) or not all(_keeps(facts, m, cell) for m in methods):
        return None
    if not methods and _api(facts, chain, cell).startswith("numpy."):  # `np.load(...)`: an array
        return "arrays"
    source = last_name(chain.func)
    if source in SOURCES:
        return DATASET
    if source in FLOWS and isinstance(chain.func, ast.Attribute) and not methods:
        generator = _resolved(facts, chain.func.value, chain, cell)
        if (
            isinstance(generator, ast.Call)
            and last_name(generator.func) == "ImageDataGenerator"
            and not generator.args
            and not {k.arg for k in generator.keywords} & CHANGES
        ):
            return "an ImageDataGenerator flow without augmentation"
    return None


def _keeps(facts: FileFacts, method: ast.Call, cell: int | None) -> bool:
    """A dataset method that gives each element the same values on every pass: one of KEEPS, or a
    `map` of a lambda or a function of the file that calls only FIXED_MAPS."""
    if method.func.attr != "map":  # type: ignore[attr-defined]
        return True
    cell = _unit(facts, method, cell)
    functions = definitions(facts, map_function(method), cell)
    return len(functions) == 1 and all(
        last_name(n.func) in FIXED_MAPS or _preprocessing(facts, n.func, n, cell)
        for n in ast.walk(functions[0])
        if isinstance(n, ast.Call)
    )


# -- the model ----------------------------------------------------------------------------------
def _frozen_base(facts: FileFacts, site: Site, fit: ast.Call, cell: int | None) -> Base | None:
    """The frozen base the fitted model runs first on its input, after deterministic preprocessing
    alone and before at least one layer; None where the model or its base is not that."""
    receiver = fit.func.value  # type: ignore[attr-defined]
    made = _resolved(facts, receiver, fit, cell)
    unit = cell
    if isinstance(made, ast.Call) and not _model_call(made):  # `model = create_model(url)`
        made, unit = _returned(facts, made, cell)
    if not isinstance(made, ast.Call):
        return None
    unit = _unit(facts, made, unit)
    steps = _steps(facts, made, unit, _position(fit, cell))
    if steps is None:
        return None
    lead = next((i for i, (func, _) in enumerate(steps) if not _preprocessing(facts, func, made, unit)), None)
    if lead is None or lead == len(steps) - 1:
        return None  # no base, or nothing after it to train
    func, applied = steps[lead]
    maker = func if isinstance(func, ast.Call) else _resolved(facts, func, made, unit)
    if not isinstance(maker, ast.Call):
        return None
    api = _api(facts, maker, unit)
    application = api.rpartition(".")[2] if api.startswith("tensorflow.keras.applications.") else None
    application = "hub.KerasLayer" if api == HUB_LAYER else application
    if api == HUB_LAYER:
        if any(k.arg == "trainable" and not _literal_false(k.value) for k in maker.keywords):
            return None
    elif not (isinstance(func, ast.Name) and _frozen(facts, func.id, receiver, fit, made, cell, unit)):
        return None
    inference = applied is not None and any(k.arg == "training" and _literal_false(k.value) for k in applied.keywords)
    if not (inference or api == HUB_LAYER or (application and not _random_inside(application, maker))):
        return None
    next_step = steps[lead + 1]
    after = facts.site_at(next_step[1] if next_step[1] is not None else next_step[0], unit)
    shape = after.work_value("input_shape") if after is not None else None
    features = tuple(shape) if isinstance(shape, list) and all(type(d) is int for d in shape) else None
    flops = _flops_of(facts, applied, unit) if applied is not None else _rest_of(facts, site, steps, lead, made, unit)
    return Base(ast.unparse(func) if isinstance(func, ast.Name) else "hub.KerasLayer(...)", application,
                flops if flops is not None and flops > 0 else None, features)


def _flops_of(facts: FileFacts, node: ast.expr, cell: int | None) -> float | None:
    """The forward FLOPs per sample of the site at *node* (a layer applied, a layer made), None where not known."""
    site = facts.site_at(node, _unit(facts, node, cell))
    flops = site.work_value("flops_per_sample") if site is not None and not site.work_lower("flops_per_sample") else None
    return flops if isinstance(flops, (int, float)) and not isinstance(flops, bool) else None


def _rest_of(
    facts: FileFacts, fit: Site, steps: list[tuple[ast.expr, ast.Call | None]], lead: int, made: ast.Call,
    cell: int | None,
) -> float | None:
    """A `Sequential`'s base's forward FLOPs per sample: the fitted model's less its other layers', each known."""
    total = _flops_of(facts, facts.node(fit), fit.callsite.span.cell)  # type: ignore[arg-type]
    others = [_flops_of(facts, f if isinstance(f, ast.Call) else _resolved(facts, f, made, cell), cell)  # type: ignore[arg-type]
              for i, (f, _) in enumerate(steps) if i != lead]
    if total is None or None in others:
        return None
    return total - sum(others)  # type: ignore[arg-type]


def _random_inside(application: str, maker: ast.Call) -> bool:
    """A Keras Application that draws at random inside when run in training mode."""
    top = not any(k.arg == "include_top" and _literal_false(k.value) for k in maker.keywords)
    return application.startswith(RANDOM_BODY) or (top and application in RANDOM_TOP)


def _model_call(call: ast.Call) -> bool:
    return last_name(call.func) in ("Sequential", "Model")


def _steps(
    facts: FileFacts, made: ast.Call, cell: int | None, before: Position
) -> list[tuple[ast.expr, ast.Call | None]] | None:
    """The model's computations on its input in order, each as (the callable, the call applying it
    in a functional graph, None for a `Sequential`'s item: listed, or added before *before*); None
    where they are not one chain."""
    if last_name(made.func) == "Sequential":
        layers = argument(made, "layers", 0)
        if layers is None:
            return _added(facts, made, cell, before)
        return [(item, None) for item in layers.elts] if isinstance(layers, ast.List) else None
    inputs, outputs = argument(made, "inputs", 0), argument(made, "outputs", 1)
    steps: list[tuple[ast.expr, ast.Call | None]] = []
    node = outputs
    for _ in range(64):
        if isinstance(node, ast.Name) and inputs is not None and ast.unparse(inputs) == node.id:
            return steps[::-1]
        if isinstance(node, ast.Name):
            node = _resolved(facts, node, node, cell)
        elif isinstance(node, ast.Call) and node.args:
            steps.append((node.func, node))
            node = node.args[0]
        elif isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant):
            steps.append((node, None))
            node = node.left
        elif (
            isinstance(node, ast.Attribute) and node.attr == "output" and isinstance(inputs, ast.Attribute)
            and inputs.attr == "input" and ast.unparse(inputs.value) == ast.unparse(node.value)
        ):  # `Model(base.input, head(base.output))`: the base is the graph's first computation
            steps.append((node.value, None))
            return steps[::-1]
        else:
            return None
    return None


def _added(
    facts: FileFacts, made: ast.Call, cell: int | None, before: Position
) -> list[tuple[ast.expr, ast.Call | None]] | None:
    """The layers `model.add(layer)` puts on a `Sequential()` made empty, in order: the calls on the
    name it is bound to, in the scope that makes it, after it and before *before*; None where none."""
    name, scope = _returned_name(facts, made, cell), scope_of(facts, made, cell)
    units = cell_units(facts) if isinstance(scope, ast.Module) else [(cell, scope)]
    added = sorted(
        (_position(c, u), c.args[0])
        for u, _ in units
        for c in facts.nodes(u, ast.Call)
        if isinstance(c.func, ast.Attribute) and c.func.attr == "add" and isinstance(c.func.value, ast.Name)
        and c.func.value.id == name and len(c.args) == 1 and _position(made, cell) < _position(c, u) < before
        and (scope_of(facts, c, u) is scope or isinstance(scope, ast.Module) and isinstance(scope_of(facts, c, u), ast.Module))
    )
    return [(layer, None) for _, layer in added] if name and added else None


def _preprocessing(facts: FileFacts, func: ast.expr, made: ast.Call, cell: int | None) -> bool:
    """The step gives its input the same output every time and has no weights (PREPROCESSING, arithmetic)."""
    if isinstance(func, ast.BinOp):
        return True
    maker = func if isinstance(func, ast.Call) else _resolved(facts, func, made, cell)
    if isinstance(func, (ast.Attribute, ast.Name)) and not isinstance(maker, ast.Call):  # a function applied
        path = facts.imported_path(func, _unit(facts, func, cell)) or ast.unparse(func)
        return path.rpartition(".")[2] in PREPROCESSING
    return isinstance(maker, ast.Call) and last_name(maker.func) in PREPROCESSING | INPUTS


def _frozen(
    facts: FileFacts, name: str, receiver: ast.expr, fit: ast.Call, made: ast.Call, cell: int | None, unit: int | None
) -> bool:
    """`name.trainable = False` set last, outside any `if` or loop, in the scope that builds the model
    and before the model's last `compile` before the fit (Keras 2 reads it there), and nothing set
    trainable otherwise between there and the fit."""
    fit_at = _position(fit, cell)
    compiled = [
        _position(c, u)
        for u, _ in cell_units(facts)
        for c in facts.nodes(u, ast.Call)
        if isinstance(c.func, ast.Attribute) and c.func.attr == "compile"
        and ast.unparse(c.func.value) in (ast.unparse(receiver), _returned_name(facts, made, unit))
        and _position(c, u) < fit_at
    ]
    limit = max(compiled, default=fit_at)
    freezes = [
        (position, node)
        for position, node in _assignments(facts, scope_of(facts, made, unit), unit)
        if position < limit and _sets_trainable(node) and ast.unparse(node.targets[0].value) == name  # type: ignore[attr-defined]
    ]
    if not freezes or not _literal_false(freezes[-1][1].value) or _guarded(facts, freezes[-1][1], freezes[-1][0][0] or None):
        return False
    frozen_at = freezes[-1][0]
    return not any(
        _sets_trainable(node) and not _literal_false(node.value) and frozen_at < _position(node, u) < fit_at
        for u, _ in cell_units(facts)
        for node in facts.nodes(u, ast.Assign)
    )


def _returned_name(facts: FileFacts, made: ast.Call, cell: int | None) -> str:
    """The name a function of the file binds the model it returns to ("" where the model is built in place)."""
    parent = facts.parent(made, cell)
    return parent.targets[0].id if isinstance(parent, ast.Assign) and isinstance(parent.targets[0], ast.Name) else ""


def _sets_trainable(node: ast.Assign) -> bool:
    return any(isinstance(t, ast.Attribute) and t.attr == "trainable" for t in node.targets)


def _literal_false(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is False


def _guarded(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """Under an `if`, a `try` or a loop in its scope (a `with` around it or around them decides
    nothing): it may not run, or run otherwise."""
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return False
        if isinstance(parent, (ast.If, ast.Try, ast.For, ast.While)):
            return True
    return False


# -- names and values ---------------------------------------------------------------------------
Position = tuple[int, int, int]


def _position(node: ast.AST, cell: int | None) -> Position:
    return (cell or 0, getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _assignments(facts: FileFacts, scope: ast.AST | None, cell: int | None) -> list[tuple[Position, ast.Assign]]:
    """The plain assignments of *scope* in order: a module's in every cell of a notebook."""
    if scope is None:
        return []
    if isinstance(scope, ast.Module):
        return facts.once(
            "frozen_base_module_assignments",
            lambda: sorted(
                ((_position(n, u), n) for u, _ in cell_units(facts) for n in facts.nodes(u, ast.Assign)
                 if isinstance(scope_of(facts, n, u), ast.Module)),
                key=lambda pair: pair[0],
            ),
        )
    found = [(_position(n, cell), n) for n in ast.walk(scope) if isinstance(n, ast.Assign)
             and scope_of(facts, n, cell) is scope]
    return sorted(found, key=lambda pair: pair[0])


def _unit(facts: FileFacts, node: ast.AST, cell: int | None) -> int | None:
    """The notebook cell a call, name or attribute of the file is written in (*cell* for another node)."""
    units = facts.once(
        "frozen_base_units",
        lambda: {id(n): u for u, _ in cell_units(facts) for n in facts.nodes(u, ast.Call, ast.Name, ast.Attribute)},
    )
    return units.get(id(node), cell)


def _resolved(facts: FileFacts, expr: ast.expr | None, at: ast.AST, cell: int | None) -> ast.expr | None:
    """The value a name holds where *at* is: its last plain assignment before it in its scope (a
    module's in the earlier cells of a notebook too), or, in a function or lambda that never binds
    it, in the scope around; anything else as it is."""
    if not isinstance(expr, ast.Name):
        return expr
    cell = _unit(facts, at, cell)
    for _ in range(8):  # scopes around scopes
        scope = scope_of(facts, at, cell)
        binds = [
            (position, node)
            for position, node in _assignments(facts, scope, cell)
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == expr.id
        ]
        before = [
            node.value
            for position, node in binds
            if (position[0], node.end_lineno or 0, node.end_col_offset or 0) <= _position(at, cell)  # done before *at*
        ]
        if before or binds or scope is None or isinstance(scope, ast.Module):
            return before[-1] if before else None
        at = scope
    return None


def _returned(facts: FileFacts, call: ast.Call, cell: int | None) -> tuple[ast.expr | None, int | None]:
    """(the model, the cell it is built in) a function of the file returns, called as *call*: its
    one `return` of a model built in it; (None, *cell*) otherwise."""
    located = [f for f in definitions(facts, call.func, cell) if isinstance(f, FUNCTIONS)]
    if len(located) != 1:
        return None, cell
    function = located[0]
    unit = next((u for u, f in facts.functions_named(function.name) if f is function), cell)
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return) and scope_of(facts, n, unit) is function]
    if len(returns) != 1 or returns[0].value is None:
        return None, cell
    made = _resolved(facts, returns[0].value, returns[0], unit)
    return (made, unit) if isinstance(made, ast.Call) and _model_call(made) else (None, cell)


def _api(facts: FileFacts, call: ast.Call, cell: int | None) -> str:
    """What a call makes, as the catalog names it; the import's path where the catalog has no site for it."""
    cell = _unit(facts, call, cell)
    site = facts.site_at(call, cell)
    return site.api if site is not None else facts.imported_path(call.func, cell) or ""

