from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from greenlint.check.config import Config, ConfigError
from greenlint.check.discovery import discover


def make(root, *names):
    for name in names:
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")


def rel(files, root):
    return sorted(f.resolve().relative_to(root.resolve()).as_posix() for f in files)


def test_default_includes_and_excludes(tmp_path):
    make(tmp_path, "a.py", "b.pyi", "c.ipynb", "d.txt", "e.pyc", ".venv/lib/x.py", "pkg/__pycache__/m.py", "pkg/m.py")
    assert rel(discover([tmp_path], Config(root=tmp_path)), tmp_path) == ["a.py", "b.pyi", "c.ipynb", "pkg/m.py"]


def test_gitignore_nested_and_scoped(tmp_path):
    (tmp_path / ".git").mkdir()
    make(tmp_path, "keep.py", "gen/out.py", "sub/skip.py", "sub/keep.py", "other/skip.py")
    (tmp_path / ".gitignore").write_text("gen/\n")
    (tmp_path / "sub" / ".gitignore").write_text("skip.py\n")
    got = rel(discover([tmp_path], Config(root=tmp_path)), tmp_path)
    assert got == ["keep.py", "other/skip.py", "sub/keep.py"]  # sub's .gitignore does not leak into other/
    # a .gitignore above the directory given, inside the same work tree, applies too...
    assert rel(discover([tmp_path / "sub"], Config(root=tmp_path)), tmp_path) == ["sub/keep.py"]
    (tmp_path / ".gitignore").write_text("gen/\n*.py\n!keep.py\n")
    assert rel(discover([tmp_path / "other"], Config(root=tmp_path)), tmp_path) == []
    # ...but a directory named explicitly is checked even if it is itself ignored
    assert rel(discover([tmp_path / "gen"], Config(root=tmp_path)), tmp_path) == ["gen/out.py"]
    everything = rel(discover([tmp_path], Config(root=tmp_path, respect_gitignore=False)), tmp_path)
    assert "gen/out.py" in everything and "sub/skip.py" in everything


def test_deeper_gitignore_can_reinclude(tmp_path):
    (tmp_path / ".git").mkdir()
    make(tmp_path, "a.py", "lib/b.py", "lib/keep.py")
    (tmp_path / ".gitignore").write_text("*.py\n")
    (tmp_path / "lib" / ".gitignore").write_text("!keep.py\n")
    assert rel(discover([tmp_path], Config(root=tmp_path)), tmp_path) == ["lib/keep.py"]


def test_exclude_and_explicit_files(tmp_path):
    make(tmp_path, "a.py", "generated/g.py", "notes/x.py")
    config = Config(root=tmp_path, extend_exclude=("generated/", "notes/x.py"))
    assert rel(discover([tmp_path], config), tmp_path) == ["a.py"]
    # named explicitly: always included, whatever the suffix or the excludes
    named = [tmp_path / "notes" / "x.py", tmp_path / "a.py"]
    assert rel(discover(named, config), tmp_path) == ["a.py", "notes/x.py"]
    assert rel(discover(named, dataclasses.replace(config, force_exclude=True)), tmp_path) == ["a.py"]


def test_excluded_directory_named_explicitly(tmp_path):
    make(tmp_path, ".venv/lib/site-packages/pkg/m.py", ".venv/lib/site-packages/pkg/build/x.py")
    named = tmp_path / ".venv" / "lib" / "site-packages" / "pkg"
    assert rel(discover([tmp_path], Config(root=tmp_path)), tmp_path) == []
    # the excludes apply below the named directory only
    assert rel(discover([named], Config(root=tmp_path)), tmp_path) == [".venv/lib/site-packages/pkg/m.py"]


def test_missing_path_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such file or directory"):
        discover([tmp_path / "nope"], Config(root=tmp_path))


@pytest.mark.parametrize("name", ["a.py/", "a.py/b.py"])
def test_a_file_named_as_a_folder_is_an_error(tmp_path, monkeypatch, name):
    """`a.py/` names a folder: pathlib drops the slash, and the file was checked without a word."""
    make(tmp_path, "a.py")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=f"^{name}: not a directory"):
        discover([name], Config(root=tmp_path))


def test_a_file_named_twice_is_found_once_by_its_first_name(tmp_path, monkeypatch):
    make(tmp_path, "a.py", "pkg/m.py")
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path)
    assert discover(["a.py", str(tmp_path / "a.py")], config) == [Path("a.py")]
    assert discover([str(tmp_path / "a.py"), "./a.py"], config) == [tmp_path / "a.py"]
    assert discover(["pkg", str(tmp_path / "pkg" / "m.py")], config) == [Path("pkg/m.py")]
    assert discover([".", str(tmp_path)], config) == [Path("a.py"), Path("pkg/m.py")]
