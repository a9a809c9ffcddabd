"""The notebook line mapping of `python -m tools.kb.call_site_recall`."""

from __future__ import annotations

import json

from tools.kb.call_site_recall import code_lines


def test_code_cells_lines_without_comments_and_magics():
    notebook = json.dumps({"cells": [
        {"cell_type": "code", "source": ["#@title Licence\n", "# more\n"]},
        {"cell_type": "markdown", "source": ["text"]},
        {"cell_type": "code", "source": ["!pip install tf\n", "import tensorflow as tf\n", "\n", "x = 1  # kept\n"]},
        {"cell_type": "code", "source": "%matplotlib inline\n  # indented comment\nmodel.fit(x)"},
    ]})
    # a cell's source is split at newlines: one ending in a newline ends with an empty line
    assert code_lines(notebook) == [(1, 3), (2, 2), (2, 3), (2, 4), (2, 5), (3, 3)]
