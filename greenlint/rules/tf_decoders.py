"""TensorFlow ops that decode or parse file contents: milliseconds of host work per element in a
`tf.data` map (GL408 reports them decoded again every epoch, GL402 a stateful map doing them)."""

from __future__ import annotations

import re

#: TensorFlow ops that decode or parse bytes read from files (`tf.io.decode_jpeg`,
#: `tf.image.decode_png`, `tf.audio.decode_wav`, `tf.io.parse_single_example`, ...).
DECODER = re.compile(r"^tensorflow\.(compat\.v1\.)?(io|image|audio)\.(decode_\w+|parse_\w*example|parse_tensor)$")
