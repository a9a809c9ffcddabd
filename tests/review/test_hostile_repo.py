"""`greenlint diff` on a repository someone else controls (issue 29, items 1–4): a commit's tree can
hold `..` entries or a link and a folder of one name, its files can be links, its `.git/config` can
name commands. The snapshot is written only inside its own folder, pruning never follows a link nor
removes a folder greenlint did not write, and git runs none of the configured commands."""

from __future__ import annotations

import io
import json
import os
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from greenlint.cli import main
from greenlint.review import gitfs

TRAIN = "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=5, batch_size=32)\n"
EVIL = "open('/tmp/greenlint-pwned', 'w').write('x')\n"


def git(root: Path, *args: str, data: str | None = None) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root),
           "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env,
                          input=data).stdout.strip()


def blob(root: Path, text: str) -> str:
    return git(root, "hash-object", "-w", "--stdin", data=text)


def tree(root: Path, *entries: tuple[str, str, str]) -> str:
    """A tree object of (mode, sha, name) entries, as `git mktree` takes them (it accepts `..`)."""
    kinds = {"100644": "blob", "120000": "blob", "040000": "tree"}
    return git(root, "mktree", data="".join(f"{m} {kinds[m]} {sha}\t{name}\n" for m, sha, name in entries))


def commit(root: Path, tree_sha: str, parent: str = "HEAD") -> str:
    return git(root, "commit-tree", tree_sha, "-p", parent, "-m", "hostile")


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "train.py").write_text(TRAIN)
    git(root, "add", ".")
    git(root, "commit", "-qm", "base")
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "a" / "b" / "c" / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(root)
    return root


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["diff", *argv])
    return code, out.getvalue(), err.getvalue()


# -- 1. tree entries that would leave the snapshot ----------------------------------------------


@pytest.mark.parametrize("path, reason", [
    ("../evil.py", "'..'"), ("a/../../evil.py", "'..'"), ("./a.py", "'.'"), ("a//b.py", "''"), ("", "empty"),
    ("/etc/evil.py", "absolute"), ("a\0b.py", "NUL"), (".git/hooks/x.py", ".git"), ("a/.GIT/x.py", ".git"),
])
def test_unsafe_paths_are_named(path, reason):
    assert reason in gitfs.unsafe(path)


def test_a_folder_that_is_a_link_in_the_same_tree_is_refused():
    assert "'pkg' is a symbolic link" in gitfs.unsafe("pkg/evil.py", {"pkg"})
    kept, refused = gitfs.split_unsafe({"pkg": "link:1", "pkg/sub/evil.py": "2", "ok.py": "3"})
    assert kept == {"pkg": "link:1", "ok.py": "3"} and [r.path for r in refused] == ["pkg/sub/evil.py"]
    assert gitfs.unsafe("lib/pkg.py") is None and gitfs.unsafe(".hidden/..x.py") is None


def test_dotdot_entries_never_write_outside_the_snapshot(repo, tmp_path):
    good = blob(repo, TRAIN.replace("epochs=5", "epochs=50"))
    evil = blob(repo, EVIL)
    inner = tree(repo, ("100644", evil, "sitecustomize.py"))
    for _ in range(7):  # from <snapshots>/<folder>/a: up to the snapshot folder, then 6 more to tmp_path
        inner = tree(repo, ("040000", inner, ".."))
    hostile = commit(repo, tree(repo, ("040000", inner, "a"), ("100644", good, "train.py")))
    entry = "a/" + "../" * 7 + "sitecustomize.py"
    assert entry in git(repo, "ls-tree", "-r", "--name-only", hostile)
    code, out, err = run("HEAD", hostile, "--format", "json")
    assert not (tmp_path / "sitecustomize.py").exists() and not list(tmp_path.rglob("sitecustomize.py"))
    assert code == 0
    assert f"{hostile} ({hostile[:12]}): tree entry {entry!r} refused: a path component '..'" in err
    data = json.loads(out)
    (change,) = [c for f in data["files"] for c in f["changes"]]  # the rest of the commit is compared
    assert change["path"] == "train.py" and [r["text"] for r in change["reasons"]] == ["epochs 5 → 50"]
    assert [e["code"] for e in data["errors"]] == ["GL002"]


def test_a_link_and_a_folder_of_one_name_never_write_through_the_link(repo, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    link = blob(repo, str(outside))
    evil = blob(repo, EVIL)
    folder = tree(repo, ("100644", evil, "sitecustomize.py"))
    # a link with a name the snapshot keeps (`*.py`), and a folder of the same name
    hostile = commit(repo, tree(repo, ("120000", link, "pkg.py"), ("040000", folder, "pkg.py"),
                                ("100644", blob(repo, TRAIN), "train.py")))
    assert git(repo, "ls-tree", "-r", "--name-only", hostile).split() == ["pkg.py", "pkg.py/sitecustomize.py", "train.py"]
    code, _, err = run("HEAD", hostile)
    assert not (outside / "sitecustomize.py").exists() and list(outside.iterdir()) == []
    assert code == 0 and "'pkg.py/sitecustomize.py' refused: its folder 'pkg.py' is a symbolic link" in err


def test_writes_never_follow_a_link_even_past_the_path_checks(tmp_path):
    root, outside = tmp_path / "snap", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "pkg").symlink_to(outside)
    with pytest.raises(OSError):
        gitfs._put(root, ["pkg", "evil.py"], b"x")
    (root / "f.py").symlink_to(outside / "f.py")
    with pytest.raises(OSError):
        gitfs._put(root, ["f.py"], b"x", replace=True)
    assert list(outside.iterdir()) == []


