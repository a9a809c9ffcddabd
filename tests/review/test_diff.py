"""`greenlint diff` on a repository built commit by commit (tests/review/history.py): each intended
change is reported alone, with its ratio and reason, and the pure refactors report nothing."""

from __future__ import annotations

import io
import json
import re
import subprocess
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import run_check
from greenlint.cli import main
from greenlint.review import gitfs
from greenlint.review.diff import diff_revisions
from tests.review.history import FILES, REFACTORS, STEPS, build, git

FIT = "tensorflow.keras.Sequential.fit"


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    root = tmp_path_factory.mktemp("history") / "repo"
    return root, build(root)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))


def _diff(root: Path, base: str, head: str):
    return diff_revisions(root, gitfs.commit_side(root, base), gitfs.commit_side(root, head), [""], Config(root=root))


def _step(history, name):
    root, commits = history
    names = ["base", *(s[0] for s in STEPS)]
    return _diff(root, commits[names[names.index(name) - 1]], commits[name])


def _checkout_figures(root: Path, commit: str, path: str, api: str, tmp: Path) -> list[float]:
    """`greenlint calls`' figures (joules × runs) of *api* in *path*, on a real checkout of *commit*."""
    target = tmp / commit[:8]
    if not target.exists():
        target.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(root), "archive", commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    result = run_check([target / path], Config(root=target))
    out = []
    for cs, p in result.callsites_with_predictions:
        if cs.api == api:
            runs = cs.runs.count or 1
            out.append(p.energy_j * runs)
    return out


def _only(diff):
    assert len(diff.changes) == 1, [(c.path, c.site.api, [r.text for r in c.reasons]) for c in diff.changes]
    return diff.changes[0]


def test_epochs_raised(history, tmp_path):
    root, commits = history
    change = _only(_step(history, "epochs"))
    assert (change.path, change.site.api, change.status) == ("train.py", FIT, "changed")
    assert [r.text for r in change.reasons] == ["epochs 10 → 100"]
    assert change.ratio > 1 and change.ratio_interval is None  # same API: the uncertainty cancels
    # the figures are those `greenlint calls` gives on a checkout of each commit
    (before,) = _checkout_figures(root, commits["base"], "train.py", FIT, tmp_path)
    (after,) = _checkout_figures(root, commits["epochs"], "train.py", FIT, tmp_path)
    assert change.before.joules == pytest.approx(before) and change.after.joules == pytest.approx(after)
    assert change.ratio == pytest.approx(after / before)


def test_ten_times_the_epochs_of_a_multi_second_fit_is_about_ten_times_the_joules(history):
    # energy = power x time, linear in the work past one start-up term (issue 27): no ramp-up per call
    change = _only(_step(history, "epochs"))
    assert 8 <= change.ratio <= 12, change.ratio


def test_fit_moved_into_a_loop(history):
    change = _only(_step(history, "loop"))
    assert (change.path, change.site.api) == ("tune.py", FIT)
    assert change.ratio == pytest.approx(3.0)
    assert [r.text for r in change.reasons] == ["runs 1 → 3: now inside a 3-trip loop"]
    assert change.old.callsite.span.line == 8 and change.site.callsite.span.line == 9


def test_batch_size_lowered(history):
    change = _only(_step(history, "batch"))
    assert (change.path, change.site.api) == ("finetune.py", FIT)
    assert [r.text for r in change.reasons] == ["batch_size 64 → 8"]  # steps follow from it: not repeated
    assert change.ratio > 1
    assert [r.quantity for r in change.reasons] == ["batch_size"]


def test_dataset_prefetched(history):
    change = _only(_step(history, "prefetch"))
    assert (change.path, change.site.api, change.status) == ("pipeline.py", "tensorflow.data.Dataset.prefetch", "new")
    assert change.before is None and change.after.joules > 0 and change.ratio is None
    assert [r.text for r in change.reasons] == ["new call site (1 run)"]
    (f,) = _step(history, "prefetch").changed_files
    assert f.after_j > f.before_j
    # the file's other calls (from_tensor_slices, batch) are upper bounds from 0 J: the ratio has no
    # finite interval, which is said as none rather than a made-up one
    assert f.ratio_interval is None


