"""Issue 29's repository kinds in variants no earlier round spells (items 1, 2, 4, 7, 11): tags of
tags and of trees, grafts, signature checking that would run `gpg.program`, copy detection and
relative paths in the repository's config, a per-worktree config, a checked-out submodule and a
nested repository, a file removed from the index only, revision words git reads as ranges, reflog
entries, paths and searches, a word that is both a branch and a file, an empty repository with
files staged, branch names holding direction overrides, `--` with nothing after it. Each case with
a config that names a command also goes through `fuzz.check_repo_case` (nothing written or removed
outside the repository and its cache, no command run)."""

from __future__ import annotations

import json
import subprocess

import pytest

from greenlint.report.escape import visible
from tests.hardening import fuzz
from tests.hardening.fuzz import _blob, _diff, _git, _write
from tests.hardening.samples import LOOP, edit_loop

pytestmark = pytest.mark.timeout(300)
MORE = LOOP.replace("21000", "42000")


def _files(out: str) -> dict[str, str]:
    """{path: status} of `diff --format json` output."""
    return {f["path"]: f["status"] for f in json.loads(out)["files"]}


def _modified(repo, *argv: str) -> dict[str, str]:
    code, out, err = _diff(repo, "--format", "json", *argv)
    assert code == 0 and "Traceback" not in err, err
    return _files(out)


# --- other git objects ------------------------------------------------------------------------------


def test_a_tag_of_a_tag_of_a_commit_is_that_commit(case):
    root, repo, outside = case
    _git(repo, "tag", "-a", "-m", "inner", "v1", "HEAD")
    _git(repo, "tag", "-a", "-m", "outer", "v1-outer", "v1")
    edit_loop(repo)
    assert _modified(repo, "v1-outer") == {"a.py": "modified"}


def test_a_tag_of_a_tree_is_no_revision(case):
    root, repo, outside = case
    _git(repo, "tag", "vtree", _git(repo, "rev-parse", "HEAD^{tree}"))
    code, _, err = _diff(repo, "vtree")
    assert code == 2 and "vtree: not a revision of this repository" in err and "Traceback" not in err, err


def test_a_grafts_file_is_read_as_git_reads_it(case):
    """`.git/info/grafts` (deprecated, still read) claiming HEAD has no parent: HEAD~1 is what git
    says it is, and a commit named by its hash is compared whatever the grafts say."""
    root, repo, outside = case
    base = _git(repo, "rev-parse", "HEAD")
    edit_loop(repo)
    _git(repo, "commit", "-qam", "more")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "grafts").write_text(_git(repo, "rev-parse", "HEAD") + "\n")
    git_says = subprocess.run(["git", "-C", str(repo), "rev-parse", "-q", "--verify", "HEAD~1^{commit}"],
                              capture_output=True, text=True).stdout.strip()
    code, out, err = _diff(repo, "--format", "json", "HEAD~1", "HEAD")
    if git_says:
        assert code == 0 and _files(out) == {"a.py": "modified"}, err
    else:
        assert code == 2 and "HEAD~1: not a revision" in err, err
    assert _modified(repo, base, "HEAD") == {"a.py": "modified"}


