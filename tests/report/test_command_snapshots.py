"""Every output format of `greenlint check`, `calls` and `diff`, run end to end (the real resolver,
predictor and rules, in process) on the small fixed project of tests/report/command_project.py,
compared with tests/report/snapshots/commands/. Any change in what a command prints fails here;
when the change is intended, accept it with GREENLINT_UPDATE_SNAPSHOTS=1 (tests/report/snapshot.py)
and review the snapshots' diff."""

from __future__ import annotations

import argparse

import pytest

from greenlint import __version__
from greenlint.cli import build_parser, main
from tests.report.command_project import repository, write
from tests.report.snapshot import SNAPSHOTS, assert_snapshot
from tests.review.history import git


def formats(command: str) -> tuple[str, ...]:
    """The choices of the command's `--format`, as its parser gives them."""
    commands = next(a for a in build_parser(command)._actions if isinstance(a, argparse._SubParsersAction))
    return tuple(next(a.choices for a in commands.choices[command]._actions if a.dest == "format"))


SUFFIX = {"json": "json", "json-lines": "jsonl", "sarif": "sarif.json", "html": "html", "markdown": "md"}


def printed(argv: list[str], capsys) -> str:
    """Exit code, standard error and standard output of one command, as one text; the version
    number is replaced (a release must not change the snapshots)."""
    code = main(argv)
    out = capsys.readouterr()
    text = f"exit: {code}\n--- stderr\n{out.err}--- stdout\n{out.out}"
    return text.replace(f'"version": "{__version__}"', '"version": "<greenlint version>"')


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = write(tmp_path / "project")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("fmt", formats("check"))
def test_check(fmt, project, capsys):
    assert_snapshot(f"commands/check.{fmt}.{SUFFIX.get(fmt, 'txt')}", printed(["check", "--isolated", "--format", fmt, "."], capsys))


@pytest.mark.parametrize("fmt", formats("calls"))
def test_calls(fmt, project, capsys):
    assert_snapshot(f"commands/calls.{fmt}.{SUFFIX.get(fmt, 'txt')}", printed(["calls", "--isolated", "--format", fmt, "."], capsys))


@pytest.mark.parametrize("fmt", formats("diff"))
def test_diff(fmt, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = repository(tmp_path / "repo")
    monkeypatch.chdir(root)
    text = printed(["diff", "--isolated", "--format", fmt, "main", "change"], capsys)
    for branch in ("main", "change"):  # commit ids carry the time of the commit
        text = text.replace(git(root, "rev-parse", branch).strip(), f"<commit of {branch}>")
    assert_snapshot(f"commands/diff.{fmt}.{SUFFIX.get(fmt, 'txt')}", text)


def test_every_format_has_its_snapshot():
    """A new output format gets a snapshot (the tests above follow the parsers' choices), and a
    format removed leaves none behind."""
    names = {p.name for p in (SNAPSHOTS / "commands").iterdir()}
    want = {f"{command}.{fmt}.{SUFFIX.get(fmt, 'txt')}" for command in ("check", "calls", "diff") for fmt in formats(command)}
    assert names == want
