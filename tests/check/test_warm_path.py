"""A fully cached `greenlint check` (greenlint.check.warm, check_cmd.from_cache) prints what the whole pipeline prints,
and a change to anything its findings depend on (an imported module, the configuration, the rule
selection, the formatter's line length) sends the run back through the pipeline."""

from __future__ import annotations

import os

import pytest

from greenlint.analysis import project as project_module
from greenlint.analysis import sources
from greenlint.cli import build_parser, main
from greenlint.cli.check_cmd import DEFAULTS, from_cache

MODEL = "import tensorflow as tf\n\n\ndef build():\n    return tf.keras.Sequential()\n"
TRAIN = "from model import build\n\nm = build()\nfor epoch in range(10):\n    m.fit(x, y, batch_size=2)\n"


def check(argv, capsys):
    code = main(["check", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def parsed(argv):
    return build_parser("check").parse_args(["check", *argv])


def served(argv) -> bool:
    """Whether the run is answered from the cache without the rest of the pipeline."""
    return from_cache(parsed(argv)) is not None


def test_defaults_are_what_the_parser_gives():
    """A new option of `greenlint check` goes into DEFAULTS too: else a run setting it could be
    answered from the cache as if it were unset (or never be)."""
    given = vars(parsed(["a.py"]))
    assert given.pop("command") == "check" and given.pop("_run")
    assert given == {**DEFAULTS, "paths": ["a.py"]}


def fresh(argv, capsys, monkeypatch, tmp_path):
    """What a run with an empty cache prints."""
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "fresh-cache"))
    try:
        return check(argv, capsys)
    finally:
        monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "project"
    root.mkdir()
    (root / "model.py").write_text(MODEL)
    (root / "train.py").write_text(TRAIN)
    (root / "clean.py").write_text("x = 1\n")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize(
    "options",
    [[], ["--exit-zero"], ["--statistics"], ["--format", "json"], ["--format=json-lines", "--statistics"],
     ["--format", "grouped"], ["--format", "github"], ["--format", "sarif"], ["--no-calibration"]],
    ids=" ".join,
)
def test_a_warm_run_prints_what_the_pipeline_prints(project, capsys, options):
    argv = [*options, "train.py", "clean.py", "./train.py"]
    cold = check(argv, capsys)
    assert "GL301" in cold[1]
    assert served(argv)
    assert check(argv, capsys) == cold


def test_a_changed_imported_module_is_analysed_again(project, capsys, monkeypatch, tmp_path):
    before = check(["train.py"], capsys)
    assert served(["train.py"])
    (project / "model.py").write_text(MODEL.replace("tf.keras.Sequential()", "None"))
    assert not served(["train.py"])
    after = check(["train.py"], capsys)
    assert after != before and after == fresh(["train.py"], capsys, monkeypatch, tmp_path)


NAMED = (
    "import tensorflow as tf\nfrom tensorflow.keras import layers\n\n\ndef head(x):\n"
    "    x = layers.Conv2D(64, 1, padding='same', name='head/conv2d')(x)\n"
    "    x = layers.BatchNormalization(name='head/bn')(x)\n    return x\n"
)


def test_a_module_written_beside_that_changes_the_findings_is_seen(project, capsys, monkeypatch, tmp_path):
    """GL504 reads the modules beside a file (greenlint.rules.beside): a script written there that
    loads the named layers by name makes the cached finding stale."""
    (project / "named.py").write_text(NAMED)
    argv = ["--select", "GL504", "named.py"]
    assert "GL504" in check(argv, capsys)[1]
    (project / "load.py").write_text("model.load_weights('released.h5', by_name=True)\n")
    after = check(argv, capsys)
    assert "GL504" not in after[1] and after == fresh(argv, capsys, monkeypatch, tmp_path)


def test_a_greenlint_table_goes_through_the_pipeline(project, capsys, monkeypatch, tmp_path):
    check(["train.py"], capsys)
    (project / "pyproject.toml").write_text('[tool.greenlint]\nignore = ["GL301"]\n')
    assert not served(["train.py"])
    after = check(["train.py"], capsys)
    assert "GL301" not in after[1] and after == fresh(["train.py"], capsys, monkeypatch, tmp_path)


def test_a_broken_pyproject_is_reported_by_the_pipeline(project, capsys):
    check(["train.py"], capsys)
    (project / "pyproject.toml").write_text("[tool.ruff\n")
    assert not served(["train.py"])
    code, out, err = check(["train.py"], capsys)
    assert code == 2 and "cannot read configuration" in err


def test_another_formatter_line_length_is_another_key(project, capsys):
    (project / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    check(["--format", "json", "train.py"], capsys)
    assert served(["--format", "json", "train.py"])
    (project / "pyproject.toml").write_text("[tool.ruff]\nline-length = 60\n")
    assert not served(["--format", "json", "train.py"])


def test_a_rule_selection_goes_through_the_pipeline(project, capsys, monkeypatch, tmp_path):
    check(["train.py"], capsys)
    argv = ["--select", "GL2", "train.py"]
    assert not served(argv)
    selected = check(argv, capsys)
    assert "GL301" not in selected[1] and selected == fresh(argv, capsys, monkeypatch, tmp_path)


@pytest.mark.parametrize(
    "options", [["--fix"], ["--diff"], ["--show-fixes"], ["--format", "full"], ["--no-cache"], ["--isolated"],
                ["--cache-dir", "elsewhere"], ["--jobs", "1"], ["--config", "pyproject.toml"]], ids=" ".join
)
def test_other_options_go_through_the_pipeline(project, capsys, options):
    check(["train.py"], capsys)
    assert served(["train.py"])
    assert not served([*options, "train.py"])


def test_a_folder_or_a_file_not_cached_goes_through_the_pipeline(project, capsys):
    check(["train.py"], capsys)
    assert not served(["."])
    assert not served(["train.py", "clean.py"])
    (project / "train.py").write_text(TRAIN + "# edited\n")
    assert not served(["train.py"])


def test_a_warm_one_file_check_reads_the_file_once(project, capsys, monkeypatch):
    check(["train.py"], capsys)  # fills the cache
    monkeypatch.setattr(project_module, "_INDEX", None)  # a fresh process's index of project modules
    read: list[str] = []
    real = sources.read_bytes

    def counted(path, limit):
        read.append(os.path.basename(path))
        return real(path, limit)

    monkeypatch.setattr(sources, "read_bytes", counted)
    assert served(["train.py"])
    assert read.count("train.py") == 1  # its cache key's bytes are the project index's scan's too