def test_signature_checks_the_repository_asks_for_run_no_program(case):
    """`log.showSignature` with `gpg.program` (and its ssh and x509 spellings) naming a command,
    and a commit carrying a signature: reading the commit checks nothing."""
    root, repo, outside = case
    script = str(fuzz.recording_script(outside))
    body = _git(repo, "cat-file", "commit", "HEAD")
    head, _, message = body.partition("\n\n")
    signed = f"{head}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\n{message}\n"
    sha = _git(repo, "hash-object", "-t", "commit", "-w", "--stdin", data=signed)
    _git(repo, "update-ref", "refs/heads/signed", sha)
    for key, value in [("log.showSignature", "true"), ("gpg.program", script), ("gpg.ssh.program", script),
                       ("gpg.x509.program", script), ("merge.verifySignatures", "true")]:
        _git(repo, "config", key, value)
    edit_loop(repo)
    for argv in (["signed"], ["signed", "HEAD"], ["HEAD", "signed", "--format", "json"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "signature") is None


def test_copy_detection_and_relative_paths_in_the_config_keep_the_comparison(case, monkeypatch):
    """`diff.renames = copies` adds `C` lines (three fields) to what git lists; `diff.relative`
    makes paths relative to the folder git runs in. A copied file is added, paths are the
    repository's, from its root or a subfolder."""
    root, repo, outside = case
    _write(repo, "sub/keep.py", "x = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "sub")
    _git(repo, "config", "diff.renames", "copies")
    _git(repo, "config", "diff.relative", "true")
    _git(repo, "config", "status.renames", "copies")
    _write(repo, "copy.py", LOOP)
    _write(repo, "a.py", MORE)
    _git(repo, "add", ".")
    _write(repo, "sub/keep.py", LOOP)
    _git(repo, "add", ".")
    expected = {"copy.py": "added", "a.py": "modified", "sub/keep.py": "modified"}
    assert _modified(repo, "--staged") == expected
    assert _modified(repo, "HEAD") == expected
    assert _modified(repo / "sub", "HEAD") == {"sub/keep.py": "modified"}  # a subfolder's files, named from the root


def test_a_per_worktree_config_naming_commands_runs_none(case):
    """`extensions.worktreeConfig` with `.git/config.worktree` naming fsmonitor, an external diff
    and a filter: read by git after `.git/config`, overridden all the same."""
    root, repo, outside = case
    script = str(fuzz.recording_script(outside))
    _git(repo, "config", "extensions.worktreeConfig", "true")
    for key, value in [("core.fsmonitor", script), ("diff.external", script), ("filter.w.clean", script),
                       ("filter.w.process", script), ("filter.w.required", "true")]:
        _git(repo, "config", "--worktree", key, value)
    (repo / ".gitattributes").write_text("*.py filter=w\n")
    edit_loop(repo)
    for argv in (["HEAD"], ["--staged"], ["HEAD", "--", "a.py"]):
        assert fuzz.check_repo_case(root, repo, outside, argv, "config.worktree") is None


# --- nested repositories and the index ------------------------------------------------------------


def _nested(repo, name: str) -> None:
    """A repository of its own at *repo*/*name*, with a committed Python file."""
    nested = repo / name
    nested.mkdir()
    _git(nested, "init", "-q", "-b", "main")
    _write(nested, "inner.py", LOOP)
    _git(nested, "add", ".")
    _git(nested, "commit", "-qm", "inner")


def test_a_checked_out_submodule_s_files_are_not_the_project_s(case):
    """A submodule checked out in the working tree (a gitlink in the commit): git compares its
    commit, never its files; the working tree side does not count them as added files."""
    root, repo, outside = case
    _nested(repo, "lib")
    _git(repo, "update-index", "--add", "--cacheinfo", f"160000,{_git(repo / 'lib', 'rev-parse', 'HEAD')},lib")
    (repo / ".gitmodules").write_text('[submodule "lib"]\n\tpath = lib\n\turl = ./lib\n')
    _git(repo, "add", ".gitmodules")
    _git(repo, "commit", "-qm", "submodule")
    _write(repo / "lib", "inner.py", MORE)  # an edit inside the submodule: its own repository's change
    assert _modified(repo, "HEAD") == {}
    edit_loop(repo)
    assert _modified(repo, "HEAD") == {"a.py": "modified"}


def test_a_nested_repository_git_does_not_track_is_not_the_project_s(case):
    """A clone inside the work tree (a vendored project, not a submodule): git lists it as one
    untracked folder and never looks inside; its files are not added by the change."""
    root, repo, outside = case
    _nested(repo, "vendor")
    assert _modified(repo, "HEAD") == {}


def test_a_file_removed_from_the_index_only_is_deleted_in_the_staged_side(case):
    """`git rm --cached a.py`: the staged change deletes it; the working tree still holds it."""
    root, repo, outside = case
    _git(repo, "rm", "-q", "--cached", "a.py")
    assert _modified(repo, "--staged") == {"a.py": "deleted"}
    assert _modified(repo, "HEAD") == {}


def test_an_empty_repository_with_files_staged(tmp_path, own_caches):
    """No commit yet, files staged: `--staged` adds them all; HEAD names nothing."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo, "a.py", LOOP)
    _git(repo, "add", "a.py")
    code, out, err = _diff(repo, "--staged", "--format", "json")
    assert code in (0, 2) and "Traceback" not in err, err
    if code == 0:
        assert _files(out) == {"a.py": "added"}
    else:
        assert "no commit" in err.lower() or "unborn" in err.lower() or "HEAD" in err, err


# --- revision words -------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["HEAD~1..HEAD", "HEAD~1...HEAD", "HEAD@{0}", "HEAD@{99}", "@{upstream}", "HEAD:a.py",
                                  ":/base", "HEAD^!", "HEAD^@", "main^{/base}"])
def test_revision_words_git_reads_as_ranges_paths_or_searches(case, word):
    """A range, a reflog entry, a blob path, a message search: a commit greenlint compares (one
    commit named), or exit 2 naming the word; never a traceback nor a range taken as one side."""
    root, repo, outside = case
    _write(repo, "a.py", MORE)
    _git(repo, "commit", "-qam", "more")
    edit_loop(repo)
    code, out, err = _diff(repo, "--format", "json", word)
    assert code in (0, 2) and "Traceback" not in err, err
    if code == 0:
        assert _files(out) == {"a.py": "modified"}
    else:
        assert word in err or visible(word) in err, err


def test_a_word_that_is_a_branch_and_a_file_is_named_ambiguous_or_read_as_git_does(case):
    """`greenlint diff a.py` where `a.py` is a file and a branch: git refuses it as ambiguous
    until `--` says which; greenlint does not pick one silently against git."""
    root, repo, outside = case
    _git(repo, "branch", "a.py")
    edit_loop(repo)
    code, out, err = _diff(repo, "a.py", "--format", "json")
    assert code in (0, 2) and "Traceback" not in err, err
    if code == 2:
        assert "a.py: both a revision and a path" in err, err
    assert _modified(repo, "a.py", "--") == {"a.py": "modified"}  # the branch
    assert _modified(repo, "--", "a.py") == {"a.py": "modified"}  # the file against HEAD


def test_a_separator_with_nothing_after_it_compares_every_file(case):
    root, repo, outside = case
    edit_loop(repo)
    assert _modified(repo, "HEAD", "--") == _modified(repo, "HEAD") == {"a.py": "modified"}


@pytest.mark.parametrize("name", ["feat\u202egnp.yp", "fix\u2066x\u2069", "dev\u200bx", "a\u061cb"])
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_branch_names_holding_direction_marks_are_shown_escaped(case, name, fmt):
    """git accepts a branch named with an RLO, an isolate or a zero-width space; every text
    output naming the revision shows them escaped."""
    root, repo, outside = case
    _git(repo, "branch", name)
    edit_loop(repo)
    _git(repo, "commit", "-qam", "more")
    code, out, err = _diff(repo, name, "HEAD", "--format", fmt)
    assert code == 0 and "Traceback" not in err, err
    assert not fuzz.RAW_CONTROL.search(out + err) and not any(c in out + err for c in "\u200b\u061c"), out


def test_a_missing_blob_of_a_committed_file_is_named_for_what_it_is(case):
    """A commit naming a blob the object store lacks (a damaged clone, no promisor): that file
    named (GL002) and the rest compared; the message says the blob is missing, never that its
    path could write outside the snapshot (what a `..` entry is refused for)."""
    root, repo, outside = case
    tree = _git(repo, "mktree", "--missing", data=f"100644 blob {'ab' * 20}\tb.py\n100644 blob {_blob(repo, MORE)}\ta.py\n")
    commit = _git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "missing")
    code, out, err = _diff(repo, "HEAD", commit)
    assert code == 0 and "b.py" in err and "its blob is not in the repository" in err, err
    assert "could write outside" not in err and "Traceback" not in err, err


# --- links to files -------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["working-tree", "staged", "committed-absolute", "committed-relative"])
def test_a_link_to_a_file_outside_the_repository_is_named_never_read(case, how):
    """git tracks a link, not what it points to: `a.py` made a link to a file elsewhere on the
    machine (in the working tree, staged, or committed with an absolute or a climbing relative
    target) is named (GL002) on that side, and nothing of the file it points to is read into
    the output, which CI may post where others read it."""
    root, repo, outside = case
    _write(outside, "secret.py", LOOP.replace("model.predict", "model.secret_predict"))
    (repo / "a.py").unlink()
    target = str(outside / "secret.py") if how != "committed-relative" else "../" * 12 + str(outside / "secret.py")[1:]
    (repo / "a.py").symlink_to(target)
    argv = {"working-tree": ["HEAD"], "staged": ["--staged"]}.get(how, ["HEAD~1", "HEAD"])
    if how != "working-tree":
        _git(repo, "add", "a.py")
    if how.startswith("committed"):
        _git(repo, "commit", "-qm", "link")
    code, out, err = _diff(repo, "--format", "json", *argv)
    assert code == 0 and "'a.py' is a symbolic link leading out of the repository" in err, err
    assert "secret_predict" not in out + err
    assert fuzz.check_repo_case(root, repo, outside, argv, how) is None


def test_a_link_to_another_file_of_the_repository_is_no_error(case):
    """`alias.py` linking to `a.py`: a file of the project met twice (read once, by its own name,
    as `check` reads it), never named as leading out."""
    root, repo, outside = case
    (repo / "alias.py").symlink_to("a.py")
    _git(repo, "add", "alias.py")
    code, out, err = _diff(repo, "--format", "json", "--staged")
    assert code == 0 and "GL002" not in err and _files(out) == {}, err
    edit_loop(repo)
    code, out, err = _diff(repo, "--format", "json", "HEAD")
    assert code == 0 and "GL002" not in err and _files(out) == {"a.py": "modified"}, err