def test_an_entry_the_file_system_refuses_is_named_on_every_run(repo, monkeypatch):
    """What the path checks cannot see (on a case-insensitive disk `PKG.py/x.py` folds onto the link
    `pkg.py`) fails in `_put`, which never follows the link: the entry is named, then and later."""
    real_put = gitfs._put

    def folding_put(root, parts, data=b"", link=None, replace=False):
        if parts[0] == "evil.py":
            raise OSError(40, "Too many levels of symbolic links")
        return real_put(root, parts, data, link, replace)

    monkeypatch.setattr(gitfs, "_put", folding_put)
    hostile = commit(repo, tree(repo, ("100644", blob(repo, EVIL), "evil.py"), ("100644", blob(repo, TRAIN), "train.py")))
    for _ in range(2):  # written, then from the snapshot already there
        code, _, err = run("HEAD", hostile)
        assert code == 0 and "tree entry 'evil.py' refused: cannot be written inside the snapshot" in err, err


# -- 2. and 3. pruning ---------------------------------------------------------------------------


def _many_commits(repo: Path, n: int) -> list[str]:
    """*n* commits of distinct contents (each its own snapshot)."""
    out = []
    for i in range(n):
        out.append(commit(repo, tree(repo, ("100644", blob(repo, TRAIN.replace("epochs=5", f"epochs={i + 6}")), "train.py"))))
    return out


def test_a_committed_snapshots_link_is_never_followed(repo, tmp_path):
    victim = tmp_path / "victim"
    for i in range(12):
        (victim / f"folder{i:02}").mkdir(parents=True)
    (repo / ".glcache").mkdir()
    (repo / ".glcache" / "snapshots").symlink_to(victim)
    (repo / "pyproject.toml").write_text('[tool.greenlint]\ncache-dir = ".glcache"\n')
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "a cache folder that is a link")
    (repo / "train.py").write_text(TRAIN.replace("epochs=5", "epochs=7"))
    git(repo, "add", "train.py")
    for argv in (["--staged"], ["HEAD~1", "HEAD"]):
        code, _, err = run(*argv)
        assert code == 2 and "snapshots: is a symbolic link" in err, err
    assert sorted(p.name for p in victim.iterdir()) == [f"folder{i:02}" for i in range(12)]


def test_pruning_removes_only_greenlints_own_snapshots(repo, tmp_path):
    cache = tmp_path / "artifacts"
    mine = [cache / "snapshots" / f"data{i:02}" for i in range(6)]
    mine += [cache / "snapshots" / f"{i:024x}" for i in range(6)]  # a snapshot's name, without the marker
    for i, folder in enumerate(mine):
        folder.mkdir(parents=True)
        (folder / "keep.txt").write_text("mine")
        os.utime(folder, (1000 + i, 1000 + i))  # older than any snapshot
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (cache / "snapshots" / "ffffffffffffffffffffffff").symlink_to(elsewhere)
    (elsewhere / gitfs.MARKER).write_text("")
    commits = _many_commits(repo, 11)
    for old, new in zip(commits, commits[1:]):
        code, _, err = run("--cache-dir", str(cache), old, new)
        assert code == 0, err
    assert all((folder / "keep.txt").read_text() == "mine" for folder in mine)
    assert (elsewhere / gitfs.MARKER).exists()
    ours = [p for p in (cache / "snapshots").iterdir() if (p / gitfs.MARKER).is_file() and not p.is_symlink()]
    assert len(ours) == gitfs.SNAPSHOTS_KEPT  # greenlint's own are still pruned


def test_a_snapshot_folder_greenlint_did_not_write_is_neither_used_nor_removed(repo, tmp_path):
    cache = tmp_path / "cache2"
    run("--cache-dir", str(cache), "HEAD", "HEAD")
    (folder,) = (cache / "snapshots").iterdir()
    (folder / gitfs.MARKER).unlink()
    code, _, err = run("--cache-dir", str(cache), "HEAD", "HEAD")
    assert code == 2 and "not a snapshot greenlint wrote" in err and (folder / "train.py").exists()


# -- 4. git runs none of the commands a repository's config names ------------------------------------


def test_git_runs_no_command_from_the_repository_config(repo, tmp_path):
    marker = tmp_path / "ran"
    script = tmp_path / "hook.sh"
    script.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {marker}\ncat\n")
    script.chmod(0o755)
    for key, value in [("core.fsmonitor", str(script)), ("filter.evil.clean", str(script)),
                       ("filter.evil.smudge", str(script)), ("filter.evil.required", "true"),
                       ("filter.evil.process", str(script)), ("diff.evil.textconv", str(script)),
                       ("diff.evil.command", str(script)), ("diff.external", str(script)),
                       ("core.hooksPath", str(tmp_path)), ("core.pager", str(script))]:
        git(repo, "config", key, value)
    (repo / ".gitattributes").write_text("*.py filter=evil diff=evil\n")
    marker.unlink(missing_ok=True)  # git add above may have run them: only greenlint's runs count
    (repo / "train.py").write_text(TRAIN.replace("epochs=5", "epochs=8"))
    os.utime(repo / "train.py", (1, 1))  # stat info differs from the index: git must read the file
    for argv in (["HEAD"], ["--staged"], ["HEAD", "--", "train.py"]):
        code, _, err = run(*argv)
        assert code in (0, 1), err
        assert not marker.exists(), (argv, marker.read_text())
    (repo / "new.py").write_text(TRAIN)
    code, _, err = run("HEAD")
    assert not marker.exists() and code in (0, 1), err