@pytest.mark.parametrize("name", REFACTORS)
def test_pure_refactors_report_nothing(history, name):
    diff = _step(history, name)
    assert diff.changes == []
    assert diff.ratio == pytest.approx(1.0)


def test_a_renamed_file_is_followed(history):
    root, commits = history
    renames = gitfs.renames(root, gitfs.commit_side(root, commits["move"]), gitfs.commit_side(root, commits["rename"]))
    assert renames == {"evaluate.py": "scoring.py"}


def test_the_whole_branch_reports_the_four_intended_changes(history):
    root, _ = history
    diff = _diff(root, "main", "change")
    found = sorted((c.path, c.site.api, tuple(r.text for r in c.reasons)) for c in diff.changes)
    assert found == [
        ("finetune.py", FIT, ("batch_size 64 → 8",)),
        ("pipeline.py", "tensorflow.data.Dataset.prefetch", ("new call site (1 run)",)),
        ("train.py", FIT, ("epochs 10 → 100",)),
        ("tune.py", FIT, ("runs 1 → 3: now inside a 3-trip loop",)),
    ]
    # per program run: train.py runs models.py's build_network too (renamed from make_model on the way)
    programs = {p.path: p for p in diff.programs}
    assert set(programs) == {"train.py", "tune.py", "finetune.py"}  # pipeline.py's load() is no program
    train = programs["train.py"]
    (train_file,) = [f for f in diff.files if f.path == "train.py"]
    models = next(f for f in diff.files if f.path == "models.py")
    assert train.files == ("train.py", "models.py")
    assert train.before_j == pytest.approx(train_file.before_j + models.before_j)
    assert train.after_j == pytest.approx(train_file.after_j + models.after_j)
    # largest change (joules added) first
    added = [c.added_j for c in diff.changes]
    assert added == sorted(added, key=abs, reverse=True)
    assert sum(f.after_j for f in diff.files) == pytest.approx(diff.after_j)


def _run(root: Path, monkeypatch, *argv: str) -> tuple[int, str]:
    monkeypatch.chdir(root)
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["diff", *argv])
    return code, out.getvalue()


def test_fail_above_gates_per_file(history, monkeypatch):
    root, commits = history
    ratio = _step(history, "loop").changed_files[0].ratio  # tune.py's ratio per program run
    code, out = _run(root, monkeypatch, commits["epochs"], commits["loop"], "--fail-above", f"{ratio * 0.99}")
    assert code == 1 and "over budget: tune.py:" in out
    code, out = _run(root, monkeypatch, commits["epochs"], commits["loop"], "--fail-above", f"{ratio * 1.01}")
    assert code == 0 and "over budget" not in out
    code, _ = _run(root, monkeypatch, commits["move"], commits["noise"], "--fail-above", "1.0000001")
    assert code == 0  # refactors: nothing to gate


def test_errors_exit_2(history, monkeypatch, capsys):
    root, _ = history
    code, _ = _run(root, monkeypatch, "no-such-revision", "main")
    assert code == 2 and "not a revision" in capsys.readouterr().err


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "work"
    build(root)
    return root


def test_budget_in_pyproject_and_the_noqa_allowance(repo, monkeypatch):
    (repo / "pyproject.toml").write_text("[tool.greenlint]\n[tool.greenlint.budget]\nfail-above = 2.0\n")
    text = (repo / "tune.py").read_text()
    (repo / "tune.py").write_text(text.replace("epochs=5, batch_size=32)", "epochs=50, batch_size=32)"))
    code, out = _run(repo, monkeypatch, "HEAD")
    assert code == 1 and "above the budget ×2 (fail-above)" in out
    (repo / "tune.py").write_text(text.replace("epochs=5, batch_size=32)", "epochs=50, batch_size=32)  # noqa: GLD100"))
    code, out = _run(repo, monkeypatch, "HEAD")
    assert code == 0 and "(intended: noqa GLD100)" in out
    (repo / "tune.py").write_text(text.replace("epochs=5, batch_size=32)", "epochs=50, batch_size=32)"))
    (repo / "pyproject.toml").write_text("[tool.greenlint]\n[tool.greenlint.budget]\nfail-above = 2.0\nallow = { \"tune*.py\" = inf }\n")
    assert _run(repo, monkeypatch, "HEAD")[0] == 0
    (repo / "pyproject.toml").write_text("[tool.greenlint]\n[tool.greenlint.budget]\nfail-above = 0\n")
    assert _run(repo, monkeypatch, "HEAD")[0] == 2


