"""A network object a script builds in one branch of an `if`/`elif` of project classes, handed to a
training function of a `lib/` module (found through the folder an imported `_init_paths` puts on
`sys.path` with its `add_path` helper) and kept by a solver as `self.net`: the network's method that
runs a session (`train_step`) is a call site where the solver calls it (a wrapper's: wrappers.py),
counted by the solver's loop. A parameter the scripts bind to different kinds of objects, a branch
binding something else, or a method of an unrelated class so named types nothing."""

from __future__ import annotations

from greenlint.analysis import path_edits
from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.project import project_index

NETWORK = """\
import tensorflow as tf


class Network(object):
    def build(self):
        self._image = tf.compat.v1.placeholder(tf.float32, [1, 32, 32, 3])
        self._loss = tf.reduce_mean(tf.compat.v1.layers.dense(self._image, 10))
        return self._loss

    def train_step(self, sess, blobs, train_op):
        loss, _ = sess.run([self._loss, train_op], feed_dict={self._image: blobs["data"]})
        return loss


class Small(Network):
    pass


class Large(Network):
    def __init__(self, layers=50):
        self.layers = layers
"""
LOGGER = """\
class Logger(object):
    def build(self):
        return 0.0

    def train_step(self, sess, blobs, train_op):
        print(blobs)
"""
SOLVER = """\
import tensorflow as tf


class Solver(object):
    def __init__(self, sess, network):
        self.net = network

    def train_model(self, sess, max_iters):
        loss = self.net.build()
        train_op = tf.compat.v1.train.MomentumOptimizer(0.001, 0.9).minimize(loss)
        for it in range(max_iters):
            self.net.train_step(sess, {"data": None}, train_op)


def train_net(network, max_iters=400):
    with tf.compat.v1.Session() as sess:
        sw = Solver(sess, network)
        sw.train_model(sess, max_iters)
"""
STEP = 12  # the line of `self.net.train_step(...)`
INIT_PATHS = """\
import os.path as osp
import sys


def add_path(path):
    if path not in sys.path:
        sys.path.insert(0, path)


add_path(osp.join(osp.dirname(__file__), "..", "lib"))
"""
PICKED = """\
import _init_paths
from model.solver import train_net
from nets.network import Small, Large
import sys
import tensorflow as tf

if __name__ == "__main__":
    if sys.argv[1] == "small":
        net = Small()
    elif sys.argv[1] == "large":
        net = Large(layers=101)
    else:
        raise NotImplementedError
    train_net(net)
"""


