"""Held-out variants of issue 29 items 7–8 (argument shapes that gave a wrong result without an
error): a path after `--` that names nothing on either side of `greenlint diff`."""

from __future__ import annotations

import subprocess

import pytest

from tests.hardening import fuzz
from tests.hardening.fuzz import _git, _write


@pytest.fixture
def repo(tmp_path, monkeypatch, own_caches):
    root = tmp_path / "repo"
    (root / "sub").mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    _write(root, "a.py", fuzz.TF + fuzz.SNIPPETS[0])
    _write(root, "sub/b.py", fuzz.TF + fuzz.SNIPPETS[1])
    _write(root, "README.md", "# a project\n")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "base")
    _write(root, "a.py", fuzz.TF + fuzz.SNIPPETS[0].replace("epochs=5", "epochs=50"))
    _git(root, "commit", "-qam", "more epochs")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("argv", [
    ["HEAD~1", "HEAD", "--", "a_typo.py"], ["HEAD~1", "--", "nowhere/"], ["--staged", "--", "a_typo.py"],
    ["HEAD~1", "HEAD", "--", ":(glob)*.py"], ["HEAD~1", "HEAD", "--", "README.md"],
])
def test_a_path_on_neither_side_is_an_error_not_nothing_changed(repo, argv):
    code, out, err = fuzz._main(["diff", *argv])
    assert code == 2 and "on neither side" in err and argv[-1].rstrip("/") in err, (code, out, err)


@pytest.mark.parametrize("argv", [
    ["HEAD~1", "HEAD", "--", "a.py"], ["HEAD~1", "HEAD", "--", "a.py", "sub"], ["HEAD~1", "--", "./a.py"],
    ["HEAD~1", "HEAD", "--", "sub/../a.py"],
])
def test_a_path_on_a_side_is_compared(repo, argv):
    code, out, err = fuzz._main(["diff", *argv])
    assert code == 0 and "a.py" in out and "epochs 5 → 50" in out, (code, out, err)


def test_a_file_deleted_since_the_base_is_on_a_side(repo):
    _git(repo, "rm", "-q", "a.py")
    code, out, err = fuzz._main(["diff", "HEAD", "--", "a.py"])
    assert code == 0 and "a.py" in out and "on neither side" not in err, (code, out, err)


@pytest.mark.parametrize("path", ["a" * 300, "/".join(["b" * 200] * 30), "a.py/" + "c" * 300])
def test_a_path_longer_than_the_file_system_holds_is_named(repo, path):
    """Issue 29 item 12's NAME_MAX / PATH_MAX paths, given to `diff` (they crashed with OSError)."""
    for argv in (["HEAD", "--", path], ["HEAD~1", "HEAD", "--", path]):
        code, out, err = fuzz._main(["diff", *argv])
        assert code == 2 and "Traceback" not in err and "on neither side" in err, (code, err[-300:])


@pytest.mark.parametrize("cache", ["a" * 300, "/dev/null/x", "a.py/cache"])
def test_a_cache_dir_that_cannot_be_a_folder_is_named(repo, cache):
    """`--cache-dir` over NAME_MAX, below a device or below a file: `check` runs without a cache
    (it crashed on the long name), `diff` names the folder (it crashed on every one)."""
    code, out, err = fuzz._main(["check", "a.py", "--cache-dir", cache, "--format", "json"])
    assert code in (0, 1) and "Traceback" not in err, err[-300:]
    code, out, err = fuzz._main(["diff", "HEAD~1", "HEAD", "--cache-dir", cache])
    assert code == 2 and "cannot hold snapshots" in err and "choose another cache-dir" in err, (code, err[-300:])


@pytest.mark.parametrize("argv", [["main"], ["HEAD~1", "main"], ["--staged", "main"]])
def test_a_word_both_a_revision_and_a_path_is_an_error_as_in_git(repo, argv):
    """A branch `main` and a folder `main`: git refuses to guess (`ambiguous argument`); taking it
    for the revision would compare every file when the path was meant, or the reverse."""
    _write(repo, "main/c.py", fuzz.TF + fuzz.SNIPPETS[2])
    code, out, err = fuzz._main(["diff", *argv])
    assert code == 2 and "main: both a revision and a path" in err and "--" in err, (code, out, err)


@pytest.mark.parametrize("argv, base, paths", [
    (["HEAD~1", "main", "--"], "HEAD~1", ["a.py"]), (["--", "main"], "main", ["main/c.py"]),
    (["HEAD~1", "--", "main"], "HEAD~1", ["main/c.py"]),
])
def test_with_dashes_the_same_word_is_what_its_side_says(repo, argv, base, paths):
    import json

    _write(repo, "main/c.py", fuzz.TF + fuzz.SNIPPETS[2])
    code, out, err = fuzz._main(["diff", "--format", "json", *argv])
    found = json.loads(out)
    assert code in (0, 1) and found["base"]["label"] == base, err
    assert sorted({f["path"] for f in found["files"]}) == paths, found["files"]