def test_default_sides_and_staged(repo, monkeypatch):
    """No revision: the merge-base with main against the working tree; --staged: HEAD against the index."""
    text = (repo / "finetune.py").read_text()
    (repo / "finetune.py").write_text(text.replace("epochs=4", "epochs=40"))
    code, out = _run(repo, monkeypatch, "--format", "json")
    data = json.loads(out)
    assert (data["base"]["label"], data["head"]["kind"]) == ("main", "worktree")
    apis = sorted((c["path"], tuple(r["quantity"] for r in c["reasons"])) for f in data["files"] for c in f["changes"])
    assert ("finetune.py", ("epochs", "batch_size")) in apis  # the branch's change and the working tree's
    _, staged = _run(repo, monkeypatch, "--staged", "--format", "json")
    assert json.loads(staged)["files"] == []  # nothing staged yet
    git(repo, "add", "finetune.py")
    (repo / "finetune.py").write_text(text)  # unstaged: back as HEAD has it
    _, staged = _run(repo, monkeypatch, "--staged", "--format", "json")
    (change,) = [c for f in json.loads(staged)["files"] for c in f["changes"]]
    assert [r["text"] for r in change["reasons"]] == ["epochs 4 → 40"]


def test_paths_limit_the_diff(history, monkeypatch):
    root, _ = history
    _, out = _run(root, monkeypatch, "--format", "json", "main", "change", "--", "tune.py")
    assert [f["path"] for f in json.loads(out)["files"]] == ["tune.py"]


def test_a_file_that_does_not_parse_is_not_compared(repo, monkeypatch, capsys):
    (repo / "tune.py").write_text((repo / "tune.py").read_text() + "def broken(:\n")
    (repo / "finetune.py").write_text((repo / "finetune.py").read_text().replace("epochs=4", "epochs=8"))
    code, out = _run(repo, monkeypatch, "--format", "json", "HEAD")
    data = json.loads(out)
    assert code == 0 and [f["path"] for f in data["files"]] == ["finetune.py"]  # tune.py's calls are not "removed"
    assert [(e["path"], e["code"]) for e in data["errors"]] == [("tune.py", "GL001")]
    assert "tune.py:" in capsys.readouterr().err


def test_a_renamed_and_edited_file_is_followed(repo, monkeypatch):
    git(repo, "mv", "scoring.py", "evaluation.py")
    (repo / "evaluation.py").write_text((repo / "evaluation.py").read_text().replace("batch_size=32", "batch_size=4"))
    _, out = _run(repo, monkeypatch, "--format", "json", "HEAD")
    (f,) = json.loads(out)["files"]
    assert (f["path"], f["old_path"], f["status"]) == ("evaluation.py", "scoring.py", "renamed")
    (change,) = f["changes"]
    assert change["status"] == "changed" and change["old"]["path"] == "scoring.py"
    assert [r["text"] for r in change["reasons"]] == ["batch_size 32 → 4"]


def test_a_function_moved_to_another_module_reports_nothing(repo, monkeypatch):
    models = (repo / "models.py").read_text()
    start = models.index("def build_network")
    (repo / "nets.py").write_text("import tensorflow as tf\n\n\n" + models[start:])
    (repo / "models.py").write_text(models[:start].rstrip() + "\n")
    (repo / "train.py").write_text((repo / "train.py").read_text().replace("from models import", "from nets import"))
    code, out = _run(repo, monkeypatch, "--format", "json", "HEAD")
    assert code == 0 and json.loads(out)["files"] == []


