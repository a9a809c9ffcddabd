"""GL207 on a decoding loop a project base class drives (greenlint.rules.decoding.driven_decodings):
the library module's search grows the ids by what the example's `predict` override returns, and
the override runs the network on the whole of them (bert4keras' `AutoRegressiveDecoder`)."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

SNIPPETS = (
    "import numpy as np\n\n\nclass AutoRegressiveDecoder:\n"
    "    def predict(self, inputs, output_ids, states=None):\n        raise NotImplementedError\n\n"
    "    def beam_search(self, inputs, topk, states=None):\n        output_ids = np.empty((1, 0), dtype=int)\n"
    "        for step in range(self.maxlen):\n            scores, states = self.predict(inputs, output_ids, states)\n"
    "            indices = scores.argpartition(-topk, axis=None)[-topk:]\n"
    "            output_ids = np.concatenate([output_ids[indices // scores.shape[1]], "
    "(indices % scores.shape[1]).reshape((-1, 1))], 1)\n"
    "            flag = output_ids[:, -1] != 2\n            if not flag.all():\n"
    "                output_ids = output_ids[flag]\n        return output_ids[0]\n"
)
TITLES = (
    "import numpy as np\nimport tensorflow as tf\nfrom bert4keras.snippets import AutoRegressiveDecoder\n"
    "model = tf.keras.models.load_model('unilm.keras')\n\n\nclass AutoTitle(AutoRegressiveDecoder):\n"
    "    def predict(self, inputs, output_ids, states):\n        token_ids, segment_ids = inputs\n"
    "        token_ids = np.concatenate([token_ids, output_ids], 1)\n"
    "        segment_ids = np.concatenate([segment_ids, np.ones_like(output_ids)], 1)\n"
    "        return model.predict([token_ids, segment_ids])\n\n"
    "    def generate(self, ids, segments):\n        return self.beam_search([ids, segments], topk=1)\n"
)


def _gl207(tmp_path, predictor, titles=TITLES, snippets=SNIPPETS) -> list:
    files = {"setup.py": "", "bert4keras/__init__.py": "", "bert4keras/snippets.py": snippets, "examples/titles.py": titles}
    return check_in_project(tmp_path, predictor, files, "examples/titles.py", "GL207")


def test_the_override_a_project_base_class_loops_over_runs_the_whole_prefix(tmp_path, predictor):
    (found,) = _gl207(tmp_path, predictor)
    assert found.span.line == 12
    assert "whole decoded sequence `output_ids`, which the loop of `AutoRegressiveDecoder.beam_search`" in found.message


@pytest.mark.parametrize(
    ("titles", "snippets"),
    [
        (TITLES.replace("[token_ids, output_ids]", "[token_ids, output_ids[:, -1:]]").replace(
            "np.ones_like(output_ids)", "np.ones_like(output_ids[:, -1:])"), SNIPPETS),
        (TITLES.replace("model.predict([token_ids, segment_ids])", "model.predict([token_ids, states])"), SNIPPETS),
        (TITLES, SNIPPETS.replace("output_ids = np.concatenate([output_ids[", "output_ids = np.concatenate([output_ids[:, 1:][")),
        (TITLES.replace("from bert4keras.snippets", "from installed_lib.snippets"), SNIPPETS),
    ],
    ids=["newest-position", "reads-the-state", "window-slides", "library-not-in-project"],
)
def test_no_finding_where_the_driven_step_is_incremental_or_the_loop_unread(tmp_path, predictor, titles, snippets):
    assert _gl207(tmp_path, predictor, titles, snippets) == []