def project(tmp_path, monkeypatch, *scripts: str):
    """A repository: `lib/` with its own setup.py (a Cython build's), its modules, and *scripts* in
    `tools/` beside `_init_paths.py`, checked from elsewhere."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "lib" / "model").mkdir(parents=True, exist_ok=True)
    (tmp_path / "lib" / "nets").mkdir(exist_ok=True)
    (tmp_path / "lib" / "setup.py").write_text("from distutils.core import setup\n")
    (tmp_path / "lib" / "nets" / "network.py").write_text(NETWORK)
    (tmp_path / "lib" / "nets" / "logger.py").write_text(LOGGER)
    (tmp_path / "lib" / "model" / "solver.py").write_text(SOLVER)
    (tmp_path / "tools").mkdir(exist_ok=True)
    (tmp_path / "tools" / "_init_paths.py").write_text(INIT_PATHS)
    for i, script in enumerate(scripts):
        (tmp_path / "tools" / f"train{i}.py").write_text(script)
    monkeypatch.chdir(tmp_path.parent)
    project_index().refresh()


def step_sites(tmp_path) -> list:
    return [s for s in analyse_file(tmp_path / "lib" / "model" / "solver.py").callsites if s.span.line == STEP]


def test_a_network_picked_in_a_script_is_trained_where_the_solver_calls_its_step(tmp_path, monkeypatch):
    project(tmp_path, monkeypatch, PICKED)
    [site] = step_sites(tmp_path)
    assert site.api == "tensorflow.compat.v1.Session.run" and site.features["receiver"] == "wrapper"
    assert "network.py" in site.features["via"]
    assert site.work["step"].value == "training"
    assert (site.runs.count, site.runs.bound) == (400, "exact")  # the solver's loop, `max_iters` as passed


def test_a_branch_binding_another_kind_types_nothing(tmp_path, monkeypatch):
    """One branch binds a project class with no such method spending work, or a literal: the
    parameter is not one of them."""
    logged = PICKED.replace("from nets.network import Small, Large", "from nets.network import Small\nfrom nets.logger import Logger")
    project(tmp_path, monkeypatch, logged.replace("Large(layers=101)", "Logger()"))
    assert step_sites(tmp_path) == []
    project(tmp_path, monkeypatch, PICKED.replace("Large(layers=101)", "None"))
    assert step_sites(tmp_path) == []


def test_two_scripts_passing_different_kinds_type_nothing(tmp_path, monkeypatch):
    other = PICKED.replace("from nets.network import Small, Large", "from nets.logger import Logger") \
        .replace("Small()", "Logger()").replace("Large(layers=101)", "Logger()")
    project(tmp_path, monkeypatch, PICKED, other)
    assert step_sites(tmp_path) == []


def test_a_method_of_an_unrelated_class_so_named_is_no_site(tmp_path, monkeypatch):
    logged = PICKED.replace("from nets.network import Small, Large", "from nets.logger import Logger") \
        .replace("Small()", "Logger()").replace("Large(layers=101)", "Logger()")
    project(tmp_path, monkeypatch, logged)
    assert step_sites(tmp_path) == []


def test_without_the_path_helper_the_lib_module_is_not_found(tmp_path, monkeypatch):
    project(tmp_path, monkeypatch, PICKED.replace("import _init_paths\n", ""))
    assert step_sites(tmp_path) == []


def test_path_edits_through_a_helper_and_an_imported_module(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "_init_paths.py").write_text(INIT_PATHS)
    lib = str(tmp_path / "lib")
    init = tmp_path / "tools" / "_init_paths.py"
    assert path_edits.edits(str(init), INIT_PATHS) == (path_edits.PathEdit(10, lib, True),)
    script = str(tmp_path / "tools" / "run.py")
    assert path_edits.edits(script, "import os\nimport _init_paths\nimport model\n") == (path_edits.PathEdit(2, lib, True),)
    # a helper putting something other than its parameter on the path, an import of another folder's module
    other = INIT_PATHS.replace("sys.path.insert(0, path)", "sys.path.insert(0, '/opt')")
    assert path_edits.edits(str(init), other) == ()
    assert path_edits.edits(script, "import pkg._init_paths\nimport model\n") == ()


SOLVED_IN_LOOP = """\
def detect(sess, net, im):
    return net.train_step(sess, {"data": im}, None)


def nms(boxes):
    \"\"\"Suppresses the boxes found by the
    test method.\"\"\"
    return boxes


def test(sess, net, images):
    for im in images:
        detect(sess, net, im)
"""


def test_a_function_called_from_one_put_off_itself_waits_for_that_walk(tmp_path, monkeypatch):
    """`test` is named on a docstring's second line (its walk put off once): `detect`, which it calls, is walked after it,
    with the network `test` is given."""
    script = PICKED.replace("model.solver import train_net", "model.tester import test") \
        .replace("train_net(net)", "test(tf.compat.v1.Session(), net, [1, 2, 3])")
    project(tmp_path, monkeypatch, script)
    (tmp_path / "lib" / "model" / "tester.py").write_text(SOLVED_IN_LOOP)
    project_index().refresh()
    [site] = [s for s in analyse_file(tmp_path / "lib" / "model" / "tester.py").callsites if s.span.line == 2]
    assert site.api == "tensorflow.compat.v1.Session.run" and site.runs.count == 3
