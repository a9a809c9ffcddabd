"""The fuzz suite in its bounded form (seconds, fixed seed); `GREENLINT_FUZZ=long` runs the
benchmark's case counts (`python -m tests.hardening.fuzz --long --write docs/hardening.md`)."""

from __future__ import annotations

import os

import pytest

from tests.hardening import fuzz

LONG = os.environ.get("GREENLINT_FUZZ") == "long"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "user-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


def test_every_kind_of_bad_input_survives(tmp_path):
    results = fuzz.run_files(40 if LONG else 2, root=tmp_path)
    assert len(results) == len(fuzz.FILE_KINDS) + 1
    failures = [f for r in results.values() for f in r.failures]
    assert not failures, "\n".join(failures)


def test_every_kind_of_hostile_repository_survives(tmp_path):
    results = fuzz.run_repos(10 if LONG else 2, root=tmp_path)
    assert len(results) == len(fuzz.REPO_KINDS)
    failures = [f for r in results.values() for f in r.failures]
    assert not failures, "\n".join(failures)


@pytest.mark.timeout(600)
def test_the_language_server_answers_every_request():
    result = fuzz.run_lsp(3000 if LONG else 120, big_mb=10)
    assert result.alive and not result.unanswered and not result.internal, result
    assert result.answered == result.requests and result.codes[-32602] > 0 and result.codes["result"] > 0
    assert result.codes[-32002] == 1  # the request before initialize
    assert result.diagnostics_after


def test_the_report_names_every_kind_and_item():
    """docs/hardening.md comes from the long run (`python -m tests.hardening.fuzz --long --write ...`):
    a kind or issue item added since is missing from it."""
    from greenlint.paths import REPO_DIR

    text = (REPO_DIR / "docs" / "hardening.md").read_text(encoding="utf-8")
    for kind in fuzz.FILE_KINDS:
        assert f"| {kind} |" in text, f"{kind}: regenerate docs/hardening.md"
    for kind in fuzz.REPO_KINDS:
        assert f"| {kind} |" in text, f"{kind}: regenerate docs/hardening.md"
    for what, _, _ in (*fuzz.ISSUE_ITEMS, *fuzz.ISSUE_29_ITEMS):
        assert f"| {what} |" in text, f"{what}: regenerate docs/hardening.md"
