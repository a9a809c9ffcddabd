"""`greenlint check` end to end (in-process), with the fake resolver and predictor."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main

TRAIN = "import tensorflow as tf\ntf.keras.Sequential().fit(x, y, batch_size=2)\n"


@pytest.fixture
def proj(tmp_path, monkeypatch, fake_backend):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(TRAIN)
    (tmp_path / "src" / "clean.py").write_text("import tensorflow as tf\ntf.constant(1)\n")
    return tmp_path


def test_exit_codes_and_concise_output(proj, capsys):
    assert main(["check", "src"]) == 1
    out = capsys.readouterr().out
    assert "src/train.py:2:1: GL101" in out and "src/train.py:2:1: GL301" in out
    assert "clean.py" not in out
    assert main(["src"]) == 1  # plain `greenlint PATH` is `greenlint check PATH`
    assert capsys.readouterr().out == out
    assert main(["check", "src", "--exit-zero"]) == 0
    assert main(["check", "src/clean.py"]) == 0


def test_errors_exit_2(proj, capsys):
    assert main(["check", "missing_dir"]) == 2
    assert "missing_dir: no such file or directory" in capsys.readouterr().err
    (proj / "pyproject.toml").write_text("[tool.greenlint]\nbogus = 1\n")
    assert main(["check", "src"]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml" in err and "bogus" in err
    assert main(["check", "src", "--isolated"]) == 1
    assert main(["check", "src", "--isolated", "--select", "GL9"]) == 2


def test_flags_override_config(proj, capsys):
    (proj / "pyproject.toml").write_text("[tool.greenlint]\nignore = ['GL301', 'GL602']\nhotspot-threshold-j = 1000\n")
    assert main(["check", "src"]) == 0  # 500 J is under the configured threshold; GL301 and GL602 ignored
    capsys.readouterr()
    assert main(["check", "src", "--hotspot-threshold-j", "10", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [d["code"] for d in found] == ["GL101"]
    assert main(["check", "src", "--select", "GL301"]) == 0  # config ignore still applies
    assert main(["check", "src", "--select", "GL301", "--per-file-ignores", "src/*.py:GL101"]) == 0
    assert main(["check", "src", "--hotspot-threshold-j", "10", "--per-file-ignores", "src/*.py:GL101"]) == 0


def test_statistics_and_formats(proj, capsys):
    assert main(["check", "src", "--statistics"]) == 1
    stats = capsys.readouterr().out
    assert "GL101" in stats and "GL301" in stats
    for fmt in ("full", "json-lines", "sarif", "github", "grouped"):
        assert main(["check", "src", "--format", fmt]) == 1
        assert "GL301" in capsys.readouterr().out


def test_no_files_is_a_warning(proj, capsys):
    (proj / "empty").mkdir()
    assert main(["check", "empty"]) == 0
    assert "no Python files" in capsys.readouterr().err


@pytest.mark.parametrize("codes", ["", ",", " , "])
def test_a_selection_of_no_code_is_a_usage_error(proj, capsys, codes):
    """`--select ""` selects nothing by mistake (an unset variable in a script): a usage error,
    never a run where every rule is off and everything passes."""
    for option in ("--select", "--extend-select", "--ignore"):
        with pytest.raises(SystemExit) as exit_:
            main(["check", "src", option, codes])
        assert exit_.value.code == 2
        assert "expected rule codes or prefixes" in capsys.readouterr().err


def test_a_per_file_ignores_flag_that_never_matches_is_an_error(proj, capsys):
    assert main(["check", "src", "--per-file-ignores", "src/[.py:GL101"]) == 2
    err = capsys.readouterr().err
    assert "--per-file-ignores 'src/[.py:GL101'" in err and "unclosed `[`" in err
    assert main(["check", "src", "--per-file-ignores", "src/*.py:,"]) == 2
    assert "expected PATTERN:CODES" in capsys.readouterr().err


def test_check_diff_and_greenlint_diff_each_name_the_other_in_their_help(capsys):
    """`check --diff` prints the fixes' source diff, `greenlint diff` a change's energy: the help says which is which."""

    def help_of(*argv: str) -> str:
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        return " ".join(capsys.readouterr().out.split())

    assert "unified diff of the source; write nothing (the energy of a change between git revisions is `greenlint diff`)" in help_of("check")
    assert "with ratio and why (the source diff of the fixes is `greenlint check --diff`)" in help_of("diff")
