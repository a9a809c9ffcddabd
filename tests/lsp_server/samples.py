"""The small TF/Keras documents the e2e tests open (kept as text: the tests write them into a workspace)."""

TRAIN = '''\
import tensorflow as tf
import numpy as np; x_train = np.zeros((700, 32)); y_train = np.zeros(700)
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
for trial in range(4):
    model.fit(x_train, y_train, epochs=20)
model.fit(x_train, y_train, batch_size=2, epochs=1)
label = "énergie 😀"; zeros = tf.zeros((2, 2))
'''

#: TRAIN with fifty times the trials: its loop's fits reach `material-saving-j` (10 kJ) even at the
#: low end of their figure, as GL101 asks, under the default settings, where TRAIN's four are
#: immaterial (greenlint/rules/material.py).
MATERIAL_TRAIN = TRAIN.replace("range(4)", "range(200)")

#: A notebook's cells: (kind, text). Cells share one namespace; the markdown cell is not code.
NOTEBOOK = (
    ("code", "import tensorflow as tf\nimport numpy as np; x_train = np.zeros((700, 32)); y_train = np.zeros(700)\n"),
    ("markdown", "# Training\nmodel.fit(x) in prose is not code."),
    ("code", 'model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile(optimizer="adam", loss="mse")'),
    (
        "code",
        "for trial in range(4):\n    model.fit(x_train, y_train, epochs=20)\n"
        "model.fit(x_train, y_train, batch_size=2, epochs=1)",
    ),
)


def predicted(text: str, line: int, api: str):
    """The prediction for the `api` call on 1-based `line` of `text`, from the resolver's features and work."""
    from greenlint.analysis.analyse import analyse_source
    from greenlint.predict import load_predictor
    from greenlint.predict.site_predictions import with_work

    site = next(s for s in analyse_source(text, path="sample.py").callsites if s.span.line == line and s.api == api)
    return load_predictor().predict(api, with_work(site.features, site.work))
