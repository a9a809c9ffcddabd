from __future__ import annotations

import pytest

from greenlint.check.config import DEFAULT_EXCLUDE, ConfigError, find_pyproject, load_config


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_nearest_pyproject_with_a_greenlint_table(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.greenlint]\nignore = ['GL3']\n")
    write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'x'\n")  # no table: skipped
    sub = tmp_path / "pkg" / "src"
    sub.mkdir()
    assert find_pyproject(sub) == tmp_path / "pyproject.toml"
    config = load_config([sub])
    assert config.ignore == ("GL3",)
    assert config.root == tmp_path.resolve()


def test_values_are_parsed(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """[tool.greenlint]
select = ["GL1", "gl201"]
extend-exclude = ["generated/"]
hotspot-threshold-j = 5
min-batch-size = 8
cache-dir = ".cache/gl"
jobs = 3
device = "rtx 3090"
[tool.greenlint.per-file-ignores]
"tests/*" = ["GL101"]
""",
    )
    config = load_config([tmp_path])
    assert config.select == ("GL1", "GL201")
    assert config.extend_exclude == ("generated/",)
    assert config.exclude == DEFAULT_EXCLUDE
    assert config.options == {"hotspot-threshold-j": 5.0, "min-batch-size": 8}
    assert config.cache_dir == (tmp_path / ".cache" / "gl").resolve()
    assert config.jobs == 3
    assert config.device == "NVIDIA GeForce RTX 3090"  # the table's name, however it was spelled
    assert config.per_file_ignores == {"tests/*": ("GL101",)}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("selekt = ['GL101']", "unknown key `selekt`"),
        ("hotspot-threshold-j = 'high'", "hotspot-threshold-j"),
        ("min-batch-size = 1.5", "min-batch-size"),
        ("jobs = 0", "jobs"),
        ("respect-gitignore = 'yes'", "respect-gitignore"),
        ("output-format = 'xml'", "output-format"),
        ("device = 'RTX 9999'", "key `device`: unknown device 'RTX 9999'; known: RTX 3090, RTX 3070"),
        ("device = 3090", "unknown device 3090"),
        ("select = 'GL101'\nignore = [1]", "ignore"),
        # per-file-ignores patterns that would silently never match
        ('per-file-ignores = { "src/[.py" = ["GL101"] }', "`per-file-ignores`: `src/[.py` is not a valid file pattern "
                                                          "(an unclosed `[`); it would never match"),
        ('per-file-ignores = { "[b-a].py" = ["GL101"] }', "bad character range"),
        ('per-file-ignores = { "!tests/*" = ["GL101"] }', "a negation"),
        ('per-file-ignores = { "" = ["GL101"] }', "it is empty"),
        ('per-file-ignores = { "tests\\\\" = ["GL101"] }', "Invalid git pattern"),
    ],
)
def test_bad_config_names_the_file_and_key(tmp_path, body, message):
    path = write(tmp_path / "pyproject.toml", f"[tool.greenlint]\n{body}\n")
    with pytest.raises(ConfigError) as err:
        load_config([tmp_path])
    assert str(path) in str(err.value) and message in str(err.value)


def test_unparsable_pyproject_is_a_config_error(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.greenlint\n")
    with pytest.raises(ConfigError, match="pyproject.toml"):
        load_config([tmp_path])


def test_explicit_and_isolated(tmp_path):
    other = write(tmp_path / "conf" / "pyproject.toml", "[tool.greenlint]\nignore = ['GL2']\n")
    write(tmp_path / "pyproject.toml", "[tool.greenlint]\nignore = ['GL1']\n")
    assert load_config([tmp_path], config_file=other).ignore == ("GL2",)
    assert load_config([tmp_path], isolated=True).ignore == ()
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config([tmp_path], config_file=tmp_path / "missing.toml")


def test_valid_per_file_ignores_patterns_are_kept(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.greenlint.per-file-ignores]\n"src/[ab]*.py" = ["GL101"]\n"**/test_*.py" = ["GL2"]\n')
    assert set(load_config([tmp_path]).per_file_ignores) == {"src/[ab]*.py", "**/test_*.py"}
