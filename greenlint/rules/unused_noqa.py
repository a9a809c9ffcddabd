"""GL003 unused-noqa: a `# noqa` comment that suppresses nothing (off by default)."""

from __future__ import annotations

from greenlint.rules.base import Invalid, Rule, Valid


class UnusedNoqa(Rule):
    """
    ## What it does
    Reports a `# noqa: GLxxx` comment naming a greenlint code that no diagnostic on that line
    matches. Off by default; turn it on with `--select GL003` or `extend-select = ["GL003"]`.
    Codes of other tools (`E501`, `F401`) and bare `# noqa` are left alone.

    ## Why is this bad?
    A stale suppression hides the next real finding on that line, for example a hotspot that
    appears after the code around it changed.

    ## Example
    ```python
    import tensorflow as tf

    x = tf.constant(1.0)  # noqa: GL101
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    x = tf.constant(1.0)
    ```

    ## Energy evidence
    None: this is about suppression comments.

    ## Fix safety
    No automatic fix yet.

    ## Options
    None.
    """

    code = "GL003"
    name = "unused-noqa"
    DEFAULT_ENABLED = False
    MESSAGE = "unused `noqa` code(s): {codes}"
    FIX_TITLE = "Remove the unused code(s) from the noqa comment"
    VALID = (Valid("import tensorflow as tf\nx = tf.constant(1.0)  # noqa: E501\n"),)
    INVALID = (
        Invalid(
            "import tensorflow as tf\nx = tf.constant(1.0)  # noqa: GL101\n",
            options={"select": ["GL003"]},
            line=2,
            message_contains="GL101",
        ),
    )