@pytest.mark.parametrize("path", ["sub2/m.py", "sub2"])
def test_a_path_in_a_submodule_is_an_error_not_nothing_changed(repo, tmp_path, path):
    """A file of a checked-out submodule, changed: greenlint compares no submodule's files (git is
    never made to look inside one), so naming it said "no call site changed" and passed every
    budget; git itself refuses the path ("is in submodule")."""
    source = tmp_path / "subsrc"
    source.mkdir()
    _git(source, "init", "-q", "-b", "main")
    _write(source, "m.py", fuzz.TF + fuzz.SNIPPETS[0])
    _git(source, "add", ".")
    _git(source, "commit", "-qm", "sub")
    _git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source), "sub2")
    _git(repo, "commit", "-qm", "a submodule")
    _write(repo, "sub2/m.py", fuzz.TF + fuzz.SNIPPETS[0].replace("epochs=5", "epochs=500"))
    code, out, err = fuzz._main(["diff", "HEAD", "--", path])
    assert code == 2 and f"{path}: on neither side" in err and "submodules" in err, (code, out, err)
    code, out, err = fuzz._main(["diff", "HEAD", "--format", "json"])  # the whole tree: the submodule left out
    assert code in (0, 1) and '"sub2/' not in out, out


@pytest.mark.parametrize("argv, base, head", [
    (["HEAD~1..HEAD"], "HEAD~1", "HEAD"), (["HEAD~1.."], "HEAD~1", "HEAD"), (["..HEAD~1"], "HEAD", "HEAD~1"),
    (["HEAD~1...HEAD"], "merge-base of HEAD~1 and HEAD", "HEAD"), (["HEAD~1..HEAD", "--", "a.py"], "HEAD~1", "HEAD"),
    (["HEAD~1..HEAD", "--"], "HEAD~1", "HEAD"),
])
def test_a_revision_range_names_both_sides_as_in_git_diff(repo, argv, base, head):
    """`git diff A..B` compares A with B, `A...B` their merge-base with B (an empty end: HEAD);
    `A..B` was "not a revision"."""
    import json

    code, out, err = fuzz._main(["diff", "--format", "json", *argv])
    assert code in (0, 1), err
    found = json.loads(out)
    assert (found["base"]["label"], found["head"]["label"]) == (base, head)
    assert [f["path"] for f in found["files"]] == ["a.py"]


@pytest.mark.parametrize("argv", [["nope..HEAD"], ["HEAD..nope"], ["--staged", "HEAD~1..HEAD"]])
def test_a_range_with_an_end_that_is_no_revision_is_named(repo, argv):
    code, out, err = fuzz._main(["diff", *argv])
    assert code == 2 and "not a revision" in err, (code, out, err)


@pytest.mark.parametrize("argv", [
    ["check", ""], ["check", "a.py", ""], ["check", "--format", "json", ""], ["calls", ""],
    ["diff", "HEAD~1", "HEAD", "--", ""], ["diff", "HEAD~1", "--", "a.py", ""], ["diff", "--staged", "--", ""],
])
def test_an_empty_path_is_an_error_not_the_whole_folder(repo, argv):
    """`greenlint check "$FILE"` with FILE unset: `Path("")` is `.`, so every file of the folder was
    checked (or compared, after `diff --`) without a word; git refuses an empty pathspec too."""
    code, out, err = fuzz._main(argv)
    assert code == 2 and "'': an empty path" in err and "Traceback" not in err, (code, out[-300:], err[-300:])
    assert "sub/b.py" not in out


def test_a_file_in_a_merge_conflict_is_named_not_deleted(repo):
    """`diff --staged` during a merge conflict: the file has stages 1-3 and no stage 0 in the
    index, and was reported `deleted` (all its joules gone, ×0) without a word."""
    import json

    _git(repo, "checkout", "-qb", "other", "HEAD~1")
    _write(repo, "a.py", fuzz.TF + fuzz.SNIPPETS[0].replace("epochs=5", "epochs=7"))
    _git(repo, "commit", "-qam", "other epochs")
    _git(repo, "checkout", "-q", "main")
    assert subprocess.run(["git", "merge", "-q", "other"], cwd=repo, capture_output=True).returncode != 0
    for argv in (["--staged"], ["--staged", "--", "a.py"]):
        code, out, err = fuzz._main(["diff", "--format", "json", *argv])
        assert code in (0, 1) and json.loads(out)["files"] == [], (code, out, err)
        assert "'a.py' is unmerged (a merge conflict)" in err, err


@pytest.mark.parametrize("argv", [
    ["check", "--config", "", "a.py"], ["check", "--cache-dir", "", "a.py"], ["calls", "--config", "", "a.py"],
    ["diff", "--config", "", "HEAD~1"], ["diff", "--cache-dir", "", "HEAD~1"], ["lsp", "--config", ""],
])
def test_an_empty_config_or_cache_dir_is_a_usage_error_not_the_default(repo, argv, capsys):
    """`--config "$CFG"` with CFG unset: an empty value read as no option at all, so the
    configuration found beside the code (or the user cache) was used without a word."""
    from greenlint.cli import main

    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and f"argument {argv[1]}: expected a path, got an empty one" in err, err[-300:]


def test_an_empty_rule_name_is_no_rule_not_the_list(repo):
    """`greenlint rule "$CODE"` with CODE unset printed the list of every rule and exited 0."""
    code, out, err = fuzz._main(["rule", ""])
    assert code == 2 and "no rule ''" in err and out == "", (code, out[:200], err)
