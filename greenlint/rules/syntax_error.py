"""GL001 syntax-error: a file greenlint cannot parse (reported by the pipeline)."""

from __future__ import annotations

import json

from greenlint.rules.base import Invalid, Rule, Valid


class InvalidSyntax(Rule):
    """
    ## What it does
    Reports a Python file, or a notebook code cell, that does not parse. Nothing else is
    checked in that file (or cell), so its energy findings are missing until it is fixed. It is
    reported whatever the selection (`--select`, `ignore`), as ruff reports syntax errors. It is
    a notice about the analysis, not an energy finding: a notebook's cells that do not parse
    are skipped, the other cells analysed, and said once, at the first such cell, with the
    list of the others; the command line and the editor report the same one. A cell that does
    not parse only because an exercise left blanks for the student (`batch_size = `, a body
    that is only `# YOUR CODE HERE`) is not a GL001 but a GL004, off by default. A Python 2
    module (`print loss`, `except IOError, e:`) is read as Python 3, its calls where the file
    has them, and is no GL001.

    ## Why is this bad?
    A file greenlint cannot parse is a file it cannot see into: any hotspot in it goes
    unreported. The rest of the run goes on.

    ## Example
    ```python
    def train(:
        pass
    ```

    ## Use instead
    ```python
    def train():
        pass
    ```

    ## Energy evidence
    None: this reports that the analysis could not run.

    ## Fix safety
    No automatic fix.

    ## Options
    None.
    """

    code = "GL001"
    name = "syntax-error"
    SEVERITY = "error"
    MESSAGE = "cannot parse: {detail}"
    FIX_TITLE = "Fix the syntax error"
    VALID = (
        Valid("import tensorflow as tf\nx = tf.constant(1)\n"),
        Valid(  # an exercise's blank: a GL004
            json.dumps({"cells": [{"cell_type": "code", "source": "import tensorflow as tf\nbatch_size = \n"}]}),
            filename="exercise.ipynb",
        ),
    )
    INVALID = (
        Invalid("import tensorflow as tf\ndef train(:\n    tf.constant(1)\n"),
        Invalid("import tensorflow as tf\nbatch_size = \n"),  # a script's blank is an error: it is no exercise cell
    )
