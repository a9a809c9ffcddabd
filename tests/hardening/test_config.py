"""Bad configuration is one clear error (exit 2), never a traceback; a project cannot send the cache anywhere."""

from __future__ import annotations

import dataclasses

import pytest

from greenlint.check import runner
from greenlint.check.config import Config, ConfigError, load_config
from greenlint.check.pipeline import run_check
from tests.check.conftest import FAKE

TRAIN = "import tensorflow as tf\ntf.keras.Sequential().fit(x, y)\n"


@pytest.mark.parametrize("text", ['tool = "x"\n', "tool = 5\n", 'tool = "greenlint"\n', "[tool]\nother = 1\n"])
def test_a_tool_key_that_is_not_a_table_is_not_greenlints(tmp_path, text):
    (tmp_path / "pyproject.toml").write_text(text)
    assert load_config([tmp_path]) == Config(root=load_config([tmp_path]).root)


def test_a_pyproject_that_is_not_utf8_is_a_config_error(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b"# \xff\n[tool.greenlint]\n")
    with pytest.raises(ConfigError, match="not valid UTF-8"):
        load_config([tmp_path])


@pytest.mark.parametrize("value", ['[""]', '["GL101", " "]'])
def test_an_empty_rule_code_is_an_error(tmp_path, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.greenlint]\nselect = {value}\n")
    with pytest.raises(ConfigError, match="empty rule code"):
        load_config([tmp_path])


@pytest.mark.parametrize("value", ['""', '"/"', '"."', '".."', '"/tmp/elsewhere"', '"~"'])
def test_a_project_config_keeps_its_cache_inside_the_project_or_the_user_cache(tmp_path, value):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(f"[tool.greenlint]\ncache-dir = {value}\n")
    with pytest.raises(ConfigError, match="cache-dir"):
        load_config([project])


def test_a_cache_below_the_project_or_in_the_user_cache_is_accepted(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "user-cache"))
    (tmp_path / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".cache/gl"\n')
    assert load_config([tmp_path]).cache_dir == (tmp_path / ".cache" / "gl").resolve()
    (tmp_path / "pyproject.toml").write_text(f'[tool.greenlint]\ncache-dir = "{tmp_path / "user-cache" / "x"}"\n')
    assert load_config([tmp_path]).cache_dir == (tmp_path / "user-cache" / "x").resolve()


@pytest.mark.parametrize("pattern", ["!", "\\"])
def test_an_exclude_pattern_git_cannot_use_is_a_config_error(tmp_path, config, pattern):
    (tmp_path / "a.py").write_text(TRAIN)
    with pytest.raises(ConfigError, match="not a valid gitignore-style pattern"):
        run_check([tmp_path], dataclasses.replace(config, exclude=(pattern,)), FAKE)


def test_gitignore_lines_git_cannot_use_are_skipped(tmp_path, config):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("!\n\\\nignored.py\n")
    (tmp_path / "a.py").write_text(TRAIN)
    (tmp_path / "ignored.py").write_text(TRAIN)
    assert run_check([tmp_path], config, FAKE).files == [str(tmp_path / "a.py")]


def test_jobs_are_capped_at_the_cpus(tmp_path, config, monkeypatch):
    monkeypatch.setattr(runner, "_cpus", lambda: 1)
    for i in range(20):
        (tmp_path / f"m{i}.py").write_text(TRAIN)
    result = run_check([tmp_path], dataclasses.replace(config, jobs=42, no_cache=True), FAKE)
    assert result.stats.workers == 1
