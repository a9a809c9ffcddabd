"""`python -m tools.gendocs --check`: what it names when something is stale."""

from __future__ import annotations

from tools import gendocs


def test_check_names_each_stale_file_by_its_own_path(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(gendocs, "stale", lambda directory: ["GL101.md", "greenlint/rules/measured.json"])
    assert gendocs.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"stale: {tmp_path / 'GL101.md'}", "stale: greenlint/rules/measured.json"]
