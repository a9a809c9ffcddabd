"""Functions a web server runs once per request (analysis/served.py): a route handler, and the
functions of a module beside it that a handler calls, run as often as requests come."""

from __future__ import annotations

import os
import textwrap

from greenlint.analysis.analyse import analyse_file
from greenlint.analysis.callsite import Runs
from greenlint.analysis.project import import_roots

PROCESSOR = """
import tensorflow as tf

def process(image):
    model = tf.keras.models.load_model("m.keras")
    return model.predict(image)

def warm_up():
    return tf.keras.models.load_model("m.keras")
"""

SERVER = """
from flask import Flask, request
import processor as proc

app = Flask(__name__)
proc.warm_up()

@app.route("/classify", methods=["POST"])
def classify():
    return proc.process(request.files["image"].read())
"""


def loads(tmp_path, server: str) -> dict[str, Runs]:
    """The runs of processor.py's two loads (in `process` and `warm_up`), with *server* beside it in
    a package folder (a script run from there, its folder first on sys.path)."""
    web = tmp_path / "web"
    web.mkdir()
    (web / "__init__.py").write_text("")
    (web / "processor.py").write_text(textwrap.dedent(PROCESSOR).lstrip("\n"))
    (web / "server.py").write_text(textwrap.dedent(server).lstrip("\n"))
    result = analyse_file(web / "processor.py")
    found = {s.span.line: s.runs for s in result.callsites if s.api.endswith("load_model")}
    return {"process": found[4], "warm_up": found[8]}


def test_a_function_a_route_handler_beside_calls_runs_per_request(tmp_path):
    found = loads(tmp_path, SERVER)
    assert found["process"].loop is None and found["process"].count is None
    assert found["process"].request == "the route handler `classify` of server.py"
    assert "once per web request" in found["process"].note
    assert found["warm_up"].loop == 1 and found["warm_up"].request is None  # called once, at import
    assert import_roots(os.fspath(tmp_path / "web"))[-1] == os.fspath(tmp_path / "web")


def test_no_request_without_a_web_application_routing_to_the_caller(tmp_path):
    """The same calls from a function decorated by another object's `route`, or from a Flask module's
    plain function, run as their callers are counted."""
    other = SERVER.replace("app = Flask(__name__)", "app = Registry()")
    plain = SERVER.replace('@app.route("/classify", methods=["POST"])\n', "")
    for server in (other, plain):
        found = loads(tmp_path, server)
        assert found["process"].loop == 1 and found["process"].request is None, server
        for path in (tmp_path / "web").iterdir():
            path.unlink()
        (tmp_path / "web").rmdir()


def test_the_handler_s_module_is_the_one_its_import_finds(tmp_path):
    """The names a server binds to processor.py are found as the resolver finds its imports: a
    relative import of the module or an aliased one of its function is processor.py's; the same
    names imported from another folder's processor.py are not."""
    relative = SERVER.replace("import processor as proc", "from . import processor as proc")
    aliased = SERVER.replace("import processor as proc", "from processor import process as run, warm_up").replace(
        "proc.warm_up()", "warm_up()").replace("proc.process(", "run(")
    for server in (relative, aliased):
        found = loads(tmp_path, server)
        assert found["process"].request == "the route handler `classify` of server.py", server
        for path in (tmp_path / "web").iterdir():
            path.unlink()
        (tmp_path / "web").rmdir()
    other = tmp_path / "other"
    other.mkdir()
    (other / "__init__.py").write_text("")
    (other / "processor.py").write_text("def process(image):\n    return image\n")
    # an importer of processor.py (its warm-up) whose handler calls the other folder's `process`
    elsewhere = aliased.replace("from processor import process as run, warm_up", "from processor import warm_up\n"
                                "from other.processor import process as run")
    found = loads(tmp_path, elsewhere)
    assert found["process"].request is None and found["process"].loop == 1
