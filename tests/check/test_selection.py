from __future__ import annotations

import pytest

from greenlint.check import selection
from greenlint.check.config import Config, ConfigError
from greenlint.check.selection import Selector, enabled_codes, validate
from greenlint.rules.registry import all_rules


def test_defaults_enable_default_rules_only():
    codes = enabled_codes(Config())
    assert "GL101" in codes
    assert "GL003" not in codes  # off by default
    assert codes == {c for c, r in all_rules().items() if r.DEFAULT_ENABLED}


def test_select_prefix_ignore_and_specificity():
    assert enabled_codes(Config(select=("GL1",))) == {"GL101"}
    assert "GL101" not in enabled_codes(Config(ignore=("GL101",)))
    # the more specific select beats a broader ignore, and vice versa
    assert enabled_codes(Config(select=("GL101",), ignore=("GL1",))) == {"GL101"}
    assert enabled_codes(Config(select=("GL1",), ignore=("GL101",))) == set()
    assert "GL003" in enabled_codes(Config(extend_select=("GL003",)))
    assert enabled_codes(Config(select=("ALL",))) == set(all_rules())


def test_unknown_code_is_an_error():
    with pytest.raises(ConfigError, match="GL999"):
        Selector(Config(ignore=("GL999",)))


def test_validate_judges_named_codes_and_reads_no_rule_table_without_them(monkeypatch):
    """`validate` (greenlint diff: no rule runs) raises where the selector would, and reads the rule
    table only when the configuration names a code."""
    for named in ({"ignore": ("GL999",)}, {"select": ("GL1", "GL999")}, {"per_file_ignores": {"a.py": ("GL999",)}}):
        with pytest.raises(ConfigError, match="GL999"):
            validate(Config(no_cache=True, **named))
    validate(Config(no_cache=True, extend_select=("GL003",)))

    def unread():
        raise AssertionError("the rule table was read")

    monkeypatch.setattr(selection.codes, "table", unread)
    validate(Config(no_cache=True))
    validate(Config(no_cache=True, select=()))
    with pytest.raises(AssertionError, match="rule table"):
        validate(Config(no_cache=True, ignore=("GL101",)))


def test_per_file_ignores(tmp_path):
    selector = Selector(Config(root=tmp_path, per_file_ignores={"tests/*": ("GL101",), "*_nb.py": ("GL2",)}))
    assert "GL101" not in selector.for_file(str(tmp_path / "tests" / "a.py"))
    assert "GL101" in selector.for_file(str(tmp_path / "src" / "a.py"))
    assert not any(c.startswith("GL2") for c in selector.for_file(str(tmp_path / "x" / "demo_nb.py")))


def test_per_file_ignores_absolute_pattern_inside_the_root(tmp_path):
    """An absolute pattern naming files under the config root matches them (it was read as root-anchored
    and never matched); `/tests/*` keeps its gitignore meaning."""
    absolute = f"{tmp_path.as_posix()}/tests/*"
    selector = Selector(Config(root=tmp_path, per_file_ignores={absolute: ("GL101",), "/gen/*": ("GL101",)}))
    assert "GL101" not in selector.for_file(str(tmp_path / "tests" / "a.py"))
    assert "GL101" not in selector.for_file(str(tmp_path / "gen" / "a.py"))
    assert "GL101" in selector.for_file(str(tmp_path / "src" / "tests" / "a.py"))
