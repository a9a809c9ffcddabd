"""GL503 following a feed dict a project module's function assembles (greenlint.rules.assembled): gcn's
shape, `from utils import *` and a full-batch loop feeding `construct_feed_dict(features, ...)` on every
epoch, timed per epoch for its log."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

TRAIN = (
    "import time\nimport tensorflow as tf\nfrom utils import *\n"
    "sess = tf.compat.v1.Session()\nfor epoch in range(200):\n    t = time.time()\n"
    "    feed_dict = construct_feed_dict(features, y_train, train_mask, placeholders)\n"
    "    feed_dict.update({placeholders['dropout']: 0.5})\n"
    "    outs = sess.run([model.opt_op, model.loss], feed_dict=feed_dict)\n"
    "    print(epoch, outs[1], time.time() - t)\n"
)
ASSEMBLES = (
    "def construct_feed_dict(features, labels, labels_mask, placeholders):\n"
    "    feed_dict = dict()\n    feed_dict.update({placeholders['labels']: labels})\n"
    "    feed_dict.update({placeholders['labels_mask']: labels_mask})\n"
    "    feed_dict.update({placeholders['features']: features})\n"
    "    feed_dict.update({placeholders['support'][i]: features[i] for i in range(len(features))})\n"
    "    feed_dict.update({placeholders['num_features_nonzero']: features[1].shape})\n"
    "    return feed_dict\n"
)


def _gl503(tmp_path, predictor, utils: str, train: str = TRAIN) -> list[int]:
    files = {"utils.py": utils, "train.py": train}
    options = {"material-saving-j": 0.0}  # the fake predictor's fixed figure is no GCN's: materiality aside
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "train.py", "GL503", options)]


def test_the_same_arrays_assembled_by_a_project_function_each_epoch_are_reported(tmp_path, predictor):
    assert _gl503(tmp_path, predictor, ASSEMBLES) == [9]


@pytest.mark.parametrize(
    "utils",
    [
        ASSEMBLES.replace("    return feed_dict\n", "    feed_dict.update({placeholders['z']: np.random.rand(64)})\n"
                          "    return feed_dict\n"),  # a draw: other values on each call
        ASSEMBLES.replace("features[1].shape", "BATCHES.pop()"),  # a module's state, changed by each call
        "from elsewhere import construct_feed_dict\n",  # not defined in the project: not read
    ],
)
def test_a_function_whose_result_may_change_between_calls_is_not_the_same_feed(tmp_path, predictor, utils):
    assert _gl503(tmp_path, predictor, utils) == []


def test_a_latency_benchmark_that_drops_its_results_stays_unreported(tmp_path, predictor):
    timed = TRAIN.replace("    outs = sess.run(", "    sess.run(").replace("    print(epoch, outs[1], time.time() - t)\n",
                                                                            "    print(epoch, time.time() - t)\n")
    assert _gl503(tmp_path, predictor, ASSEMBLES, timed) == []
