"""GL503 leaving out what a project function does in a branch its tests on its parameters never take,
every call in the project leaving them at their defaults (greenlint.rules.constant_branches.untaken): a
sampler whose per-item loop runs only when a caller asks for labels, and none does."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

PRIOR = (
    "import numpy as np\n\n\ndef gaussian(batch_size, n_dim, use_label_info=False):\n    if use_label_info:\n"
    "        z = np.empty((batch_size, n_dim))\n        for b in range(batch_size):\n"
    "            z[b] = sample_on_circle(b)\n        return z\n"
    "    return np.random.normal(0, 1, (batch_size, n_dim)).astype(np.float32)\n"
)
TRAIN = (
    "import numpy as np\nimport tensorflow as tf\nimport prior\n"
    "sess = tf.compat.v1.Session()\nfor step in range(10000):\n"
    "    batch_z = prior.gaussian(64, {args})\n"
    "    sess.run(optim, feed_dict={{inputs: data[step * 64:(step + 1) * 64], z: batch_z}})\n"
)


def _gl503(tmp_path, predictor, args: str, others: dict[str, str] | None = None) -> list[int]:
    files = {"prior.py": PRIOR, "train.py": TRAIN.format(args=args), **(others or {})}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL503")]


def test_a_branch_no_call_in_the_project_asks_for_is_no_host_work(tmp_path, predictor):
    sampled = "import prior\nz_sample = prior.gaussian(64, 62)\n"
    assert _gl503(tmp_path, predictor, "62", {"sample.py": sampled}) == []


@pytest.mark.parametrize(
    "args, others",
    [
        ("2, use_label_info=True", None),  # the loop's own call takes the branch
        ("2, True", None),  # by position
        ("2", {"plot.py": "import prior\nz, ids = prior.gaussian(64, 2, use_label_info=True)\n"}),  # another module's
        ("2", {"plot.py": "import prior\nsampler = prior.gaussian\n"}),  # handed on: its calls are not seen
        ("2, **options", None),  # spread: what it passes is not known
    ],
)
def test_a_branch_some_call_may_take_keeps_the_finding(tmp_path, predictor, args, others):
    assert _gl503(tmp_path, predictor, args, others) == [7]
