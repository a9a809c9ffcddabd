"""Functions a web server runs once per request (analysis/served.py): a route handler, and the
functions of a module beside it that a handler calls, run as often as requests come."""

from __future__ import annotations

import os
import textwrap

from greenlint.analysis.analyse import analyse_file
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


def loads(tmp_path, server: str) -> dict[str, dict]:
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
    assert found["process"]["loop"] is None and found["process"]["count"] is None
    assert found["process"]["request"] == "the route handler `classify` of server.py"
    assert "once per web request" in found["process"]["note"]
    assert found["warm_up"]["loop"] == 1 and "request" not in found["warm_up"]  # called once, at import
    assert import_roots(os.fspath(tmp_path / "web"))[-1] == os.fspath(tmp_path / "web")


def test_no_request_without_a_web_application_routing_to_the_caller(tmp_path):
    """The same calls from a function decorated by another object's `route`, or from a Flask module's
    plain function, run as their callers are counted."""
    other = SERVER.replace("app = Flask(__name__)", "app = Registry()")
    plain = SERVER.replace('@app.route("/classify", methods=["POST"])\n', "")
    for server in (other, plain):
        found = loads(tmp_path, server)
        assert found["process"]["loop"] == 1 and "request" not in found["process"], server
        for path in (tmp_path / "web").iterdir():
            path.unlink()
        (tmp_path / "web").rmdir()
