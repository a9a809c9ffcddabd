"""GL201 predict-in-loop: `Model.predict()` called once per iteration of a Python loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.drivers import DRIVER, PER_ELEMENT, PER_ELEMENT_METHODS
from greenlint.predict.prediction import Basis
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.base_classes import FUNCTIONS, classes_named
from greenlint.rules.batch_price import START_UP_TIMED, call_start_up
from greenlint.rules.carried import carried
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.keras_flavour import keras_flavour
from greenlint.rules.material import (
    MIN_SHARE,
    SAVING_OPTION,
    immaterial_overhead,
    immaterial_work,
    repeated_cost,
)
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import (
    LOOPS,
    last_name,
    loop_varying,
    own_body,
    own_loops,
    shows_each_pass,
    times_each_call,
    trains,
)
from greenlint.rules.tiny_steps import rows_known, tiny_step

#: A base class whose method calls `self.step` once per pass of its loop (a decoder's search).
DECODER = (
    "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nclass Decoder:\n"
    "    def search(self, x):\n        for step in range(32):\n            x = self.step(x)\n        return x\n"
)


#: A tf.keras GAN's loop: each pass draws a batch of noise, predicts fakes from it, and trains on them.
GAN = (
    "import numpy as np\nimport tensorflow as tf\n"
    "generator = tf.keras.Sequential([tf.keras.layers.Dense(784, input_shape=(100,))])\n"
    "discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(784,))])\n"
    "discriminator.compile(optimizer='adam', loss='binary_crossentropy')\n"
    "for step in range(30000):\n    noise = np.random.normal(0, 1, (32, 100))\n"
    "    fakes = generator.predict(noise)\n    discriminator.train_on_batch(fakes, np.zeros((32, 1)))\n"
)


#: A model of standalone `keras`, which Keras not said, with layers `{layers}`, predicting once per state.
STANDALONE = (
    "from keras.models import Sequential\nfrom keras.layers import Dense\nmodel = Sequential()\n{layers}"
    "model.compile(loss='mse', optimizer='adam')\nfor state in states:\n    q = model.predict(state)\n"
)


class PredictInLoop(Rule):
    """
    ## What it does
    Flags `Model.predict()` (also on `Sequential` and on user subclasses of `Model`) called
    inside a Python `for` or `while` loop that repeats it on the same model (the inputs may
    differ). A receiver greenlint cannot type (a model passed in as a parameter, or set as an
    attribute from one) counts when the code shows it is a Keras model: the call passes an
    argument only Keras' `predict` takes (`verbose`, `batch_size`, `steps`, `callbacks`, ...), or
    the same receiver, in the same function (its class for `self.model`), calls a method or
    reads an attribute only a Keras model has (`compile`, `summary`, `load_weights`,
    `predict_on_batch`, `layers`, ...). The loop may be a base class's: the call is in a method
    of a class whose base (defined in the file, or in a module of the project the file imports
    it from) calls that method as `self.<method>(...)` in a loop of one of its own methods, one
    the class does not override (a template method: an autoregressive decoder's `beam_search`
    calls the subclass's `predict` once per generated token); there a receiver that a method of
    the base builds as a Keras `Model(...)` (`self.last_token(model).predict(...)`) counts as
    Keras's. Where each call is given what the previous one returned (an autoregressive
    forecast, a generated word joined to the prompt: the result flows into the next call's
    input), the calls cannot be batched, and the message says so: calling the model directly
    avoids the fixed overhead. Where the loop around the call also runs a training step and gives the
    call a batch it draws on each pass (a GAN's loop predicting fakes from fresh noise, then training
    on them), each call predicts with the weights the steps before it left, so the calls cannot be
    merged either: the message says so and proposes `predict_on_batch` or the direct call, one batch
    per call as before (a fixed input each pass, such as a validation set, keeps the plain message:
    predict() may split it into batches). The builtin `map` given a function that predicts
    (`list(map(score, rows))`, a lambda too) calls it once per element of its iterable, as a loop
    would, and so do pandas' `apply`/`map` and a pool's `map` (`df["text"].apply(score)`)
    (analysis/drivers.py: the driver's call is the site, counted as the iterable's length where
    that is known); the message names the driver. The message prices that overhead: each call's start-up on the
    reference machine (the bundled inference time model's fixed term, `t0`), and what it adds
    up to where the runs are counted, saying where it was timed (FECoM's 2023 workstation, not the
    reader's machine, where a call's start-up may take a fraction of it). Not reported: calls whose runs are counted and whose whole
    figure stays under `material-saving-j` (10 kJ) at its point (the predictor's median)
    (greenlint/rules/material.py: ten forecasting calls of a textbook cell); calls whose
    start-ups add up to under `MIN_SAVING_S` (a second) or under `material-saving-j` over their
    counted runs (what the change saves must itself be material: a hundred calls of a textbook
    forecast save some 260 J, however long each call's work); calls whose
    start-up is under `MIN_SHARE` (a tenth) of their own figure even at its low end (Monte Carlo
    dropout's passes over a validation set of known size: the start-up batching saves is a
    sliver beside each pass's compute; a figure whose data size is unknown says nothing of this
    share, and is reported); test code; a loop over different models (`for name in names:
    load_model(name).predict(x)`), a loop of one trip (`ds.take(1)`), a function merely
    called from several places, and an untyped receiver with no such sign (scikit-learn's
    estimators have a `predict` too); a program on multi-backend Keras 2.0-2.3
    (rules/keras_flavour.py: the standalone `keras` with `fit_generator` or `keras_contrib` in
    the file, a project module it imports or a module beside it), whose `predict` feeds a
    session the function it built on the first call: its per-call overhead is a few
    milliseconds of slicing and `Session.run`, not the start-up of TF2's `predict` the message
    prices (blind-judged false on three such programs' demo and sample loops); a program on the
    standalone `keras` whose code says nothing of its version (none of those signs, and tf.keras
    never imported: multi-backend Keras 2.0-2.3, tf.keras 2.4-2.15 under another name or Keras 3
    may run it), where the per-call overhead spans a session run to TF2's start-up, two orders of
    magnitude, unless the model is tiny (a batch of it at most 10^6 FLOPs, rules/tiny_steps.py):
    whichever Keras runs it, its per-call overhead outweighs that work, and the message gives both
    (blind-judged false on two GAN scripts of Keras 2.2, whose three training steps a pass dwarf a
    session run, and true on DQN agents' 4-24-24-2 MLPs); a loop that
    times each call (a clock read before and after it) and throws its result away (a statement
    of its own, or bound to a name the loop never reads): a benchmark of `predict` itself. Where the loop times each call and uses what it returns (a video demo
    showing its frame rate beside the boxes it draws), or shows each pass's result to a person as it
    comes (`cv2.imshow` on every pass: a webcam demo redrawing its window per frame; or a loop that
    waits for a key or `input()` each pass), one item per call is the loop's point: a frame cannot
    wait for later ones to be batched with it, so the message proposes `predict_on_batch` (or, for a
    small model, the direct call: a large one, such as an EfficientNet, runs slower eagerly than
    traced) alone, which keeps one item per call and drops the start-up.

    ## Why is this bad?
    `predict()` is built for large inputs: every call builds or looks up a prediction
    function, wraps its input in a `tf.data` pipeline, runs the batch loop and its callbacks,
    and converts the result to NumPy. Called once per sample or per small batch inside a loop,
    that fixed overhead is paid on every iteration, and it can dwarf the arithmetic of the
    model itself. The Keras documentation of `Model.predict` says so: it "is designed for batch
    processing of large numbers of inputs"; for small inputs that fit in one batch, call the
    model directly (`model(x, training=False)`) "for faster execution". Time spent on overhead
    is energy spent on overhead; the saving is qualitative here (greenlint has no paired
    measurement of the two forms), the per-call figures below are measured.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.models.load_model("model.keras")
    scores = []
    for image in images:
        scores.append(model.predict(image[None, ...]))
    ```

    ## Use instead
    Stack the inputs and make one call, or call the model directly on small inputs:
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("model.keras")
    scores = model.predict(np.stack(images), batch_size=64)
    ```

    ## Energy evidence
    Measured per-call net energy of `predict()` in the bundled knowledge base, as generated
    when these docs were built (every loop iteration pays it again):

    ## Fix safety
    No automatic fix: batching changes the program's structure and memory use.

    ## Options
    - `material-saving-j`
    """

    code = "GL201"
    OPTIONS = (SAVING_OPTION,)
    name = "predict-in-loop"
    CALLS = frozenset({"predict"})
    MESSAGE = "`{api}` is called inside a loop{times}: each call pays predict()'s fixed overhead{price}"
    MAPPED = (
        "`{api}` is called by `{driver}` once per element of what it is given{times}: each call pays predict()'s"
        " fixed overhead{price}"
    )
    CARRIED = (
        "`{api}` is called inside a loop{times} on what its previous call returned, so the calls cannot be batched:"
        " each pays predict()'s fixed overhead{price}, which calling the model directly (`model(x, training=False)`)"
        " avoids"
    )
    ONE_PER_PASS = (
        "`{api}` is called inside a loop{times} that {why}: each pays predict()'s fixed overhead{price},"
        " which `predict_on_batch` (its traced prediction on the one batch given, without predict()'s data"
        " adapter and loop), or for a small model a direct call (`model(x, training=False)`), avoids, one item"
        " per call as before"
    )
    TRAINED = (
        "`{api}` is called inside a loop{times} that also runs a training step, each call on an input made that"
        " pass: each predicts with the weights the steps before it left, so the calls cannot be merged into one;"
        " each pays predict()'s fixed overhead{price}, which `predict_on_batch` (its traced prediction on the one"
        " batch given, without predict()'s data adapter and loop) or a direct call (`model(x, training=False)`)"
        " avoids, one batch per call as before"
    )
    FIX_TITLE = (
        "Stack the items into one predict() call where they are all at hand; where they come one at a time,"
        " use predict_on_batch or call the model directly"
    )
    EVIDENCE_APIS = ("tensorflow.keras.Sequential.predict", "tensorflow.keras.Model.predict")
    VALID = (
        Valid(  # a latency measurement: each call timed on its own
            "import time\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for x in rows:\n    t = time.perf_counter()\n    model.predict(x[None])\n    took.append(time.perf_counter() - t)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a benchmark of predict itself: each call timed, its result bound to a name the loop never reads
            "import time\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for x in rows:\n    t = time.perf_counter()\n    preds = model.predict(x[None])\n    took.append(time.perf_counter() - t)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # multi-backend Keras 2 (standalone `keras`, trained with `fit_generator`): a session run per call
            "from keras.models import load_model\nmodel = load_model('m.h5')\n"
            "model.fit_generator(batches, steps_per_epoch=100)\nfor x in rows:\n    model.predict(x[None])\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the standalone `keras` alone does not say which Keras runs it: a session run or tf.keras's
            # start-up per call, beside a loaded model of unknown size
            "from keras.models import load_model\nmodel = load_model('m.h5')\n"
            "model.fit(x, y, epochs=3)\nfor x in rows:\n    model.predict(x[None])\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # standalone `keras` of no known version: predict's overhead is a session run of a millisecond or
            # 199 ms of start-up, and a 100-1024-784 generator's batch (58 MFLOPs) may outweigh the first
            STANDALONE.format(layers="model.add(Dense(1024, input_dim=100))\nmodel.add(Dense(784))\n")
        ),
        Valid(  # ten calls, counted: their whole figure stays under material-saving-j, whatever they cost in overhead
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for step in range(10):\n    y = model.predict(x[:, step:])[:, None]\n    x = np.concatenate([x, y], axis=1)\n"
        ),
        Valid(
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nscores = model.predict(batch)\n"
        ),
        Valid(  # three calls: their start-ups add up to under a second, however little the saving must reach
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(3):\n    model.predict(data[i:i + 1])\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for x in inputs:\n"
            "    y = model(x, training=False)\n"
        ),
        Valid("for x in inputs:\n    clf.predict(x)\n"),
        Valid(  # an untyped receiver with no sign of Keras: may be a scikit-learn estimator
            "import tensorflow as tf\ndef score(clf, rows):\n    for row in rows:\n        clf.predict(row)\n"
        ),
        Valid(  # a Keras-only method on another receiver says nothing of this one
            "import tensorflow as tf\n"
            "def score(clf, net, rows):\n"
            "    net.summary()\n"
            "    for row in rows:\n"
            "        clf.predict(row)\n"
        ),
        Valid(  # a helper called from two cells runs twice, in no loop
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "def show(x):\n"
            "    return model.predict(x)\n"
            "show(a)\n"
            "show(b)\n"
        ),
        Valid(  # a different model each iteration: nothing to batch
            "import tensorflow as tf\n"
            "for name in ['a.keras', 'b.keras']:\n"
            "    model = tf.keras.models.load_model(name)\n"
            "    model.predict(x)\n"
        ),
        Valid(  # one batch
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for images, labels in ds.take(1):\n"
            "    model.predict(images)\n"
        ),
        Valid(  # the base class calls the subclass's method once, in no loop
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "class Runner:\n"
            "    def run(self, x):\n"
            "        return self.step(x)\n"
            "class Scorer(Runner):\n"
            "    def step(self, x):\n"
            "        return model.predict(x)\n"
        ),
        Valid(  # `map` over two arrays: two calls, whose start-ups add up to under a second
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "def score(x):\n    return model.predict(x)\n"
            "train_scores, test_scores = map(score, [x_train, x_test])\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # pandas' `apply` encodes each row; one predict over the stacked rows
            "import numpy as np\nimport pandas as pd\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "df = pd.read_csv('rows.csv')\nfeatures = df['text'].apply(encode)\nscores = model.predict(np.stack(features))\n"
        ),
        Valid(  # `map` of a function that calls no model
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "rows = list(map(np.load, paths))\nscores = model.predict(np.stack(rows))\n"
        ),
        Valid(  # the subclass overrides the base's loop with one call
            DECODER + "class Once(Decoder):\n"
            "    def search(self, x):\n"
            "        return self.step(x)\n"
            "    def step(self, x):\n"
            "        return model.predict(x)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for x in inputs:\n"
            "    y = model.predict(x)\n",
            line=4,
        ),
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "for i in range(100):\n"
            "    model.predict(data[i:i + 1])\n",
            line=4,
            message_contains="(100 times)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "for step in range(10000):\n"
            "    if step % 100 == 0:\n"
            "        model.predict(sample)\n",
            line=5,
            message_contains="(at most 100 times)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a helper called from a loop runs in that loop
            "import tensorflow as tf\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "def score(x):\n"
            "    return model.predict(x)\n"
            "for i in range(30):\n"
            "    score(data[i])\n",
            line=4,
            message_contains="(30 times)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an autoregressive forecast: each call is given what the previous one returned
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for step in range(10):\n    y = model.predict(x[:, step:])[:, None]\n    x = np.concatenate([x, y], axis=1)\n",
            line=5,
            message_contains="on what its previous call returned, so the calls cannot be batched",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # text generation: the word chosen from the prediction, under a test, joins the next input
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for _ in range(100):\n    tokens = pad([encode(text)])\n    predicted = np.argmax(model.predict(tokens))\n"
            "    for word, index in vocab.items():\n        if index == predicted:\n            out = word\n"
            "    text += ' ' + out\n",
            line=6,
            message_contains="cannot be batched",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: the predictions are collected, never fed back: one batched call does it
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "preds = []\nfor x in rows:\n    preds.append(model.predict(x[None]))\n    x = preds[-1]\n",
            line=6,
            message_contains=": each call pays predict()'s fixed overhead",
        ),
        Invalid(  # near miss: each pass reads a new frame before drawing the result on it: nothing carried over
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nfor i in range(nb_frames):\n"
            "    ok, frame = reader.read()\n    boxes = model.predict(frame[None])\n    frame = draw(frame, boxes)\n",
            line=5,
            message_contains=": each call pays predict()'s fixed overhead",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a video demo timing each frame's call to show its rate, and drawing what the call returned
            "import time\nimport cv2\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "capture = cv2.VideoCapture(path)\nwhile True:\n    ok, frame = capture.read()\n"
            "    batch = tf.expand_dims(frame, 0)\n    t1 = time.time()\n    boxes = model.predict(batch)\n"
            "    t2 = time.time()\n    frame = draw(frame, boxes, t2 - t1)\n    cv2.imshow('out', frame)\n",
            line=10,
            message_contains="that times each call: each pays predict()'s fixed overhead",
        ),
        Invalid(  # a webcam demo showing each frame's faces as they come: no frame can wait to be batched; the frame
            # redrawn from the prediction under a test is read afresh at the top of the next pass (nothing carried)
            "import cv2\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "capture = cv2.VideoCapture(0)\nwhile True:\n    ok, frame = capture.read()\n    faces = crop(frame)\n"
            "    if len(faces) > 0:\n        ages = model.predict(faces)\n        frame = draw(frame, ages)\n"
            "    cv2.imshow('result', frame)\n    if cv2.waitKey(30) == 27:\n        break\n",
            line=9,
            message_contains="that shows each pass's result to a person as it comes: each pays predict()'s fixed",
        ),
        Invalid(  # near miss: the window shown only when asked; the frames read from a file may be batched
            "import cv2\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "capture = cv2.VideoCapture('in.mp4')\nfor i in range(n_frames):\n    ok, frame = capture.read()\n"
            "    boxes = model.predict(frame[None])\n    if show:\n        cv2.imshow('result', draw(frame, boxes))\n",
            line=7,
            message_contains="is called inside a loop: each call pays",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: a plot drawn with pyplot's imshow on each pass is no live window shown as it comes
            "import matplotlib.pyplot as plt\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i, image in enumerate(images):\n    label = model.predict(image[None]).argmax()\n"
            "    plt.subplot(4, 4, i + 1)\n    plt.imshow(image)\n    plt.title(label)\n",
            line=5,
            message_contains="is called inside a loop: each call pays",
        ),
        Invalid(  # `map` calls the lambda, and its predict, once per path of a list read at run time
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "paths = open('list.txt').read().split()\n"
            "labels = list(map(lambda p: model.predict(np.load(p)[None]).argmax(), paths))\n",
            line=5,
            message_contains="is called by `map` once per element of what it is given: each call pays",
        ),
        Invalid(  # pandas' `apply` calls the lambda, and its predict, once per row of the column
            "import pandas as pd\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "df = pd.read_csv('reviews.csv')\n"
            "df['score'] = df['text'].apply(lambda t: float(model.predict(encode(t))[0]))\n",
            line=5,
            message_contains="is called by `.apply` once per element of what it is given",
        ),
        Invalid(  # `map` over an array of known length calls the helper once per row
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "def score(row):\n    return model.predict(row[None])\n"
            "scores = list(map(score, np.zeros((5000, 8))))\n",
            line=6,
            message_contains="once per element of what it is given (5,000 times)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # standalone `keras` of no known version, but a 4-24-2 MLP: any Keras' per-call overhead outweighs it
            STANDALONE.format(layers="model.add(Dense(24, input_dim=4, activation='relu'))\nmodel.add(Dense(2))\n"),
            line=8,
            message_contains="with tf.keras; a session run with multi-backend Keras 2.0-2.3, which a standalone `keras`"
            " may be: either way more than the model's work (at most 9,984 FLOPs a batch)",
        ),
        Invalid(  # the same MLP stepped on one state at a time: one row a batch, not Keras' default 32
            STANDALONE.format(layers="model.add(Dense(24, input_dim=4, activation='relu'))\nmodel.add(Dense(2))\n")
            .replace("model.predict(state)", "model.predict(np.array([state]))").replace("from", "import numpy as np\nfrom", 1),
            line=9,
            message_contains="either way more than the model's work (312 FLOPs a batch)",
        ),
        Invalid(  # a GAN's loop trains between the calls, each on an input made that pass: not mergeable
            GAN,
            line=8,
            message_contains="inside a loop (30,000 times) that also runs a training step, each call on an input made",
        ),
        Invalid(  # a model given as a parameter, Keras's by the argument only Keras takes
            "import tensorflow as tf\n"
            "def evaluate(model, data):\n"
            "    for x, y in data:\n"
            "        y_pred = model.predict(x, verbose=0).argmax(axis=1)\n",
            line=4,
        ),
        Invalid(  # an attribute set from a parameter, Keras's by what its class does with it
            "import tensorflow as tf\n"
            "class Detector:\n"
            "    def __init__(self, net):\n"
            "        self.net = net\n"
            "        self.net.load_weights('w.h5')\n"
            "    def run(self, frames):\n"
            "        return [self.net.predict(f) for f in frames]\n",
            line=7,
        ),
        Invalid(  # a template method: the base class loops, once per generated token, over the step the subclass gives
            DECODER + "class Titler(Decoder):\n    def step(self, x):\n        return model.predict(x)\n",
            line=10,
            message_contains="of `Decoder.search`, which calls `self.step` on every pass",
        ),
        Invalid(  # the receiver is the Keras model a method of the base builds
            "import tensorflow as tf\n"
            "class Decoder:\n"
            "    def head(self, model):\n"
            "        return tf.keras.Model(model.inputs, model.outputs[-1])\n"
            "    def search(self, x):\n"
            "        for step in range(32):\n"
            "            x = self.step(x)\n"
            "        return x\n"
            "class Titler(Decoder):\n"
            "    def step(self, x):\n"
            "        return self.head(net).predict(x)\n",
            line=11,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        flavour = None
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("predict",)):
                continue
            driver = None if site.repeats(same=("receiver",)) else _base_loop(facts, site)
            keras = not site.untyped or _shows_keras(facts, site) or driver is not None and driver[2]
            if not keras or immaterial_work(facts, site, options):  # `clf.predict(x)` may be scikit-learn's
                continue
            if flavour is None:
                flavour = keras_flavour(facts)
            if flavour.multi_backend or flavour.unknown and tiny_step(site) is None:
                continue
            timed = _timed(facts, site)
            if timed is not None and _discarded(facts, site, timed):  # a benchmark of predict itself
                continue
            price = call_start_up("inference")
            if price is not None and _minor_start_up(facts, site, price, options):
                continue
            why = "times each call" if timed is not None else _shown(facts, site)
            call = facts.node(site)
            mapped = _per_element(facts, site)
            if mapped:
                times = site.loop_times()
            elif driver is None and site.repeats(same=("receiver",)):
                times = site.loop_times()
            elif driver is not None:
                times = f" of `{driver[0]}`, which calls `self.{driver[1]}` on every pass"
            else:
                continue
            serial = call is not None and carried(facts, call, site.callsite.span.cell)
            trained = not (mapped or serial or why) and driver is None and _trains_between(facts, site)
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                (
                    self.MAPPED
                    if mapped
                    else self.CARRIED
                    if serial
                    else self.TRAINED
                    if trained
                    else self.MESSAGE
                    if why is None
                    else self.ONE_PER_PASS
                ).format(
                    api=site.api,
                    times=times,
                    price="" if price is None else _price(site, price, flavour.unknown),
                    why=why,
                    driver=mapped,
                ),
                energy_j=site.total_energy_j,
            )


def _per_element(facts: FileFacts, site: Site) -> str | None:
    """The driver calling, once per element of what it is given, the function whose predict the site
    lists (analysis/drivers.py): `map`, or `.apply` of `df["text"].apply(score)`; None for any other site."""
    call = facts.call_at(site) if site.features.get("receiver") == DRIVER else None
    if call is None:
        return None
    if isinstance(call.func, ast.Name) and call.func.id == PER_ELEMENT:
        return PER_ELEMENT
    if isinstance(call.func, ast.Attribute) and call.func.attr in PER_ELEMENT_METHODS:
        return f".{call.func.attr}"
    return None


def _timed(facts: FileFacts, site: Site) -> ast.AST | None:
    """The innermost loop around the call, where it times each call (`syntax.times_each_call`)."""
    call = facts.node(site)
    if call is None:
        return None
    loops = own_loops(facts, call, site.callsite.span.cell)
    return loops[0] if loops and times_each_call(loops[0], call) else None


def _shown(facts: FileFacts, site: Site) -> str | None:
    """What the message says of the innermost loop around the call where that loop shows each pass's
    result to a person (`syntax.shows_each_pass`: a webcam demo's window): None elsewhere."""
    call = facts.node(site)
    loops = own_loops(facts, call, site.callsite.span.cell) if call is not None else []
    return "shows each pass's result to a person as it comes" if loops and shows_each_pass(loops[0]) else None


def _trains_between(facts: FileFacts, site: Site) -> bool:
    """The innermost loop around the call also runs a training step (`syntax.trains`: a GAN's
    discriminator and combined model, an agent learning as it acts) and gives the call an input it
    makes on each pass (a batch of noise; not a fixed validation set, which predict() may split into
    many batches): the calls predict with weights that change between them, one batch each, so they
    cannot be stacked into one."""
    call = facts.node(site)
    cell = site.callsite.span.cell
    loops = own_loops(facts, call, cell) if isinstance(call, ast.Call) else []
    if not isinstance(call, ast.Call) or not loops or not trains(facts, loops[0], cell):
        return False
    made = loop_varying(loops[0])
    return any(flow.names(a) & made for a in (*call.args, *(k.value for k in call.keywords)))


def _discarded(facts: FileFacts, site: Site, loop: ast.AST) -> bool:
    """The call's result is thrown away: the call is a statement of its own, or its value is bound
    to names that the *loop* never reads (`_`, or `preds` left unread)."""
    call = facts.node(site)
    parent = facts.parent(call, site.callsite.span.cell) if call is not None else None
    if isinstance(parent, ast.Expr):
        return True
    if not isinstance(parent, ast.Assign):
        return False
    bound = frozenset().union(*(flow.targets(t) for t in parent.targets))
    return not any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in bound for n in ast.walk(loop))


#: Figures priced from the KB's reference machine, like the start-up (not this machine's calibration or profile).
REFERENCE_BASES = frozenset({Basis.FROM_DATA, Basis.PREDICTED, Basis.ESTIMATED})


def _minor_start_up(
    facts: FileFacts, site: Site, price: tuple[float, float], options: Mapping[str, Any]
) -> bool:
    """The start-ups the change saves are not material: over the site's counted runs they add up
    to less than MIN_SAVING_S or to less than `material-saving-j` (the saving itself, not the
    work it is part of: a hundred forecasting calls save a few hundred joules), or the call is
    test code; or each is under MIN_SHARE of the call's own figure even at the low end of its
    interval (a call over a known large input, whose compute dwarfs it). A figure whose data
    size is unknown (a floor) says nothing of its share."""
    seconds, joules = price
    if immaterial_overhead(facts, site, seconds, joules, options):
        return True
    p = site.prediction
    low = p.interval_j[0] if p.interval_j is not None else 0.0
    return p.basis in REFERENCE_BASES and not p.floor and low > 0 and joules < MIN_SHARE * low


def _price(site: Site, price: tuple[float, float], unknown: bool) -> str:
    """The start-up each call pays, and in all where the runs are counted; where which Keras runs the
    call is *unknown*, tf.keras's, beside multi-backend Keras' session run (the call's model tiny)."""
    cost = f"{repeated_cost(site, price[0], 'of start-up')}, {START_UP_TIMED}"
    if not unknown:
        return f" ({cost})"
    return (
        f" ({cost} with tf.keras; a session run with multi-backend Keras 2.0-2.3, which a standalone `keras` may"
        f" be: either way more than the model's work ({'' if rows_known(site) else 'at most '}"
        f"{tiny_step(site):,.0f} FLOPs a batch)"
    )


#: Arguments Keras' `predict` takes and scikit-learn's does not.
KERAS_ARGUMENTS = frozenset(
    {"verbose", "batch_size", "steps", "callbacks", "workers", "use_multiprocessing", "max_queue_size"}
)
#: Methods and attributes only a Keras model has (beside its `predict`).
KERAS_MEMBERS = frozenset(
    {
        "compile",
        "summary",
        "save_weights",
        "load_weights",
        "get_layer",
        "count_params",
        "to_json",
        "predict_on_batch",
        "train_on_batch",
        "test_on_batch",
        "fit_generator",
        "predict_generator",
        "evaluate_generator",
        "layers",
        "trainable_weights",
        "input_shape",
        "output_shape",
    }
)


def _shows_keras(facts: FileFacts, site) -> bool:
    """The untyped receiver of a `predict` is a Keras model by what the code does with it: the
    call passes an argument only Keras takes, or the same receiver (its text), in the call's
    function (its class for `self.<attr>`), calls a method or reads an attribute only a Keras
    model has."""
    call = facts.node(site)
    if call is None or not isinstance(call.func, ast.Attribute):
        return False
    if any(k.arg in KERAS_ARGUMENTS for k in call.keywords):
        return True
    receiver = ast.dump(call.func.value)
    owner = (
        ast.ClassDef
        if receiver.startswith("Attribute(value=Name(id='self'")
        else (ast.FunctionDef, ast.AsyncFunctionDef)
    )
    cell = site.callsite.span.cell
    scope: ast.AST | None = next((a for a in facts.ancestors(call, cell) if isinstance(a, owner)), None)
    if scope is None:
        scope = facts.module(cell)
    return scope is not None and any(
        isinstance(node, ast.Attribute) and node.attr in KERAS_MEMBERS and ast.dump(node.value) == receiver
        for node in ast.walk(scope)
    )


def _base_loop(facts: FileFacts, site: Site) -> tuple[str, str, bool] | None:
    """Where a base class drives the call's method in a loop (a template method: the base class
    loops, the subclass supplies the step, as a decoder's `beam_search` calls `self.predict`
    once per generated token): (`Base.looping_method`, the call's method, whether the receiver
    is what a method of that base builds as a Keras model), when the call is in a method of a
    class whose base, defined in the file or imported from a module of the project, calls
    `self.<that method>` in the body of a loop of one of its methods that the class does not
    override."""
    if "." not in site.callsite.scope:  # module level or a plain function: no method (its tree left unindexed)
        return None
    call = facts.node(site)
    cell = site.callsite.span.cell
    if call is None:
        return None
    function = next(
        (a for a in facts.ancestors(call, cell) if isinstance(a, (*FUNCTIONS, ast.Lambda, ast.ClassDef))), None
    )
    owner = facts.parent(function, cell) if isinstance(function, FUNCTIONS) else None
    if not isinstance(owner, ast.ClassDef) or not isinstance(function, FUNCTIONS):
        return None
    overridden = {n.name for n in owner.body if isinstance(n, FUNCTIONS)}
    loops = [
        (made, looping)
        for base in owner.bases
        for made in classes_named(facts, base)
        for looping in made.body
        if isinstance(looping, FUNCTIONS)
        and looping.name not in overridden
        and _calls_self_in_loop(looping, function.name)
    ]
    if not loops:
        return None
    # the loop the class itself calls, if it calls one (the class walked only when a base loops)
    called = {n.func.attr for n in ast.walk(owner) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    drivers = [
        (looping.name not in called, f"{made.name}.{looping.name}", function.name, _builds_model(made, call))
        for made, looping in loops
    ]
    return min(drivers)[1:]


def _builds_model(made: ast.ClassDef, call: ast.Call) -> bool:
    """The receiver of the call is `self.<method>(...)` where that method of the class builds a
    Keras `Model(...)` (`keras.models.Model(inputs, outputs)`) and returns."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if not (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Attribute)
        and isinstance(receiver.func.value, ast.Name)
        and receiver.func.value.id == "self"
    ):
        return False
    return any(
        isinstance(m, FUNCTIONS)
        and m.name == receiver.func.attr
        and any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(m))
        and any(isinstance(n, ast.Call) and last_name(n.func) == "Model" for n in ast.walk(m))
        for m in made.body
    )


def _calls_self_in_loop(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """The function calls `self.<name>(...)` in the body of one of its loops."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == name
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "self"
        for loop in ast.walk(function)
        if isinstance(loop, LOOPS)
        for n in own_body(loop)
    )