def test_a_tracked_link_reads_as_in_the_working_tree(repo, monkeypatch):
    (repo / "tune_link.py").symlink_to("tune.py")
    git(repo, "add", "tune_link.py")
    git(repo, "commit", "-qm", "a link")
    code, out = _run(repo, monkeypatch, "--format", "json", "HEAD")
    assert code == 0 and json.loads(out)["files"] == []


def test_a_fit_moved_into_a_loop_of_unknown_length(repo, monkeypatch):
    text = (repo / "tune.py").read_text()
    looped = text.replace("import numpy", "import sys\nimport numpy").replace(
        "for fold in range(3):", "for fold in range(int(sys.argv[1])):")
    (repo / "tune.py").write_text(looped)
    _, out = _run(repo, monkeypatch, "--format", "json", "HEAD")
    (change,) = [c for f in json.loads(out)["files"] for c in f["changes"]]
    assert change["api"] == FIT and change["ratio"] is None
    assert [r["text"] for r in change["reasons"]] == ["runs 3 → unknown: inside a loop of unknown length"]


def test_outside_a_git_work_tree_is_an_error(tmp_path, monkeypatch, capsys):
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    code, _ = _run(plain, monkeypatch)
    assert code == 2 and "greenlint diff: error:" in capsys.readouterr().err


def test_words_after_dashes_are_paths_even_when_they_name_a_branch(repo, monkeypatch, capsys):
    """`greenlint diff HEAD -- main`: `main` is a folder here, not the branch (git's reading of `--`)."""
    (repo / "main").mkdir()
    (repo / "main" / "job.py").write_text(FILES["tune.py"])
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a folder named like the branch")
    (repo / "main" / "job.py").write_text(FILES["tune.py"].replace("epochs=5", "epochs=50"))
    code, out = _run(repo, monkeypatch, "--format", "json", "HEAD", "--", "main")
    data = json.loads(out)
    assert code == 0 and data["head"]["kind"] == "worktree"
    assert [f["path"] for f in data["files"]] == ["main/job.py"]
    code, _ = _run(repo, monkeypatch, "HEAD", "main", "HEAD", "--", "main")
    assert code == 2 and "at most 2 revisions before `--`" in capsys.readouterr().err
    code, _ = _run(repo, monkeypatch, "tune.py", "--", "main")  # before `--`, only revisions
    assert code == 2 and "tune.py: not a revision" in capsys.readouterr().err


