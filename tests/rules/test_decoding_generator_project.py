"""GL409 on a batch a training loop fills item by item through a project module's decoding helper: the
finding names the helper's file, where the decode is, whatever the arguments the call gives it."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

LOADER = (
    "import numpy as np\nimport scipy.misc\n"
    "def get_img(src, img_size=False):\n    img = scipy.misc.imread(src, mode='RGB')\n"
    "    if img_size != False:\n        img = scipy.misc.imresize(img, img_size)\n    return img\n"
)
TRAIN = (
    "import numpy as np\nimport tensorflow as tf\nimport imgutils\n"
    "x = tf.compat.v1.placeholder(tf.float32, [None, 256, 256, 3])\n"
    "train = tf.compat.v1.train.AdamOptimizer().minimize(tf.reduce_mean(tf.compat.v1.layers.dense(x, 1)))\n"
    "sess = tf.compat.v1.Session()\nfor epoch in range(2):\n    for i in range(0, len(paths), 4):\n"
    "{fill}"
    "        sess.run(train, feed_dict={{x: batch}})\n"
)
FILLS = {
    "preallocated": "        batch = np.zeros((4, 256, 256, 3), dtype=np.float32)\n"
    "        for j, p in enumerate(paths[i:i + 4]):\n            batch[j] = imgutils.get_img(p, (256, 256, 3))\n",
    "appended": "        batch = []\n        for p in paths[i:i + 4]:\n"
    "            batch.append(imgutils.get_img(p, (256, 256, 3)))\n",
}


@pytest.mark.parametrize("fill", sorted(FILLS))
def test_the_decode_is_named_in_the_helpers_file(tmp_path, predictor, fill):
    files = {"imgutils.py": LOADER, "train.py": TRAIN.format(fill=FILLS[fill])}
    found = check_in_project(tmp_path, predictor, files, "train.py", "GL409")
    assert [d.span.line for d in found] == [11]
    assert "(`scipy.misc.imread` (imgutils.py line 4))" in found[0].message
