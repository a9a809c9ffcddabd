"""The budget of `greenlint diff`: `[tool.greenlint.budget]` parsed by the config loader, and each
limit judged on the files' joules per program run."""

from __future__ import annotations

import math

import pytest

from greenlint.check.config import Config, ConfigError, parse_table
from greenlint.review import gitfs
from greenlint.review.budget import Budget, check
from greenlint.review.diff import diff_revisions
from tests.review.history import build


def test_budget_table_is_validated():
    fields = parse_table({"budget": {"fail-above": 2, "max-file-j": 10, "allow": {"x/*": math.inf}}}, None)
    assert fields["budget"] == {"fail-above": 2.0, "max-file-j": 10.0, "allow": {"x/*": math.inf}}
    for bad in ({"fail-above": 0}, {"fail-above": math.inf}, {"max-file-j": -1}, {"allow": ["x"]},
                {"allow": {"x": 0}}, {"max-added": 1}, {"fail-above": True}):
        with pytest.raises(ConfigError):
            parse_table({"budget": bad}, None)


@pytest.mark.parametrize("ratio", ["0", "-1", "inf", "nan", "ten"])
def test_the_fail_above_flag_takes_what_the_table_takes(ratio, capsys):
    from greenlint.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["diff", "--fail-above", ratio])
    assert exited.value.code == 2 and "expected a finite ratio above 0" in capsys.readouterr().err


def test_flags_override_the_table():
    budget = Budget.from_config({"fail-above": 2.0, "max-added-j": 5.0}, fail_above=3.0, max_file_j=None, max_added_j=None)
    assert (budget.fail_above, budget.max_file_j, budget.max_added_j) == (3.0, None, 5.0)


@pytest.fixture(scope="module")
def diff(tmp_path_factory):
    root = tmp_path_factory.mktemp("budget") / "repo"
    build(root)
    mp = pytest.MonkeyPatch()
    mp.setenv("GREENLINT_CACHE_DIR", str(root.parent / "cache"))
    try:
        return diff_revisions(root, gitfs.commit_side(root, "main"), gitfs.commit_side(root, "change"), [""], Config(root=root))
    finally:
        mp.undo()


def test_joules_budgets(diff):
    files = {f.path: f for f in diff.changed_files}
    train = files["train.py"]
    assert [v.path for v in check(diff, Budget(max_file_j=train.after_j * 0.99))] == ["train.py"]
    assert check(diff, Budget(max_file_j=train.after_j * 1.01)) == []
    (program,) = [p for p in diff.programs if p.path == "train.py"]
    assert [v.path for v in check(diff, Budget(max_program_j=program.after_j * 0.99))] == ["train.py"]
    assert check(diff, Budget(max_program_j=program.after_j * 1.01)) == []
    added = sum(f.after_j - f.before_j for f in diff.changed_files)
    (over,) = check(diff, Budget(max_added_j=added * 0.99))
    assert over.path is None and "max-added-j" in over.message
    assert check(diff, Budget(max_added_j=added * 1.01)) == []
    assert check(diff, Budget()) == []  # no limit: nothing is over it


def test_allow_replaces_fail_above_for_its_files(diff):
    over = {v.path for v in check(diff, Budget(fail_above=1.5))}
    assert over == {f.path for f in diff.changed_files if f.ratio > 1.5}
    allowed = check(diff, Budget(fail_above=1.5, allow={"train.py": math.inf, "fine*": 2.0}))
    assert {v.path for v in allowed} == over - {"train.py"}
    assert any("allow `fine*`" in v.message for v in allowed)
