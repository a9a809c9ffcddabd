"""GL207 whole-prefix-decoding: an autoregressive decoding loop that runs the network on the whole decoded prefix for every new token."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.callsite import Span
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.decoding import decoding_loops, driven_decodings
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import SAVING_OPTION, immaterial_work

#: A TF1 decoder class whose `decode` runs an embedding, attention products and the logits.
TF1_DECODER = (
    "import tensorflow as tf\n\n\nclass Transformer:\n"
    "    def decode(self, ys, memory):\n        dec = tf.nn.embedding_lookup(self.embeddings, ys[0])\n"
    "        logits = tf.einsum('ntd,dk->ntk', dec + memory, self.weights)\n"
    "        return logits, tf.to_int32(tf.argmax(logits, axis=-1))\n\n"
)
#: A decoder base class whose beam search grows the ids by the subclass's `predict` (bert4keras'
#: `AutoRegressiveDecoder`): the rows are picked by beam, the positions kept.
SEARCH = (
    "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('lm.keras')\n\n\n"
    "class Decoder:\n    def predict(self, inputs, output_ids, states=None):\n        raise NotImplementedError\n\n"
    "    def beam_search(self, inputs, topk, states=None):\n        output_ids = np.empty((1, 0), dtype=int)\n"
    "        for step in range(32):\n            scores, states = self.predict(inputs, output_ids, states)\n"
    "            beams = scores.argsort(axis=None)[-topk:]\n"
    "            output_ids = np.concatenate([output_ids[beams // scores.shape[1]], (beams % scores.shape[1])[:, None]], 1)\n"
    "        return output_ids[0]\n\n\n"
)

#: A graph built layer by layer, each layer's heads gathered in `heads` (`{fresh}`: bound anew at the top of a pass).
LAYERED = (
    "import tensorflow as tf\n\n\ndef attention(x):\n    return tf.matmul(x, x, transpose_b=True)\n\n\n"
    "def encoder(x, depth):\n    heads = []\n    for i in range(depth):\n        inputs = x\n{fresh}"
    "        heads.append(attention(inputs))\n        x = tf.concat(heads, axis=-1)\n    return x\n"
)
#: How a decoding loop grows the sequence it feeds back (`np.concatenate`, `ids.append(...)`, `+=`).
GROWS = ("concat", "append", "stack", "+=", "extend")


class WholePrefixDecoding(Rule):
    """
    ## What it does
    Flags the network call of an autoregressive decoding loop that runs the network on the
    whole sequence decoded so far on every pass: a Python `for` or `while` loop whose body
    gives a sequence, whole, to a network (a Keras model's `predict()` or call, a TF1
    `Session.run`, a model or layer the file makes, or a function or `self.` method of the file
    that runs Keras layers, an embedding, a convolution or a matrix product), and lengthens that
    sequence by what the network returned (`seq = tf.concat([seq, next_id], 1)`,
    `np.concatenate`, `np.append`, `seq += [next_id]`, `seq.append(next_id)`), directly or
    through names the loop binds from either (`ys = (seq, lengths)`,
    `x = np.array([tokens])`). Eager loops and TF1 graph loops alike: a TF1 loop that builds the
    decoder once per position unrolls into a graph that runs each of those decoders on every
    run. A join along a later axis than the first (`np.concatenate([ids[beams], new], 1)`) grows
    the sequence even where its rows are picked (`ids[beams]`, `ids[mask]`): only an index on the
    axis it grows along cuts positions.

    The loop may be a base class's (a template method): a class of the file overrides a method
    that its base, defined in the file or in a module of the project the file imports it from
    (read from its text, never imported), calls as `self.<method>(...)` in such a loop, giving it
    the sequence the loop grows by the method's result (bert4keras' `AutoRegressiveDecoder`:
    `beam_search` calls `self.predict(inputs, output_ids, states)` once per token and appends
    the chosen token to `output_ids`), and the override gives that parameter whole to a network
    (`token_ids = np.concatenate([token_ids, output_ids], 1)`, then
    `model.predict([token_ids, segment_ids])`). The finding is on the override's network call.

    Not reported: a network given only the newest positions (`model(seq[:, -1:], cache)`,
    `tokens[-1]`: an incremental decoder, or a recurrent one given its state), or given a
    name the loop also binds to them in another branch (`window = wave[-1]` in a fast mode
    beside `window = wave`); a network
    given a state or cache it returned on the previous pass (`out, state = model(x, state)`);
    a window that slides (`window = np.concatenate([window[:, 1:], y], 1)`), is cut back
    (`seq = seq[-64:]`) or is padded to a fixed length (`tf.pad(seq, [[0, 0], [0, n -
    seq.shape[1]]])`, `pad_sequences(..., maxlen=n)`): the work per pass stays the same; a sequence
    each pass binds anew before it grows it (`heads = []`, then `heads.append(...)`: a graph built
    layer by layer, no pass runs on what an earlier one appended); a join of the pieces a list
    holds (`tf.concat(outputs, 0)`), which grows no sequence; results collected without being fed
    back (`preds = np.concatenate([preds, model.predict(batch)])`); a function that runs no
    network (statistics, a tokenizer); an override that reads the state its base's loop hands
    back (`states`: a cache it keeps) or gives the network the newest positions alone; a
    method whose driving loop is in a library outside the project (an installed package is
    not read); a network call whose whole figure over its counted runs stays under
    `material-saving-j` (10 kJ) at its point, the predictor's median (greenlint/rules/material.py):
    caching the prefix saves part of that work at most; runs greenlint cannot count, or a figure
    whose data size is unknown, say nothing of it.

    ## Why is this bad?
    The network's work per pass grows with the prefix: decoding n tokens from an empty
    prefix runs it on 1 + 2 + ... + n = n(n + 1)/2 positions where n would do (after a prefix
    of s given tokens, n·s more), and attention on a prefix of length t costs t² besides. For 100 tokens that is 5,050 positions of embedding, attention,
    feed-forward layers and vocabulary projection instead of 100: some fifty times the
    arithmetic, and the energy with it, for the same output. An incremental decoder keeps each
    layer's keys and values (or a recurrent state) of the positions already decoded and runs
    the newest position alone on each pass (a key/value cache; in TF1, a `tf.while_loop` whose
    state holds the cache).

    ## Example
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("decoder.keras")
    seq = np.array([[START]])
    for _ in range(100):
        probs = model.predict(seq, verbose=0)
        seq = np.concatenate([seq, probs[:, -1:].argmax(-1)], axis=1)
    ```

    ## Use instead
    ```python
    import numpy as np
    import tensorflow as tf

    step = tf.keras.models.load_model("decoder_step.keras")  # one position in, its cache in and out
    token, cache = np.array([[START]]), step.initial_cache()
    tokens = [START]
    for _ in range(100):
        probs, cache = step([token, cache])
        token = probs.numpy().argmax(-1)
        tokens.append(int(token[0, 0]))
    ```

    ## Energy evidence
    The saving is, by construction, the positions recomputed: n(n + 1)/2 against n for n decoded
    tokens, less what a cached decoder keeps and reads instead (which depends on the model). The
    pair under bench/rules/ decodes 32 tokens greedily for 8 sequences with an embedding, a
    384-unit GRU and a 2,000-word projection: before, the model is called on the whole prefix
    on every pass (528 positions); after, a step model of the same layers is given the newest
    token and the GRU's state (32 positions). Both make the same tokens from the same weights,
    in as many calls, so the calls' fixed cost is on both sides (see the table).

    ## Fix safety
    No automatic fix: an incremental decoder needs the model's layers to take and return a
    cache.

    ## Options
    - `material-saving-j`
    """

    code = "GL207"
    name = "whole-prefix-decoding"
    MENTIONS = (*GROWS, "class")  # a loop growing its sequence, or a class whose base drives its method
    OPTIONS = (SAVING_OPTION,)
    MESSAGE = (
        "`{call}` runs the network on the whole decoded sequence `{prefix}` on every pass of this loop, which then"
        " grows `{prefix}` by the network's output: each pass recomputes every earlier position (n new tokens after"
        " s given cost n·s + n(n + 1)/2 positions where n would do); keep each layer's keys and values (or its"
        " recurrent state) and run the newest position alone"
    )
    DRIVEN = (
        "`{call}` runs the network on the whole decoded sequence `{given}`, which the loop of `{driver}` grows by"
        " this method's result on every pass and passes back in: each pass recomputes every earlier position (n new tokens"
        " after s given cost n·s + n(n + 1)/2 positions where n would do); keep each layer's keys and values (or its"
        " recurrent state) and run the newest position alone"
    )
    FIX_TITLE = "Decode incrementally: cache the decoded positions' keys and values and run the newest position alone"
    VALID = (
        Valid(  # a hundred counted passes whose whole figure stays under material-saving-j: a cache saves less
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('decoder.keras')\n"
            "seq = np.array([[1]])\nfor _ in range(100):\n    probs = model.predict(seq, verbose=0)\n"
            "    seq = np.concatenate([seq, probs[:, -1:].argmax(-1)], axis=1)\n"
        ),
        Valid(  # an incremental decoder: the newest position and the cache it returned
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('step.keras')\n"
            "seq, cache = start, init\nfor _ in range(100):\n    probs, cache = model([seq[:, -1:], cache])\n"
            "    seq = np.concatenate([seq, probs.numpy().argmax(-1)], axis=1)\n"
        ),
        Valid(  # a recurrent decoder given its state: the newest token alone
            "import tensorflow as tf\nrnn = tf.keras.models.load_model('rnn.keras')\ntokens, state = [start], init\n"
            "for _ in range(100):\n    out, state = rnn([tf.constant([[tokens[-1]]]), state])\n"
            "    tokens.append(int(tf.argmax(out[0, -1])))\n"
        ),
        Valid(  # gradient ascent on an image (DeepDream): `+=` of arithmetic updates it, nothing grows
            "import tensorflow as tf\n\n\ndef render(sess, t_input, t_obj, img0, iter_n=20, step=1.0):\n"
            "    t_score = tf.reduce_mean(t_obj)\n    t_grad = tf.gradients(t_score, t_input)[0]\n"
            "    img = img0.copy()\n    for _ in range(iter_n):\n"
            "        g, _ = sess.run([t_grad, t_score], {t_input: img})\n        img += g * step\n"
            "    return img\n"
        ),
        Valid(  # a window that slides: the same work on every pass
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('f.keras')\n"
            "for _ in range(48):\n    y = model.predict(window, verbose=0)\n"
            "    window = np.concatenate([window[:, 1:], y[:, None]], axis=1)\n"
        ),
        Valid(  # a prefix cut back to a window on every pass
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('f.keras')\n"
            "for _ in range(480):\n    p = model.predict(seq, verbose=0)\n"
            "    seq = np.concatenate([seq, p[:, -1:].argmax(-1)], axis=1)\n    seq = seq[:, -64:]\n"
        ),
        Valid(  # a name that also holds the newest position alone in another branch: an incremental mode
            "import numpy as np\nimport tensorflow as tf\nfor step in range(16000):\n    if fast:\n        window = wave[-1]\n"
            "    else:\n        window = wave\n    p = sess.run(out, feed_dict={x: window})\n"
            "    wave = np.append(wave, np.random.choice(256, p=p))\nsess = tf.compat.v1.Session()\n"
        ),
        Valid(  # the decoded ids padded to a fixed length on every pass: as many positions each time
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nys = start\n"
            "for i in range(10):\n    x = tf.pad(ys, [[0, 0], [0, 10 - ys.shape[1]]])\n"
            "    p = model.predict([src, x])[:, i:i + 1]\n    ys = tf.concat([ys, tf.argmax(p, -1)], axis=1)\n"
        ),
        Valid(  # a functional model built block by block (Inception): each call adds new layers, none runs again
            "from tensorflow.keras import layers\n\n\ndef conv_bn(x, filters):\n"
            "    x = layers.Conv2D(filters, 3, use_bias=False)(x)\n    return layers.BatchNormalization()(x)\n\n\n"
            "x = layers.Input((299, 299, 3))\nfor i in range(4):\n    branch = conv_bn(x, 64)\n"
            "    x = layers.concatenate([x, branch], axis=3)\n"
        ),
        Valid(  # a camera loop: each frame's detections joined from the model's list of outputs (`tf.concat` of a
            # list, no sequence grown) and drawn on that frame, which the next pass replaces by a new one
            "import cv2\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('detector.keras')\n"
            "camera = cv2.VideoCapture(0)\nwhile True:\n    ok, frame = camera.read()\n"
            "    x = tf.image.resize(frame[None], (416, 416))\n    boxes = model(x, training=False)\n"
            "    boxes = tf.concat(boxes, axis=0)\n    frame = draw(frame, boxes)\n    cv2.imshow('boxes', frame)\n"
        ),
        Valid(  # a graph built layer by layer: each pass gathers its heads in a list of its own, which it joins
            # into the next layer's input; no pass runs on what an earlier pass appended
            LAYERED.format(fresh="        heads = []\n")
        ),
        Valid(  # predictions collected, not fed back
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\npreds = np.zeros((0, 10))\n"
            "for batch in batches:\n    preds = np.concatenate([preds, model.predict(batch, verbose=0)], axis=0)\n"
        ),
        Valid(  # a function of the file that runs no network: statistics of the sequence
            "import numpy as np\nimport tensorflow as tf\n\n\ndef score(seq):\n    return tf.reduce_mean(seq, axis=1)\n\n\n"
            "seq = start\nfor _ in range(10):\n    s = score(seq)\n    seq = tf.concat([seq, s[:, None]], axis=1)\n"
        ),
        Valid(  # the subclass reads the state the base's loop hands back: a cache, with the newest token alone
            SEARCH + "class Titles(Decoder):\n    def predict(self, inputs, output_ids, states):\n"
            "        probs, cache = model.predict([output_ids[:, -1:], states])\n        return probs, cache\n"
        ),
        Valid(  # the subclass gives the network the source alone, not the ids the loop grows
            SEARCH + "class Scores(Decoder):\n    def predict(self, inputs, output_ids, states):\n"
            "        return model.predict(inputs), None\n"
        ),
    )
    INVALID = (
        Invalid(  # the heads gathered over every pass, all joined into the next pass's input: the prefix grows
            LAYERED.format(fresh=""), options={"material-saving-j": 0.0}, line=12
        ),
        Invalid(  # the list bound anew only on some passes: the others run on what earlier passes appended
            LAYERED.format(fresh="        if i % 4 == 0:\n            heads = []\n"),
            options={"material-saving-j": 0.0},
            line=14,
        ),
        Invalid(  # near miss of the block builder: the function applies a layer made once, the same each pass
            "import tensorflow as tf\nfrom tensorflow.keras import layers\nhead = layers.Dense(64)\n\n\n"
            "def step(seq):\n    return head(seq)\n\n\n"
            "seq = start\nfor _ in range(500):\n    out = step(seq)\n    seq = tf.concat([seq, out[:, -1:]], axis=1)\n",
            options={"material-saving-j": 0.0},
            line=12,
        ),
        Invalid(  # a TF1 graph decoder built once per position on the growing prefix
            TF1_DECODER + "    def eval(self, xs, memory):\n"
            "        decoder_inputs = tf.ones((tf.shape(xs)[0], 1), tf.int32)\n        ys = (decoder_inputs, xs)\n"
            "        for _ in range(100):\n            logits, y_hat = self.decode(ys, memory)\n"
            "            _decoder_inputs = tf.concat((decoder_inputs, y_hat), 1)\n            ys = (_decoder_inputs, xs)\n"
            "        return y_hat\n",
            line=14,
            message_contains="`self.decode(ys, memory)` runs the network on the whole decoded sequence `_decoder_inputs`",
        ),
        Invalid(  # near miss of the fixed-length pad: a constant width added, so the input still grows
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nys = start\n"
            "for i in range(10):\n    x = tf.pad(ys, [[0, 0], [1, 0]])\n"
            "    p = model.predict(x)[:, -1:]\n    ys = tf.concat([ys, tf.argmax(p, -1)], axis=1)\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # Keras predict on the whole prefix, eager
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('decoder.keras')\n"
            "seq = np.array([[1]])\nfor _ in range(100):\n    probs = model.predict(seq, verbose=0)\n"
            "    seq = np.concatenate([seq, probs[:, -1:].argmax(-1)], axis=1)\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a list of tokens appended to and given whole to a model the file makes
            "import numpy as np\nimport tensorflow as tf\ngpt = tf.keras.Model(inputs, outputs)\ntokens = [1]\n"
            "while len(tokens) < 64:\n    logits = gpt(np.array([tokens]), training=False)\n"
            "    tokens.append(int(np.argmax(logits[0, -1])))\n",
            line=6,
        ),
        Invalid(  # the network's call nested in the growing statement itself
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('decoder.keras')\ntokens = [1]\n"
            "for _ in range(50):\n    tokens += [int(model.predict(np.array([tokens]), verbose=0)[0, -1].argmax())]\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a beam search the base class drives: the subclass joins the ids to the source, runs it all
            SEARCH + "class Titles(Decoder):\n    def predict(self, inputs, output_ids, states):\n"
            "        token_ids = np.concatenate([inputs, output_ids], 1)\n"
            "        return model.predict(token_ids), None\n",
            line=22,
            message_contains="the whole decoded sequence `output_ids`, which the loop of `Decoder.beam_search` grows",
        ),
        Invalid(  # rows picked by beam on a join along the positions' axis: the sequence still grows
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('lm.keras')\n"
            "ids = np.zeros((4, 1), dtype=int)\nfor _ in range(32):\n    p = model.predict(ids, verbose=0)[:, -1]\n"
            "    beams = p.argmax(-1)\n    ids = np.concatenate([ids[beams % 4], beams[:, None]], axis=1)\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if any(word in facts.text for word in GROWS):
            for found in decoding_loops(facts):
                if not _immaterial(facts, found.run, found.cell, options):
                    message = self.MESSAGE.format(call=ast.unparse(found.run), prefix=found.prefix)
                    yield self.diagnostic(_span(facts, found.run, found.cell), facts.path, message)
        for driven in driven_decodings(facts):
            if not _immaterial(facts, driven.run, driven.cell, options):
                message = self.DRIVEN.format(call=ast.unparse(driven.run), given=driven.given, driver=driven.driver)
                yield self.diagnostic(_span(facts, driven.run, driven.cell), facts.path, message)


def _immaterial(facts: FileFacts, call: ast.Call, cell: int | None, options: Mapping[str, Any]) -> bool:
    """The network call is a site whose whole work over its counted runs, the most that caching
    the prefix saves, is not material (`immaterial_work`); a call greenlint lists no site for
    (a function of the file) says nothing."""
    site = facts.site_at(call, cell)
    return site is not None and immaterial_work(facts, site, options)


def _span(facts: FileFacts, call: ast.Call, cell: int | None) -> Span:
    """The call's site's span, else the call's own."""
    site = facts.site_at(call, cell)
    return site.callsite.span if site is not None else facts.span(call, cell)
