"""The command line on bad input: one diagnostic per bad file, the run goes on, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.hardening.samples import TRAIN


def greenlint(*args, cwd, env_dir):
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(env_dir / "cache"), "XDG_CACHE_HOME": str(env_dir / "xdg")}
    return subprocess.run([sys.executable, "-m", "greenlint", *args], cwd=cwd, env=env, capture_output=True,
                          timeout=300)


@pytest.mark.parametrize("codec", ["rot13", "base64", "zlib", "hex"])
def test_a_coding_cookie_naming_a_codec_that_is_not_text_is_one_file_error(tmp_path, codec):
    (tmp_path / "a.py").write_text(f"# coding: {codec}\nimport tensorflow as tf\n")
    (tmp_path / "b.py").write_text(TRAIN)
    proc = greenlint("check", ".", cwd=tmp_path, env_dir=tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert f"a.py:1:1: GL002 cannot analyse: the coding cookie names '{codec}'" in out
    assert "b.py:3:5: " in out  # the other file is still analysed


@pytest.mark.parametrize("fmt", ["concise", "full", "json", "sarif", "github", "grouped"])
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path, fmt):
    name = os.fsdecode(b"caf\xe9.py")
    (tmp_path / name).write_text(TRAIN)
    for _ in range(2):  # cold, then from the cache
        proc = greenlint("check", ".", "--format", fmt, cwd=tmp_path, env_dir=tmp_path)
        assert proc.returncode == 1 and b"Traceback" not in proc.stderr, proc.stderr
        assert b"caf" in proc.stdout
    if fmt == "sarif":
        uri = json.loads(proc.stdout)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        assert uri["uri"] == "caf%E9.py"


def test_the_html_report_of_a_file_name_that_is_not_utf8(tmp_path):
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text(TRAIN)
    proc = greenlint("calls", ".", "--format", "html", cwd=tmp_path, env_dir=tmp_path)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr and b'href="caf%E9.py#L3"' in proc.stdout


@pytest.mark.parametrize("args", [("rule", "--all"), ("kb", "predict", "tf.keras.Model.fit", "--kw", "epochs=3")])
def test_a_reader_that_leaves_early_ends_the_command_quietly(tmp_path, args):
    env = {**os.environ, "GREENLINT_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(3):
        proc = subprocess.run(
            f"{sys.executable} -m greenlint {' '.join(args)} | head -c 1 >/dev/null; echo ${{PIPESTATUS[0]}}",
            shell=True, executable="/bin/bash", env=env, capture_output=True, text=True, timeout=120,
        )
        assert proc.stdout.strip() in ("0", "1") and "Traceback" not in proc.stderr and "Broken" not in proc.stderr


@pytest.mark.parametrize("name", ["", "🔥", os.fsdecode(b"a\xff")])
def test_kb_predict_of_a_name_that_is_no_api_is_an_error(tmp_path, name):
    proc = greenlint("kb", "predict", name, cwd=tmp_path, env_dir=tmp_path)
    assert proc.returncode == 2 and b"is not an API name" in proc.stderr and b"Traceback" not in proc.stderr


@pytest.mark.parametrize("kw", ["epochs=" + "-" * 100_000 + "1", "foo=1e999", "foo=(1, float('nan'))"])
def test_kb_predict_refuses_values_it_cannot_hold(tmp_path, kw):
    proc = greenlint("kb", "predict", "tf.keras.Model.fit", "--kw", kw, cwd=tmp_path, env_dir=tmp_path)
    assert proc.returncode in (0, 2) and b"Traceback" not in proc.stderr


def test_an_overflowing_figure_is_unknown_and_the_json_stays_json(tmp_path):
    proc = greenlint("kb", "predict", "tf.keras.Model.fit", "--kw", "epochs=1e308", "--format", "json",
                     cwd=tmp_path, env_dir=tmp_path)
    doc = json.loads(proc.stdout, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert doc["energy_j"] is None and "overflows" in doc["evidence"]["note"]
    (tmp_path / "a.py").write_text("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=1e308)\n")
    for args in (("check", ".", "--format", "json"), ("calls", ".", "--format", "json")):
        proc = greenlint(*args, cwd=tmp_path, env_dir=tmp_path)
        json.loads(proc.stdout, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    text = greenlint("check", ".", cwd=tmp_path, env_dir=tmp_path).stdout.decode()
    assert "inf " not in text
