"""Edge cases of a check run: special files, PEP 263 cookies, file errors under --select,
bad thresholds, and GL003 under --select."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from greenlint.check.config import ConfigError, parse_table
from greenlint.check.pipeline import run_check

#: A GL301 (batch_size=2) for the real resolver and for the fake one (tests/check/fakes.py) alike.
TF_FIT = "import tensorflow as tf\ntf.keras.Sequential().fit(x, y, batch_size=2)\n"


def _codes(result) -> set[tuple[str, str]]:
    return {(Path(d.path).name, d.code) for d in result.diagnostics}


@pytest.mark.timeout(60)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
def test_fifos_and_sockets_are_reported_never_opened(tmp_path, config, fake_backend):
    (tmp_path / "ok.py").write_text(TF_FIT)
    os.mkfifo(tmp_path / "pipe.py")  # opening it for reading would wait for a writer forever
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock.py"))
    try:
        walked = run_check([tmp_path], config)
        named = run_check([tmp_path / "pipe.py", tmp_path / "sock.py"], config)
    finally:
        server.close()
    for result in (walked, named):
        special = [d for d in result.errors if Path(d.path).name in ("pipe.py", "sock.py")]
        assert [d.code for d in special] == ["GL002", "GL002"]
        assert all("not a regular file" in d.message for d in special)
    assert ("ok.py", "GL301") in _codes(walked)


@pytest.mark.timeout(60)
@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_a_device_named_on_the_command_line_is_a_gl002(config, fake_backend):
    result = run_check(["/dev/null"], config)
    assert [(d.code, "not a regular file" in d.message) for d in result.diagnostics] == [("GL002", True)]


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "utf-8"])
def test_a_pep_263_cookie_is_honoured(tmp_path, config, encoding):
    text = f"# -*- coding: {encoding} -*-\ns = 'café'\n" + TF_FIT
    (tmp_path / "cookie.py").write_bytes(text.encode(encoding))
    result = run_check([tmp_path / "cookie.py"], config)
    assert ("cookie.py", "GL301") in _codes(result) and not result.errors
    assert "café" in next(iter(result.sources.values()))  # shown as Python reads it


def test_an_unknown_or_contradicted_cookie_is_a_gl002_naming_it(tmp_path, config):
    (tmp_path / "unknown.py").write_bytes(b"# coding: klingon\n" + TF_FIT.encode())
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf# coding: latin-1\n" + TF_FIT.encode())
    (tmp_path / "wrong.py").write_bytes(b"# coding: ascii\ns = '\xe9'\n" + TF_FIT.encode())
    result = run_check([tmp_path], config)
    messages = {Path(d.path).name: d.message for d in result.errors}
    assert set(messages) == {"unknown.py", "bom.py", "wrong.py"}
    assert "klingon" in messages["unknown.py"]
    assert "byte-order mark" in messages["bom.py"]
    assert "not valid ascii" in messages["wrong.py"]


def test_file_errors_are_reported_whatever_the_selection(tmp_path, config, fake_backend):
    (tmp_path / "ok.py").write_text(TF_FIT)
    (tmp_path / "blob.py").write_bytes(b"import tensorflow\0")
    selected = run_check([tmp_path], dataclasses.replace(config, select=("GL301",)))
    ignored = run_check([tmp_path], dataclasses.replace(config, select=("GL301",), ignore=("GL002",)))
    for result in (selected, ignored):
        assert _codes(result) == {("ok.py", "GL301"), ("blob.py", "GL002")}


def test_a_syntax_error_is_reported_under_another_selection(tmp_path, config):
    (tmp_path / "bad.py").write_text("import tensorflow as tf\nx = (\n")
    result = run_check([tmp_path], dataclasses.replace(config, select=("GL301",)))
    assert _codes(result) == {("bad.py", "GL001")}


@pytest.mark.parametrize(
    "key, value", [("hotspot-threshold-j", -5), ("hotspot-threshold-j", float("nan")), ("min-batch-size", -1)]
)
def test_negative_or_non_finite_thresholds_are_rejected(key, value):
    with pytest.raises(ConfigError, match=rf"`{key}`: expected a number of at least 0"):
        parse_table({key: value}, Path("pyproject.toml"))


def test_a_negative_threshold_on_the_command_line_is_rejected(tmp_path):
    (tmp_path / "ok.py").write_text(TF_FIT)
    cmd = [sys.executable, "-m", "greenlint", "check", str(tmp_path), "--isolated", "--hotspot-threshold-j=-5"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "--hotspot-threshold-j: expected a number of at least 0, got -5.0" in proc.stderr


def test_gl003_judges_a_noqa_the_same_whatever_the_selection(tmp_path, config, fake_backend):
    (tmp_path / "noqa.py").write_text(
        "import tensorflow as tf\n"
        "tf.keras.Sequential().evaluate(x)  # noqa: GL101\n"  # 1 J with the fake predictor: GL101 stays silent
        "tf.keras.Sequential().fit(x, y)  # noqa: GL101\n"  # 500 J: GL101 fires, and the noqa is used
    )

    def gl003(**changes):
        found = run_check([tmp_path], dataclasses.replace(config, **changes)).diagnostics
        return [(d.span.line, d.message) for d in found if d.code == "GL003"], {d.code for d in found}

    extended = gl003(extend_select=("GL003",))
    assert extended[0] == [(2, "unused `noqa` code(s): GL101")]
    for selection in (("GL3", "GL003"), ("GL003",)):
        lines, codes = gl003(select=selection)
        assert lines == extended[0]
        assert "GL101" not in codes  # run to judge the noqa, never reported


def test_a_file_over_the_size_limit_is_refused_naming_the_limit(tmp_path, config, fake_backend):
    from greenlint.analysis.sources import MAX_BYTES

    (tmp_path / "generated.py").write_bytes(b"import tensorflow as tf\n" + b"x = 1\n" * (MAX_BYTES // 6))
    result = run_check([tmp_path], config)
    assert [d.code for d in result.diagnostics] == ["GL002"]
    assert f"over the 768 KiB ({MAX_BYTES}-byte) limit" in result.diagnostics[0].message


@pytest.mark.parametrize(
    "cpus, load, files, workers",
    [
        (2, 0.1, 200, 2),  # an idle 2-core machine, many files: both CPUs
        (2, 1.8, 200, 1),  # a loaded one: one process, which never loses to -j 1
        (2, 6.0, 200, 1),
        (8, 3.2, 200, 5),  # the CPUs idle now
        (2, 0.0, 10, 1),  # a few files: processes do not pay
        (8, 0.0, 15, 1),  # one worker's files at most
        (8, 0.0, 16, 2),
    ],
)
def test_jobs_auto_uses_only_idle_cpus_and_enough_files(monkeypatch, cpus, load, files, workers):
    from greenlint.check import runner

    monkeypatch.setattr(runner, "_cpus", lambda: cpus)
    monkeypatch.setattr(runner.os, "getloadavg", lambda: (load, load, load))
    assert runner.auto_jobs(files) == workers


def test_jobs_auto_and_bad_jobs_on_the_command_line(tmp_path):
    from greenlint.cli import main

    (tmp_path / "ok.py").write_text("x = 1\n")
    assert main(["check", str(tmp_path), "--isolated", "--no-cache", "-j", "auto"]) == 0
    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(tmp_path), "--isolated", "-j", "many"])
    assert exit_info.value.code == 2
    assert parse_table({"jobs": "auto"}, None)["jobs"] is None
    with pytest.raises(ConfigError, match="positive integer or"):
        parse_table({"jobs": "all"}, None)
