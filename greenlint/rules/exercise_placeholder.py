"""GL004 exercise-placeholder: a notebook cell left blank for the student (reported by the pipeline; off by default)."""

from __future__ import annotations

from greenlint.rules.base import Invalid, Rule, Valid, notebook


class ExercisePlaceholder(Rule):
    """
    ## What it does
    Reports a notebook code cell that is an exercise's placeholder: it does not parse only
    because blanks are left for the student to fill in, an assignment or keyword argument with
    nothing on its right side (`image_gen = `, `epochs=`), or a `def`/`for`/`if` whose body is
    only a comment (`# YOUR CODE HERE`). The test is the parser's: filling each blank with
    `...` makes the cell parse. Like GL001 the cell is skipped and the other cells analysed,
    and said once, at the first such cell. Off by default: the blanks are there on purpose,
    and they waste no energy; turn it on (`--extend-select GL004`) to hear which cells a check
    of an exercise notebook did not read. A cell with any other error is a GL001.

    ## Why is this bad?
    It is not: the cell is unfinished on purpose. Greenlint cannot see into it until it is
    filled in, so its energy findings are missing until then.

    ## Example
    ```python
    # a cell of an exercise notebook:
    # image_gen =
    # train_data_gen =
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    image_gen = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1.0 / 255)
    ```

    ## Energy evidence
    None: this reports that the analysis could not run.

    ## Fix safety
    No automatic fix.

    ## Options
    None.
    """

    code = "GL004"
    name = "exercise-placeholder"
    SEVERITY = "info"
    DEFAULT_ENABLED = False
    MESSAGE = "exercise placeholder: {detail}"
    FIX_TITLE = "Fill in the exercise"
    VALID = (
        Valid(notebook("import tensorflow as tf\n", "x = tf.ones(2)\n"), filename="done.ipynb"),
        Valid(notebook("import tensorflow as tf\n", "def train(:\n    pass\n"), filename="broken.ipynb"),  # a GL001
        Valid(notebook("import tensorflow as tf\n", "if ready:\nx = tf.ones(2)\n"), filename="indent.ipynb"),  # a GL001
        Valid("import tensorflow as tf\nimage_gen = \n"),  # a script with a blank is broken, not an exercise: GL001
    )
    INVALID = (
        Invalid(notebook("import tensorflow as tf\n", "image_gen = \ntrain_data_gen = \n"), filename="exercise.ipynb"),
        Invalid(
            notebook("import tensorflow as tf\n", "def build():\n    # YOUR CODE HERE\n", "model.fit(x, epochs=)\n"),
            filename="exercise.ipynb",
            message_contains="2 code cells are an exercise's blanks and are skipped (cells 2, 3)",
        ),
    )