def test_the_diff_parser_is_built_without_importing_the_review():
    """`greenlint diff`'s parser names its formats (greenlint.review.FORMATS) without importing the
    review, whose modules the run then imports in one go; each format named renders."""
    import sys

    from greenlint.review import FORMATS
    from greenlint.review.compare import Diff
    from greenlint.review.formats import render

    child = (
        "import sys\nfrom greenlint.cli import build_parser\n"
        "build_parser('diff').parse_args(['diff', '--format', 'sarif'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('greenlint.review.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
    empty = Diff(gitfs.WORKTREE, gitfs.WORKTREE, [])
    assert FORMATS == ("text", "json", "github", "markdown", "sarif")
    assert all(isinstance(render(fmt, empty, []), str) for fmt in FORMATS)


def test_a_diff_imports_no_rule_unless_the_configuration_names_codes(repo, tmp_path):
    """A diff runs only what it reports: in a fresh interpreter with a cold lint cache, a diff loads
    no rule module, nor what rules read beside a file for the lint cache's keys (tf_target, beside):
    the rules' codes are read only to judge codes the configuration names."""
    import os
    import sys

    text = (repo / "tune.py").read_text()
    (repo / "tune.py").write_text(text.replace("epochs=5, batch_size=32)", "epochs=50, batch_size=32)"))
    child = (
        "import sys\nfrom greenlint.cli import main\ncode = main(['diff', 'HEAD'])\n"
        "rules = sorted(m for m in sys.modules if m.startswith('greenlint.rules.') and m not in"
        " ('greenlint.rules.site', 'greenlint.rules.codes', 'greenlint.rules.diagnostic'))\n"
        "read = sys.modules['greenlint.rules.codes'].table.cache_info().currsize\n"
        "print('rules:', rules, code, 'codes read' * read, file=sys.stderr)\n"
    )

    def run(cache: str) -> str:
        env = dict(os.environ, GREENLINT_CACHE_DIR=str(tmp_path / cache), XDG_CACHE_HOME=str(tmp_path / "xdg"))
        done = subprocess.run([sys.executable, "-c", child], cwd=repo, env=env, capture_output=True, text=True)
        assert "×" in done.stdout, done.stdout + done.stderr
        return done.stderr.splitlines()[-1]

    assert run("cold") == "rules: [] 0 "
    (repo / "pyproject.toml").write_text('[tool.greenlint]\nignore = ["GL101"]\n')  # a code to judge
    assert run("named") == "rules: [] 0 codes read"


def test_a_submodule_counts_on_neither_side(repo, monkeypatch):
    """A commit's snapshot leaves a submodule out; the working tree must too, or a clean tree
    reads as adding the submodule's calls."""
    sub = repo / "vendored"
    sub.mkdir()
    git(sub, "init", "-q", "-b", "main")
    (sub / "job.py").write_text(FILES["tune.py"])
    git(sub, "add", "-A")
    git(sub, "commit", "-qm", "sub")
    git(repo, "add", "vendored")  # a gitlink (mode 160000)
    git(repo, "commit", "-qm", "a submodule")
    assert "160000" in git(repo, "ls-files", "--stage", "vendored")
    code, out = _run(repo, monkeypatch, "--format", "json", "HEAD", "--max-added-j", "0")
    assert code == 0 and json.loads(out)["files"] == []


def test_a_deleted_file_is_reported_deleted(repo, monkeypatch):
    (repo / "tune.py").unlink()
    _, out = _run(repo, monkeypatch, "--format", "json", "HEAD")
    (f,) = json.loads(out)["files"]
    assert (f["path"], f["status"]) == ("tune.py", "deleted")
    assert {c["status"] for c in f["changes"]} == {"removed"}


def test_staged_before_the_first_commit_compares_with_nothing(tmp_path, monkeypatch):
    """The pre-commit hook on a repository's first commit: the empty tree against the index."""
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "tune.py").write_text(FILES["tune.py"])
    git(root, "add", "tune.py")
    code, out = _run(root, monkeypatch, "--staged", "--format", "json")
    data = json.loads(out)
    assert code == 0 and (data["base"]["label"], data["head"]["kind"]) == ("main (no commit yet)", "index")
    (f,) = data["files"]
    assert (f["path"], f["status"]) == ("tune.py", "added")
    assert FIT in {c["api"] for c in f["changes"]}


def test_a_diff_runs_no_rule_and_still_judges_the_configuration(repo, monkeypatch, capsys):
    """A diff reports call sites and file errors, never findings: no rule runs (one that would fail
    leaves no trace), and a configuration naming no rule is still an error, as in `check`."""
    from greenlint.rules.registry import all_rules

    def broken(self, facts, options):
        raise AssertionError("a rule ran")

    for rule in all_rules().values():
        monkeypatch.setattr(rule, "check", broken)
    text = (repo / "tune.py").read_text()
    (repo / "tune.py").write_text(text.replace("epochs=5, batch_size=32)", "epochs=50, batch_size=32)"))
    code, out = _run(repo, monkeypatch, "HEAD")
    assert code == 0 and re.search(r"^tune\.py: [\d.]+ k?J → [\d.]+ k?J, ×", out, re.M), out
    assert "GL002" not in out and "a rule ran" not in out
    (repo / "pyproject.toml").write_text('[tool.greenlint]\nselect = ["GL999"]\n')
    assert _run(repo, monkeypatch, "HEAD")[0] == 2 and "GL999" in capsys.readouterr().err
