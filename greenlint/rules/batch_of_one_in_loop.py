"""GL206 batch-of-one-in-loop: a model run on a batch of one item, once per item of a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.carried import handed_on
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.keras_flavour import keras_flavour
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import (
    FEW_ELEMENTS,
    autograph_loop,
    batch_of_one,
    calls_of,
    enclosing,
    environment_step,
    feed,
    last_bindings,
    last_name,
    loop_varying,
    own_body,
    own_loops,
    parameters,
    positional_parameters,
    shows_each_pass,
    stored_frames,
    times_each_call,
    trains,
    uncalled,
)
from greenlint.rules.tiny_steps import tiny_step

#: Model calls that run the model once on what they are given (`predict` is GL201's).
RUNS_ONCE = ("predict_on_batch", "__call__")
#: `predict`, this rule's on multi-backend Keras alone, where GL201 (which prices TF2's start-up) is silent.
PREDICT = "predict"
#: Calls stacking a list of items into a batch of one row per item.
STACKS = frozenset({"stack", "array", "asarray"})
#: Calls allocating an array of a shape given (a batch the helper then fills item by item).
ALLOCATES = frozenset({"zeros", "empty", "ones"})
#: A TF1 graph run (`Session.run`, `InteractiveSession.run`), this rule's where it runs inference on one fed row.
GRAPH_RUN = "Session.run"


#: A TF1 graph: a dense layer on a placeholder of one row, `y` its inference, `train` a step minimizing its loss.
GRAPH = (
    "import numpy as np\nimport tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.float32, [1, 64])\n"
    "y = tf.layers.dense(x, 64)\ntrain = tf.train.AdamOptimizer().minimize(tf.reduce_mean(y ** 2))\n"
    "sess = tf.Session()\n"
)

#: A stored video (or a camera: `{source}`) read frame by frame in a `while` loop, each pass's `{item}`
#: given to the model as a batch of one and the frame written out.
VIDEO = (
    "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
    "capture = cv2.VideoCapture({source})\nwriter = cv2.VideoWriter('out.avi', fourcc, 25, (640, 480))\nok = True\n"
    "while ok:\n    ok, frame = capture.read()\n    if ok:\n"
    "        boxes = model.predict_on_batch(np.expand_dims({item}, 0))\n        writer.write(draw(frame, boxes))\n"
)

#: A helper loading an image as a batch of one, called per file of a loop whose `{call}` is given it.
LOADED = (
    "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n\n\n"
    "def load(path):\n    x = tf.keras.utils.img_to_array(tf.keras.utils.load_img(path))\n"
    "    return np.expand_dims(x, axis=0) / 255.0\n\n\n"
    "for path in paths:\n    x = load(path)\n    scores = {call}\n"
)

#: A detection helper written for a list of images, its model given: the batch `{batch}` holds a row per image.
#: A detector's helper making a batch of one from its image, called per image by two methods: `export`, which
#: the file never calls, then `evaluate`.
HELPER_CALLERS = (
    "import cv2\nimport numpy as np\nimport tensorflow as tf\n\n\nclass Detector:\n    def predict(self, image):\n"
    "        return self.model.predict_on_batch(np.expand_dims(image, 0))\n\n    def export(self, paths):\n"
    "        for path in paths:\n            np.save(path + '.npy', self.predict(cv2.imread(path)))\n\n"
    "    def evaluate(self, paths):\n        for path in paths:\n            self.scores.append(self.predict(cv2.imread(path)))\n"
)
LISTED = (
    "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
    "def detect(model, images):\n    n = len(images)\n    batch = {batch}\n"
    "    return model.predict_on_batch(batch)\n"
)


class BatchOfOneInLoop(Rule):
    """
    ## What it does
    Flags `predict_on_batch()` on a Keras model, or the model called directly, given a batch
    of one item (`np.expand_dims(image, axis=0)`, `image[None]`, `x[i:i + 1]`,
    `np.array([image])`, a `reshape` to a leading 1; or a name its last assignment before the
    call binds to one; or an input the analysis found to hold one row where it was made: `x =
    load(path)` of a helper of the file returning `np.expand_dims(x, 0)`, a batch of
    `ds.batch(1)`) on every
    iteration of a `for` loop over the items, when the items are independent: nothing the
    model returned in one iteration reaches the input of the next. The call may be in a function
    that makes the batch of one from its parameter (`def detect(image): ...
    model.predict_on_batch(np.expand_dims(image, 0))`) and that the file calls once per item of
    such a loop, given what the loop's variable reaches (not a loop over a literal `range` of at
    most 32); or in a function written for a list of items, its batch a row per item
    (`np.stack(images)`, or `np.zeros((len(images), h, w, 3))` filled image by image), that the file
    calls once per item of such a loop with a list of that one item (`get_boxes(model, [image])`) (the
    message cites a loop that runs when the file does, else the first, in a function the file never calls,
    named as such: an entry point for another module, or code left unused); or
    a helper of another module that does so, called with the loop's item (the
    analysis lists such a call as the model call it makes, its input one item:
    `yolo.predict(image)` once per video frame, `np.expand_dims` in the project's frontend.py).
    `predict()` given a batch of
    one counts too in a program on multi-backend Keras 2.0-2.3 (rules/keras_flavour.py), or on the
    standalone `keras` whose code says nothing of its version (unless the model is tiny, which GL201
    prices whatever Keras), where GL201 is silent: there `predict` is a thin session run per call, so what the calls cost is
    not a start-up but the device's work on one item at a time, which stacking the items saves
    (elsewhere GL201 reports every `predict` a loop repeats). A TF1 graph's inference
    (`Session.run` with no optimizer update among its fetches) counts when what it is fed holds
    one row (the analysis' rows of the arrays in its feed dict, or a placeholder's literal first
    axis of 1: a test loop translating one image per file), its feed dict holding one array
    beside literal scalars (`{x: image, keep_prob: 1.0}`; beside a second array, such as a
    hyperparameter's `[1.0]`, the one row may be that array's): the graph does a batch of one
    per run, as a model called on one item does. Not reported: a decoding or
    control loop whose next input is made from the last output (a token appended to the
    sequence, an action fed to an environment), a `while` loop (a camera or a stream read as
    it comes, where waiting for a batch adds latency) unless each of its passes reads the next
    frame of a stored video that the item comes from (`ok, frame = capture.read()` on a
    `cv2.VideoCapture(path)`, not a camera's index such as `VideoCapture(0)`, and none drawn in a
    live window, even under a test: a video file turned into another, whose frames all exist before
    the loop), a call in a traced function, a loop
    whose variable does not reach the item, a loop that waits for the user on each item
    (`cv2.waitKey(0)`, `input()`, `plt.show()`: a person's pace, not the model's, sets its
    time) or reads its items from standard input as they come (`for line in sys.stdin:`), a loop
    that also trains a model (a GAN trained on batches of one: each call predicts with the weights
    the last step left, and more items per call is a larger training batch, GL301's), a loop
    that shows each pass's result in a live window (`cv2.imshow` on every pass: a webcam demo's
    frames, drawn as they come, cannot wait to be stacked with later ones), a
    loop that times each call (a clock read before and after it: a latency measurement, whose
    point is one item per call), a loop known to run at most 32 times (a plot
    of nine samples: one batch's worth of items gains nothing worth a finding), and a loop over
    regions of one image it did not read (`face = gray[y1:y2, x1:x2]` for each face detected in
    a frame or an uploaded photo: a handful of items, judged not worth acting on where a demo
    classified each face with a small model).

    ## Why is this bad?
    A model run on one item at a time does the work of a batch of one per call: each layer's
    weights are read from memory again for every item, and the matrix products are too small
    to keep the device's cores busy, so the device runs mostly idle while it stays powered. A
    GPU or TPU is built for batches; on a CPU too, per-item calls pay the call's fixed cost
    (the Python dispatch, the graph function's launch, the copy of the input) once per item.
    The items of a loop over a data set are independent (each image's detections depend on
    that image only): stacking them into batches computes the same outputs in a fraction of
    the calls.

    ## Example
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("detector.keras")
    for i in range(len(images)):
        boxes = model.predict_on_batch(np.expand_dims(images[i], axis=0))
    ```

    ## Use instead
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("detector.keras")
    for start in range(0, len(images), 32):
        boxes = model.predict_on_batch(np.stack(images[start:start + 32]))
    ```

    ## Energy evidence
    The pair under bench/rules/GL206/ runs 64 images of 64×64 through a small convolutional
    network, one image per `predict_on_batch` call against one call on the batch of 64, on
    this machine's CPU. On a GPU, whose cores a batch of one leaves mostly idle, the saving
    is expected to be larger; it is not measured here.

    ## Fix safety
    No automatic fix: batching changes the loop's structure and needs items of one shape.

    ## Options
    None.
    """

    code = "GL206"
    name = "batch-of-one-in-loop"
    CALLS = frozenset((*RUNS_ONCE, PREDICT, "run"))
    MESSAGE = (
        "`{method}` runs the model on a batch of one item ({item}) on every iteration of the loop{times}: "
        "the items are independent, stack them into batches"
    )
    GRAPH_MESSAGE = (
        "`Session.run` runs the graph's inference on a batch of one item (its feed {item} holds one row) on every "
        "iteration of the loop{times}: the items are independent, stack them into batches (where a placeholder fixes "
        "a first axis of 1, make it `None`)"
    )
    FIX_TITLE = "Stack the loop's items into batches and run the model once per batch"
    VALID = (
        Valid(  # an agent's rollout: the value run at an episode's end is fed the state the policy's run carried
            "import tensorflow as tf\nx_ph = tf.compat.v1.placeholder(tf.float32, [None, 4])\n"
            "pi = tf.compat.v1.layers.dense(x_ph, 2)\nv = tf.compat.v1.layers.dense(x_ph, 1)\n"
            "sess = tf.compat.v1.Session()\no = env.reset()\nfor t in range(4000):\n"
            "    a = sess.run(pi, feed_dict={x_ph: o.reshape(1, -1)})\n    o2, r, d, _ = env.step(a[0])\n    o = o2\n"
            "    if d:\n        last_val = sess.run(v, feed_dict={x_ph: o.reshape(1, -1)})\n        o = env.reset()\n"
        ),
        Valid(  # the helper written for a list of images given many at once: a batch per call already
            LISTED.format(
                batch="np.zeros((n, 416, 416, 3))\n    for i in range(n):\n        batch[i] = prepare(images[i])"
            )
            + "for i in range(0, len(paths), 8):\n    boxes = detect(model, [cv2.imread(p) for p in paths[i:i + 8]])\n"
        ),
        Valid(  # the helper's batch keeps only some items (a filter): its rows are not the list's
            LISTED.format(batch="np.array([prepare(image) for image in images if image is not None])")
            + "for path in paths:\n    boxes = detect(model, [cv2.imread(path)])\n"
        ),
        Valid(  # a list of one given per frame of a webcam demo, shown as it comes
            LISTED.format(batch="np.stack(images)")
            + "capture = cv2.VideoCapture(0)\nwhile True:\n    ok, frame = capture.read()\n"
            "    boxes = detect(model, [frame])\n    cv2.imshow('boxes', draw(frame, boxes))\n"
        ),
        Valid(  # a latency benchmark: each call timed on its own
            "import time\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(len(images)):\n    start = time.time()\n"
            "    out = model.predict_on_batch(np.expand_dims(images[i], axis=0))\n    took.append(time.time() - start)\n"
        ),
        Valid(  # one batch of many
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for batch in batches:\n    model.predict_on_batch(batch)\n"
        ),
        Valid(  # autoregressive: the next input is made from the last output
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "seq = start\nfor i in range(100):\n"
            "    probs = model.predict_on_batch(seq[None])\n"
            "    token = probs[0, -1].argmax()\n    seq = np.append(seq, token)\n"
        ),
        Valid(  # the frame drawn on is the next pass's input: nothing reads a new one
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "image = first_frame\nfor i in range(100):\n    boxes = model.predict_on_batch(np.expand_dims(image, 0))\n"
            "    image = draw(image, boxes)\n"
        ),
        Valid(  # a helper making a batch of one, called for nine images of a plot: one batch's worth
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n\n\n"
            "def detect(image):\n    batch = np.expand_dims(prepare(image), 0)\n    return model.predict_on_batch(batch)\n\n\n"
            "for i in range(9):\n    show(detect(images[i]))\n"
        ),
        Valid(  # the helper called on each frame of a camera, read as it comes
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n\n\n"
            "def detect(image):\n    batch = np.expand_dims(prepare(image), 0)\n    return model.predict_on_batch(batch)\n\n\n"
            "while True:\n    ok, frame = camera.read()\n    show(detect(frame))\n"
        ),
        Valid(  # the helper called once, in no loop
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n\n\n"
            "def detect(image):\n    batch = np.expand_dims(prepare(image), 0)\n    return model.predict_on_batch(batch)\n\n\n"
            "boxes = detect(cv2.imread(path))\n"
        ),
        Valid(  # the faces detected in one frame: regions of one image, a handful to batch at most
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)\nfor (x1, x2, y1, y2) in detect_faces(gray):\n"
            "    face = gray[y1:y2, x1:x2]\n    face = cv2.resize(face, (64, 64))\n"
            "    face = np.expand_dims(face, 0)\n    scores.append(model.predict_on_batch(face))\n"
        ),
        Valid(  # a control loop: the action changes the state the model sees next
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('q.keras')\n"
            "state = env.reset()\nfor t in range(500):\n"
            "    q = model(np.expand_dims(state, 0), training=False)\n"
            "    state, reward, done, _ = env.step(int(q.numpy().argmax()))\n"
        ),
        Valid(  # frames of a camera, read as they come
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "while True:\n    ok, frame = cap.read()\n    boxes = model.predict_on_batch(frame[None])\n"
        ),
        Valid(  # the same item each time: not this rule's (the loop does not vary it)
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for trial in range(5):\n    model.predict_on_batch(np.expand_dims(sample, 0))\n"
        ),
        Valid(  # expand_dims on the last axis adds a channel, not a batch
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for batch in batches:\n    model.predict_on_batch(np.expand_dims(batch, -1))\n"
        ),
        Valid(  # each image is shown until a key is pressed: the user's pace sets the loop's time
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for path in paths:\n    image = cv2.imread(path)\n"
            "    boxes = model.predict_on_batch(np.expand_dims(image, axis=0))\n"
            "    cv2.imshow('image', draw(image, boxes))\n    cv2.waitKey(0)\n"
        ),
        Valid(  # each frame of a camera's generator drawn in a live window as it comes: none can wait for later ones
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for frame in camera_frames():\n"
            "    boxes = model.predict_on_batch(np.expand_dims(frame, axis=0))\n"
            "    cv2.imshow('result', draw(frame, boxes))\n    if cv2.waitKey(1) == 27:\n        break\n"
        ),
        Valid(  # nine samples for a plot: at most one batch's worth
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(9):\n    probs = model.predict_on_batch(x_test[i][None])\n"
        ),
        Valid(  # `predict` on tf.keras: GL201's, which prices its start-up
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for frame in frames:\n    boxes = model.predict(np.expand_dims(frame, 0))\n"
        ),
        Valid(  # multi-backend Keras (trained with `fit_generator`): a batch of 32 latent vectors per call, not one item
            "import numpy as np\nfrom keras.models import load_model\nmodel = load_model('g.h5')\n"
            "model.fit_generator(batches, steps_per_epoch=100)\nfor step in range(4000):\n"
            "    noise = np.random.normal(0, 1, (32, 100))\n    images = model.predict(noise)\n"
        ),
        Valid(  # a TF1 graph sampled one step at a time: each run is fed what the previous one returned
            GRAPH + "char = np.zeros((1, 64))\nfor n in range(500):\n    probs = sess.run(y, feed_dict={x: char})\n"
            "    char = np.eye(64)[None, np.random.choice(64, p=probs[0])]\n"
        ),
        Valid(  # a forecast fed its own outputs: each run's window holds what the previous runs appended
            GRAPH
            + "sequence = [0.0] * 64\nfor n in range(300):\n    window = np.array(sequence[-64:]).reshape(1, 64)\n"
            "    out = sess.run(y, feed_dict={x: window})\n    sequence.append(out[0, -1])\n"
        ),
        Valid(  # a TF1 training step on one example: its batch is GL301's, not an inference to stack
            GRAPH + "for path in paths:\n    sess.run(train, feed_dict={x: np.expand_dims(np.load(path), 0)})\n"
        ),
        Valid(  # a hyperparameter of one row fed beside the batch: the batch's rows are not known
            GRAPH.replace("[1, 64]", "[None, 64]") + "keep = tf.placeholder(tf.float32, [1])\n"
            "for path in paths:\n    out = sess.run(y, feed_dict={keep: np.ones(1), x: np.load(path)})\n"
        ),
        Valid(  # a TF1 graph of any batch, run on a batch of many rows each pass
            GRAPH.replace("[1, 64]", "[None, 64]")
            + "for batch in batches:\n    out = sess.run(y, feed_dict={x: batch})\n"
        ),
        Valid(  # a camera opened on its index, read as it comes: its frames do not exist yet
            VIDEO.format(source="0", item="frame")
        ),
        Valid(  # a camera's index held in a name
            VIDEO.replace("capture = ", "camera = int(args.camera)\ncapture = ").format(source="camera", item="frame")
        ),
        Valid(  # a stored video drawn in a live window as it is read: none of its frames waits for later ones
            VIDEO.format(source="path", item="frame") + "        cv2.imshow('boxes', frame)\n        cv2.waitKey(1)\n"
        ),
        Valid(  # each pass reads a frame, but the model is given the same template: not the video's items
            VIDEO.format(source="path", item="template")
        ),
        Valid(  # a GAN trained on batches of one: each call predicts with the weights the last step left
            LOADED.format(call="model.predict_on_batch(x)") + "    critic.train_on_batch(scores, np.zeros((1, 1)))\n"
        ),
        Valid(  # the helper's input has one row, but the same one each pass: the loop does not vary it
            LOADED.format(call="model(x)").replace("x = load(path)", "x = load('reference.png')")
        ),
        Valid(  # a data set in batches of many
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "ds = tf.data.Dataset.from_tensor_slices((images, labels))\n"
            "for x, y in ds.batch(64):\n    scores.append(model(x, training=False))\n"
        ),
        Valid(  # standalone `keras` of unknown version, a tiny model: GL201's, which prices its calls whatever Keras
            "import numpy as np\nfrom keras.models import Sequential\nfrom keras.layers import Dense\n"
            "model = Sequential([Dense(2, input_shape=(4,))])\nmodel.compile(loss='mse', optimizer='adam')\n"
            "for row in rows:\n    q = model.predict(np.expand_dims(row, 0))\n"
        ),
        Valid(  # a traced function: the loop is a graph loop
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "@tf.function\ndef run(xs):\n    for x in xs:\n        model(x[None])\n"
        ),
        Valid(  # an actor-critic's update: the value of the one next state the environment answered the action of
            # a method running the policy with: each state is made by the loop's stepping, none exists before it
            GRAPH.replace("[1, 64]", "[None, 64]")
            + "class Agent:\n    def choose_action(self, s):\n        return sess.run(y, {x: s[np.newaxis, :]})[0]\n\n"
            "    def work(self, env):\n        s = env.reset()\n        for t in range(1000):\n"
            "            a = self.choose_action(s)\n            s_, r, done = env.step(a)\n"
            "            if t % 10 == 0 or done:\n                v_s_ = sess.run(y, {x: s_[np.newaxis, :]})[0, 0]\n"
            "            s = s_\n"
        ),
        Valid(  # random actions: each state is still the environment's answer to the last step, made one by one
            GRAPH.replace("[1, 64]", "[None, 64]")
            + "o = env.reset()\nfor t in range(1000):\n    o2, r, d, _ = env.step(env.action_space.sample())\n"
            "    value = sess.run(y, feed_dict={x: o2.reshape(1, -1)})\n"
        ),
    )
    INVALID = (
        Invalid(  # near miss: a helper of the file runs the graph on each output, which never reaches the next file
            GRAPH + "def score(out):\n    return sess.run(train, {x: out})\n"
            "for path in paths:\n    image = np.load(path)\n"
            "    out = sess.run(y, feed_dict={x: np.expand_dims(image, 0)})\n    total = score(out)\n",
            line=11,
        ),
        Invalid(  # near miss: the loop as a whole is timed, not each call
            "import time\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "start = time.time()\nfor i in range(len(images)):\n"
            "    out = model.predict_on_batch(np.expand_dims(images[i], axis=0))\ntook = time.time() - start\n",
            line=7,
        ),
        Invalid(  # an evaluation helper given the model
            "import numpy as np\nfrom tensorflow import keras\n"
            "def detections(generator, model):\n"
            "    for i in range(generator.size()):\n"
            "        image, scale = generator.preprocess_image(generator.load_image(i))\n"
            "        boxes, scores, labels = model.predict_on_batch([np.expand_dims(image, axis=0)])\n"
            "        boxes /= scale\n",
            line=6,
            message_contains="`np.expand_dims(image, axis=0)`",
        ),
        Invalid(  # the model called directly, the item made a batch on the line before
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for image in images:\n    batch = image[tf.newaxis, ...]\n    scores.append(model(batch, training=False))\n",
            line=5,
        ),
        Invalid(
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "for i in range(100):\n    model.predict_on_batch(data[i:i + 1])\n",
            line=4,
            message_contains="(100 times)",
        ),
        Invalid(  # multi-backend Keras (trained with `fit_generator`): `predict` is a session run on one frame per call
            "import cv2\nimport numpy as np\nfrom keras.models import load_model\nmodel = load_model('yolo.h5')\n"
            "model.fit_generator(batches, steps_per_epoch=100)\nfor i in range(nb_frames):\n"
            "    _, image = reader.read()\n    image = cv2.resize(image, (416, 416)) / 255.0\n"
            "    image = np.expand_dims(image, 0)\n    netout = model.predict([image, dummy])\n",
            line=10,
            message_contains="`predict` runs the model on a batch of one item",
        ),
        Invalid(  # each pass reads a new frame, then draws the boxes on it: no output reaches a later input
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(nb_frames):\n    ok, image = reader.read()\n"
            "    boxes = model.predict_on_batch(np.expand_dims(image, 0))\n    image = draw(image, boxes)\n"
            "    writer.write(image)\n",
            line=6,
        ),
        Invalid(  # a helper making a batch of one from its parameter, called once per image of an evaluation loop
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n\n\n"
            "def detect(image):\n    batch = np.expand_dims(prepare(image), 0)\n    return model.predict_on_batch(batch)\n\n\n"
            "for path in paths:\n    boxes = detect(cv2.imread(path))\n",
            line=8,
            message_contains="(through `detect`, called per item of the loop at line 11)",
        ),
        Invalid(  # a helper written for a list of images (a batch row per image), given a list of one per image
            LISTED.format(
                batch="np.zeros((n, 416, 416, 3))\n    for i in range(n):\n        batch[i] = prepare(images[i])"
            )
            + "for i in range(len(paths)):\n    raw = [cv2.imread(paths[i])]\n    boxes = detect(model, raw)\n",
            line=10,
            message_contains="a batch of one item (`[cv2.imread(paths[i])]`) on every iteration of the loop (through `detect`",
        ),
        Invalid(  # the same helper stacking its list, given the one-item list in the call
            LISTED.format(batch="np.stack(images)")
            + "for path in paths:\n    boxes = detect(model, [cv2.imread(path)])\n",
            line=8,
        ),
        Invalid(  # the helper stacks an item per item of its list, given a list of one per path
            LISTED.format(batch="np.array([prepare(image) for image in images])")
            + "for path in paths:\n    boxes = detect(model, [cv2.imread(path)])\n",
            line=8,
        ),
        Invalid(  # near miss: a region cut from each image of a data set, not from one image
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(len(images)):\n    face = images[i][y1:y2, x1:x2]\n"
            "    scores.append(model.predict_on_batch(np.expand_dims(face, 0)))\n",
            line=6,
        ),
        Invalid(  # a TF1 graph's inference fed one test image per file: the graph's placeholder holds one row
            GRAPH + "for path in paths:\n    image = np.expand_dims(np.load(path), 0)\n"
            "    fake = sess.run(y, feed_dict={x: image, training: False})\n    np.save(path + '.out', fake)\n",
            line=9,
            message_contains="`Session.run` runs the graph's inference on a batch of one item (its feed `{x: image, training: False}`",
        ),
        Invalid(  # a helper running the graph on one row of its parameter, called once per file of a loop
            GRAPH + "def translate(image):\n    return sess.run(y, feed_dict={x: image[None]})\n"
            "for path in paths:\n    np.save(path + '.out', translate(np.load(path)))\n",
            line=8,
            message_contains="(through `translate`, called per item of the loop at line 9)",
        ),
        Invalid(  # standalone `keras` whose code says nothing of its version: GL201 is silent, the batch of one holds
            "import numpy as np\nfrom keras.models import load_model\nmodel = load_model('m.h5')\n"
            "for path in paths:\n    image = np.load(path)\n    scores.append(model.predict(np.expand_dims(image, 0)))\n",
            line=6,
            message_contains="`predict` runs the model on a batch of one item",
        ),
        Invalid(  # a stored video read frame by frame in a `while` loop and written out: its frames all exist
            VIDEO.format(source="path", item="frame"),
            line=11,
            message_contains="`predict_on_batch` runs the model on a batch of one item (`np.expand_dims(frame, 0)`)",
        ),
        Invalid(  # multi-backend Keras: a helper predicting on one frame, called per frame of a stored video
            "import cv2\nimport numpy as np\nfrom keras.models import load_model\nmodel = load_model('m.h5')\n"
            "model.fit_generator(batches, steps_per_epoch=100)\n\n\ndef detect(image):\n"
            "    return model.predict(np.expand_dims(image, 0))\n\n\n"
            "def convert(video_path, writer):\n    capture = cv2.VideoCapture(video_path)\n    ok = True\n"
            "    while ok:\n        ok, image = capture.read()\n        if ok:\n"
            "            writer.write(draw(image, detect(image[..., ::-1])))\n",
            line=9,
            message_contains="(through `detect`, called per item of the loop at line 15 of `convert`, which this file never"
            " calls)",
        ),
        Invalid(  # two loops call the helper per image: the one of the method the script runs is cited
            HELPER_CALLERS + "\n\nif __name__ == '__main__':\n    Detector().evaluate(paths)\n",
            line=8,
            message_contains="(through `predict`, called per item of the loop at line 15)",
        ),
        Invalid(  # the file calls neither method (a library's entry points): the first loop, said to be one
            HELPER_CALLERS,
            line=8,
            message_contains="(through `predict`, called per item of the loop at line 11 of `export`, which this file"
            " never calls)",
        ),
        Invalid(  # the batch of one made by a helper of the file, which the loop calls per file
            LOADED.format(call="model(x, training=False)"),
            line=13,
            message_contains="a batch of one item (`load(path)`, np.expand_dims(x, 0): a batch of one)",
        ),
        Invalid(  # a data set batched by one, each batch given to the model
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "ds = tf.data.Dataset.from_tensor_slices((images, labels))\n"
            "for x, y in ds.batch(1):\n    scores.append(model(x, training=False))\n",
            line=5,
            message_contains="(`x`, one batch of the data set (1 samples",
        ),
        Invalid(  # the images are shown only when asked: the evaluation runs at the model's pace
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "def detections(paths, visualize=False):\n    for path in paths:\n        image = cv2.imread(path)\n"
            "        boxes = model.predict_on_batch(np.expand_dims(image, axis=0))\n"
            "        if visualize:\n            cv2.imshow('image', draw(image, boxes))\n            cv2.waitKey(0)\n",
            line=8,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        flavour = None
        for site in facts.sites:
            graph = _graph_run_of_one(site)
            if not (graph or is_keras_model_method(site.api, (*RUNS_ONCE, PREDICT))) or site.features.get(
                "in_tf_function"
            ):
                continue
            runs = site.loop_runs
            if not site.repeats(same=("receiver",)) or (runs is not None and runs <= FEW_ELEMENTS):
                continue
            wrapped = site.features.get("receiver") == "wrapper"
            call, cell = facts.call_at(site) if wrapped else facts.node(site), site.callsite.span.cell
            if call is None:
                continue
            loops = own_loops(facts, call, cell)
            if loops:
                item, through = (
                    _wrapped_item(site, call)
                    if wrapped
                    else (_one_item(call, loops[0], graph, site.work_value("samples")), "")
                )
                if item is None or not _per_item(facts, loops[0], call, item, cell):
                    continue
            elif wrapped:
                continue
            else:
                item, through = _through_helper(facts, call, cell, graph)
                if item is None:
                    continue
            if method(site.api) == PREDICT:
                if flavour is None:
                    flavour = keras_flavour(facts)
                if not (flavour.multi_backend or flavour.unknown and tiny_step(site) is None):
                    continue  # GL201's, which prices TF2's start-up (and a tiny model's, whatever Keras)
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                (self.GRAPH_MESSAGE if graph else self.MESSAGE).format(
                    method=method(site.api) if method(site.api) != "__call__" else "model(...)",
                    item=_shown(
                        site, item, wrapped, noted=not (graph or batch_of_one(item) or _list_of_one(item, None, call))
                    ),
                    times=through or site.loop_times(),
                ),
            )


def _graph_run_of_one(site: Site) -> bool:
    """A TF1 graph run of inference (no optimizer update among its fetches) fed one row (the analysis'
    `samples` of the run: the rows of the arrays its feed dict holds, `np.expand_dims(image, 0)` or a
    file loaded as a batch of one)."""
    return site.api.endswith(GRAPH_RUN) and site.work_value("step") == "inference" and site.work_value("samples") == 1


def _wrapped_item(site: Site, call: ast.Call) -> tuple[ast.expr | None, str]:
    """For a call of a helper of another module that the analysis lists as the model call it makes
    (analysis/wrappers.py, walked with this call's arguments), where that call's input is one item
    (its work's `samples` is 1: `np.expand_dims(image, 0)` in the helper): the call's arguments, and
    where the helper makes the batch; (None, "") otherwise, and for a helper of the file itself
    (`via_here`: `_through_helper` reports it in the helper)."""
    if site.features.get("via_here") or site.work_value("samples") != 1 or not (call.args or call.keywords):
        return None, ""
    given = ast.Tuple(elts=[*call.args, *(k.value for k in call.keywords)], ctx=ast.Load())
    via = site.features.get("via")
    return given, f" (through `{ast.unparse(call.func)}`" + (f", {via})" if via else ")")


def _shown(site: Site, item: ast.expr, wrapped: bool, noted: bool) -> str:
    """The batch of one as the message names it: the expression; for a wrapper's call, what the
    analysis noted of the helper's input (`np.expand_dims(x, 0)`); for an input not written as one
    (*noted*: made by a helper, drawn from `ds.batch(1)`), the input and that note."""
    entry = site.callsite.work.get("samples")
    note = entry.note if entry is not None and isinstance(entry.note, str) and entry.note else None
    if wrapped and note:
        return f"`{note.split(': ')[0]}`"
    return f"`{ast.unparse(item)}`, {note}" if noted and note else f"`{ast.unparse(item)}`"


def _per_item(facts: FileFacts, loop: ast.AST, call: ast.Call, item: ast.expr, cell: int | None) -> bool:
    """*call*, given the batch of one *item*, runs once per item of *loop*: a `for` loop whose variable
    reaches the item, or a `while` loop whose frame of a stored video does (`syntax.stored_frames`), no
    output reaches a later pass's item, and the loop neither shows each pass's result to a person
    (`syntax.shows_each_pass`), times each call, trains a model (`syntax.trains`: a GAN's loop on
    batches of one, whose calls predict with the weights each step changes; more items a call is a
    larger training batch, GL301's), nor is a graph loop."""
    if isinstance(loop, ast.While):  # a video shown as it is read, under a test too, is a demo's
        frames = stored_frames(facts, loop, cell)
        if shows_each_pass(loop, guarded=True) or not flow.names(item) & flow.derived(frames, loop.body):
            return False
    return (
        isinstance(loop, (ast.For, ast.AsyncFor, ast.While))
        and not autograph_loop(facts, loop, cell)
        and bool(flow.names(item) & loop_varying(loop))
        and not _fed_back(facts, call, item, loop, cell)
        and not _regions_of_one_image(item, loop)
        and not shows_each_pass(loop)
        and not times_each_call(loop, call)
        and not trains(facts, loop, cell)
    )


def _regions_of_one_image(item: ast.expr, loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """The item is cut from one array the loop did not read, by a region its variable sets
    (`face = gray_image[y1:y2, x1:x2]` for each face detected in one frame): the items are the
    few regions one image holds, not a data set's, so a batch of them is a handful at most."""
    bound: dict[str, list[ast.expr]] = {}
    for node in own_body(loop):
        if isinstance(node, ast.Assign):
            for name in frozenset().union(*(flow.targets(t) for t in node.targets)):
                bound.setdefault(name, []).append(node.value)
    varying = loop_varying(loop)
    todo, seen = list(flow.names(item) & varying), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in bound.get(name, ()):
            if any(
                isinstance(n, ast.Subscript)
                and isinstance(n.value, ast.Name)
                and n.value.id not in varying
                and isinstance(n.slice, ast.Tuple)
                and sum(isinstance(e, ast.Slice) for e in n.slice.elts) >= 2
                and flow.names(n.slice) & varying
                for n in ast.walk(value)
            ):
                return True
            todo.extend(flow.names(value) & varying)
    return False


def _few_trips(loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """The loop runs over `range(n)` (or `range(a, b)`) of literals, at most `FEW_ELEMENTS` trips."""
    it = getattr(loop, "iter", None)
    if not (isinstance(it, ast.Call) and last_name(it.func) == "range" and 1 <= len(it.args) <= 2):
        return False
    bounds = [a.value for a in it.args if isinstance(a, ast.Constant) and type(a.value) is int]
    return len(bounds) == len(it.args) and bounds[-1] - (bounds[0] if len(bounds) == 2 else 0) <= FEW_ELEMENTS


def _through_helper(facts: FileFacts, call: ast.Call, cell: int | None, graph: bool) -> tuple[ast.expr | None, str]:
    """For a call in no loop of its own function, which makes its batch of one from a parameter
    (`def detect(self, image): ... self.model.predict(np.expand_dims(image, 0))`): that item and
    where the file calls the function once per item of a loop (` (through `detect`, called per item
    of the loop at line 12)`), or (None, ""). The loop is the first in code the file runs (at top level, or
    in a function it calls or names); where every such loop is in a function it never calls, the first,
    named with its function (`of `export`, which this file never calls`)."""
    function = enclosing(facts, call, cell, FUNCTIONS)
    if not isinstance(function, FUNCTIONS):
        return None, ""
    item = _one_item(call, function, graph)
    listed = None if item is not None or graph else _stacked_list(call, function)
    if item is None and listed is None:
        return None, ""
    positional = positional_parameters(facts, function, cell)
    reached = (
        [listed]
        if listed is not None
        else [p for p in parameters(function) if flow.derived(frozenset({p}), function.body) & flow.names(item)]
    )
    found = []
    for unit_cell, caller in calls_of(facts, function, cell):
        loops = own_loops(facts, caller, unit_cell)
        loop = loops[0] if loops else None
        given = [
            value
            for name in reached
            if (value := argument(caller, name, positional.index(name) if name in positional else None)) is not None
        ]
        if listed is not None:  # the list given must hold one item: `[image]`, or a name the loop binds to one
            given = [one for value in given if (one := _list_of_one(value, loop, caller)) is not None]
        if (
            isinstance(loop, (ast.For, ast.AsyncFor, ast.While))
            and given
            and not _few_trips(loop)
            and _per_item(facts, loop, caller, ast.Tuple(elts=given, ctx=ast.Load()), unit_cell)
        ):
            found.append((item or given[0], loop, _uncalled_owner(facts, loop, unit_cell)))
    if not found:
        return None, ""
    given_item, loop, owner = next((each for each in found if each[2] is None), found[0])  # a loop that runs first
    where = f" of `{owner}`, which this file never calls" if owner else ""
    return given_item, f" (through `{function.name}`, called per item of the loop at line {loop.lineno}{where})"


def _uncalled_owner(facts: FileFacts, loop: ast.AST, cell: int | None) -> str | None:
    """The name of the function holding *loop* where the file never calls it nor names it (`syntax.uncalled`: an
    entry point for another module, or code left unused), else None (its loop runs when the file does)."""
    owner = enclosing(facts, loop, cell, FUNCTIONS)
    if not isinstance(owner, FUNCTIONS):
        return None
    return owner.name if uncalled(facts, owner.name, isinstance(facts.parent(owner, cell), ast.ClassDef)) else None


def _stacked_list(call: ast.Call, function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The parameter of *function* holding a list of items that the call's input stacks one row per
    item (`np.stack(images)`, `np.array([prepare(image) for image in images])`, or
    `np.zeros((len(images), h, w, 3))` filled per image, through a name bound to `len(images)` too): a
    helper written for a list of images; None for any other input."""
    given = argument(call, "x", 0) or argument(call, "inputs")
    bound = last_bindings(function, call.lineno)

    def value(expr: ast.expr | None) -> ast.expr | None:
        assigned = bound.get(expr.id) if isinstance(expr, ast.Name) else None
        return assigned.value if assigned is not None else expr

    made, params = value(given), parameters(function)
    if not isinstance(made, ast.Call) or not made.args:
        return None
    first = made.args[0]
    if isinstance(first, (ast.ListComp, ast.GeneratorExp)) and len(first.generators) == 1:
        loop = first.generators[0]  # `[prepare(image) for image in images]`: an item per item of the list
        first = loop.iter if not loop.ifs and not loop.is_async else first
    if last_name(made.func) in STACKS:
        return first.id if isinstance(first, ast.Name) and first.id in params else None
    lead = (
        value(first.elts[0])
        if last_name(made.func) in ALLOCATES and isinstance(first, ast.Tuple) and first.elts
        else None
    )
    counted = lead.args[0] if isinstance(lead, ast.Call) and last_name(lead.func) == "len" and lead.args else None
    return counted.id if isinstance(counted, ast.Name) and counted.id in params else None


def _list_of_one(value: ast.expr, loop: ast.AST | None, caller: ast.Call) -> ast.expr | None:
    """The one-item list a caller gives (`[image]`, or a name the loop's body last bound to one before
    the call), else None."""
    if isinstance(value, ast.Name) and loop is not None:
        assigned = last_bindings(loop, caller.lineno).get(value.id)
        value = assigned.value if assigned is not None else value
    one = (
        isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) == 1 and not isinstance(value.elts[0], ast.Starred)
    )
    return value if one else None


def _one_item(call: ast.Call, loop: ast.AST, graph: bool = False, rows: Any = None) -> ast.expr | None:
    """The expression making the call's input a batch of one item, written in the call (in a
    list of inputs too) or bound to the name given by the loop body's last plain assignment of
    it before the call (`x = cv2.resize(frame, size)`, then `x = np.expand_dims(x, 0)`); else, where
    the analysis found the input to hold one row (*rows*, the site's `samples`: a batch of one made
    where the input was bound, `x = load(path)` of a helper returning `np.expand_dims(x, 0)`), that
    input as given or bound; for a *graph* run of one row (`_graph_run_of_one`), its feed dict; None
    if there is none."""
    if graph:
        return _fed_one_array(call)
    given = argument(call, "x", 0) or argument(call, "inputs")
    inputs = given.elts if isinstance(given, (ast.List, ast.Tuple)) else [given] if given is not None else []
    bound = last_bindings(loop, call.lineno)
    resolved = []
    for expr in inputs:
        if isinstance(expr, ast.Name):
            assigned = bound.get(expr.id)
            expr = assigned.value if assigned is not None else expr
        if batch_of_one(expr):
            return expr
        resolved.append(expr)
    return resolved[0] if rows == 1 and len(resolved) == 1 else None


def _fed_one_array(call: ast.Call) -> ast.expr | None:
    """What a graph run of one row is fed, where that row is surely its item's: a feed dict display
    holding one value beside literal scalars (`{x: image, keep_prob: 1.0}`: with a second array, such
    as a hyperparameter's `[1.0]`, the one row the analysis read may be that one), or a feed given by
    name; None otherwise."""
    fed = feed(call)
    if not isinstance(fed, ast.Dict):
        return fed
    arrays = [
        v
        for v in fed.values
        if not isinstance(v.operand if isinstance(v, ast.UnaryOp) else v, ast.Constant)  # `1.0`, `-1`, `False`
    ]
    return fed if len(arrays) == 1 and None not in fed.keys else None


def _fed_back(
    facts: FileFacts, call: ast.Call, item: ast.expr, loop: ast.For | ast.AsyncFor | ast.While, cell: int | None
) -> bool:
    """The loop makes each pass's item by its own stepping, not drawing it from items that exist before
    it (a decoding or control loop): what the call, another call of its name in the loop (the policy's
    `sess.run` beside the value's) or a function of the file making such a call (an agent's
    `choose_action(s)` running the policy) returns reaches the item of a later iteration (the names bound
    from its result reach the next pass, `flow.next_pass`: not a frame each pass reads afresh, later drawn
    on from the result, and meet the item's, through assignments or a list grown from it
    (`sequence.append(y_pred[0, -1])`, then `X = np.array(sequence[-20:])`: `carried.handed_on`); or the
    item derives from what an environment's step in the loop returns (`syntax.environment_step`: the
    state it answers the last action with)."""
    runs = last_name(call.func)  # another run of the loop (`sess.run` of the policy) may carry the state
    results: frozenset = frozenset()
    stepped: frozenset = frozenset()
    for node in own_body(loop):
        if isinstance(node, ast.Assign):
            value, bound = node.value, node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            value, bound = node.value, [node.target]
        else:
            continue
        calls = [n for n in ast.walk(value) if isinstance(n, ast.Call)]
        if any(n is call or last_name(n.func) == runs or _runs_in(facts, last_name(n.func), runs) for n in calls):
            results = results.union(*(flow.targets(t) for t in bound))
        if any(environment_step(facts, n, cell) for n in calls):
            stepped = stepped.union(*(flow.targets(t) for t in bound))
    variable = flow.targets(loop.target) if isinstance(loop, (ast.For, ast.AsyncFor)) else frozenset()
    named = flow.names(item)
    carried = flow.next_pass(results, loop.body, variable, handed_on(loop))
    return bool(carried & named or flow.derived(stepped, loop.body) & named)


def _runs_in(facts: FileFacts, name: str | None, runs: str | None) -> bool:
    """A function of the file named *name* calls *runs* in its own body (`def choose_action(self, s): return
    sess.run(self.pi, {self.s: s[None]})`): a call of it runs the model too."""
    if not name or name == runs:
        return False
    return any(
        isinstance(n, ast.Call) and last_name(n.func) == runs
        for _, function in facts.functions_named(name)
        for n in ast.walk(function)
    )
