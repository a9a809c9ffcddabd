"""Git revisions as snapshots greenlint can analyse: read from git objects, never checked out.

A *side* of a diff is a commit, the index (what `git commit` would record) or the working tree.
The working tree is analysed where it is. A commit or the index is written, from git's objects
(`git ls-tree`, `git ls-files -s`, `git cat-file --batch`), into a folder of the cache named by
its content (`snapshot`): the Python files, notebooks and the files the analysis reads beside
them (project markers, `.gitignore`), so that the analysis follows the project's imports within
that version exactly as it does on disk. The work tree, the index and HEAD are never touched and
nothing is executed. The working tree's profiles (`.greenlint/profiles.json`, measurements of this
machine, usually untracked) are laid over a snapshot that has none of its own.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from greenlint.check.config import INCLUDE_SUFFIXES
from greenlint.profile import PROFILE_DIR, PROFILE_FILE

#: Files besides code the analysis reads: project roots (import search) and ignore files (discovery).
COMPANIONS = ("pyproject.toml", "setup.py", "setup.cfg", ".gitignore")
#: Branch names tried, in order, for the default branch when `origin/HEAD` names none.
DEFAULT_BRANCHES = ("main", "master", "trunk", "origin/main", "origin/master")
SNAPSHOTS_KEPT = 8  # snapshots of other revisions kept in the cache (least recently used go)
_REGULAR = ("100644", "100755")  # blob modes of files
_LINK = "120000"  # a symbolic link: its blob is the target (written as a link); submodules are left out


class GitError(Exception):
    """git failed or the revision does not exist (exit code 2); the message says which."""


def git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    """git's output for `git -C repo ARGS`; GitError with its message when it fails."""
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed"
        raise GitError(message.splitlines()[0] if message else message)
    return proc.stdout


def toplevel(start: Path) -> Path:
    """The root of the work tree holding *start*."""
    return Path(git(start, "rev-parse", "--show-toplevel").decode().strip())


@dataclass(frozen=True)
class Side:
    """One side of a diff: `kind` is commit, index or worktree; `label` is what people read."""

    kind: str
    label: str
    commit: str | None = None

    @property
    def on_disk(self) -> bool:
        return self.kind == "worktree"


WORKTREE = Side("worktree", "working tree")
INDEX = Side("index", "index")


def commit_side(repo: Path, revision: str) -> Side:
    """The commit *revision* names (a branch, tag, sha, `HEAD~2`...)."""
    try:
        sha = git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    except GitError:
        raise GitError(f"{revision}: not a revision of this repository") from None
    return Side("commit", revision, sha.decode().strip())


def default_branch(repo: Path) -> str:
    """The default branch: what `origin/HEAD` points at, else the first of DEFAULT_BRANCHES."""
    try:
        ref = git(repo, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD").decode().strip()
        if ref:
            return ref
    except GitError:
        pass
    for name in DEFAULT_BRANCHES:
        try:
            git(repo, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
            return name
        except GitError:
            continue
    raise GitError("no default branch found (no origin/HEAD, main or master): name the base revision")


def default_base(repo: Path) -> Side:
    """The merge-base of HEAD with the default branch, labelled by the branch's name."""
    branch = default_branch(repo)
    sha = git(repo, "merge-base", branch, "HEAD").decode().strip()
    return Side("commit", branch.removeprefix("origin/"), sha)


def _relevant(path: str) -> bool:
    name = PurePosixPath(path).name
    return name.endswith(INCLUDE_SUFFIXES) or name in COMPANIONS or path.endswith(f"{PROFILE_DIR}/{PROFILE_FILE}")


def entries(repo: Path, side: Side) -> dict[str, str]:
    """`{path: blob sha}` of the files (and links) of a commit or the index that the analysis reads;
    a link's sha is prefixed with `link:`."""
    if side.kind == "commit":
        raw = git(repo, "ls-tree", "-r", "-z", "--full-tree", side.commit)
    else:
        raw = git(repo, "ls-files", "--stage", "-z")
    out = {}
    for record in raw.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        fields = meta.split()
        path = name.decode("utf-8", "surrogateescape")
        stage_ok = side.kind == "commit" or fields[2] == b"0"  # a merge conflict's other stages: not a file
        mode, sha = fields[0].decode(), fields[2 if side.kind == "commit" else 1].decode()
        if mode in (*_REGULAR, _LINK) and stage_ok and _relevant(path):
            out[path] = f"link:{sha}" if mode == _LINK else sha
    return out


def snapshot(repo: Path, side: Side, cache: Path) -> Path:
    """The folder holding the files of *side* (a commit or the index), written once per content."""
    files = entries(repo, side)
    digest = hashlib.sha256("".join(f"{p}\0{s}\n" for p, s in sorted(files.items())).encode("utf-8", "surrogateescape"))
    folder = cache / digest.hexdigest()[:24]
    if not (folder / ".complete").exists():
        _write(repo, files, folder)
    os.utime(folder)
    _overlay_profiles(repo, files, folder)
    _prune(cache, keep=folder)
    return folder


def _write(repo: Path, files: dict[str, str], folder: Path) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=folder.parent))
    try:
        blobs = _blobs(repo, sorted({sha.removeprefix("link:") for sha in files.values()}))
        for path, sha in files.items():
            target = partial.joinpath(*PurePosixPath(path).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            if sha.startswith("link:"):
                os.symlink(blobs[sha.removeprefix("link:")].decode("utf-8", "surrogateescape"), target)
            else:
                target.write_bytes(blobs[sha])
        # the snapshot's root is its work tree's root (import search and .gitignore stop there)
        (partial / ".git").mkdir(exist_ok=True)
        (partial / ".complete").write_bytes(b"")
        try:
            partial.rename(folder)
        except OSError:  # written meanwhile by another run: theirs is the same
            shutil.rmtree(partial, ignore_errors=True)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


def _blobs(repo: Path, shas: list[str]) -> dict[str, bytes]:
    """The contents of blobs, read in one `git cat-file --batch`."""
    raw = git(repo, "cat-file", "--batch", data="".join(f"{s}\n" for s in shas).encode())
    out, at = {}, 0
    for sha in shas:
        end = raw.index(b"\n", at)
        header = raw[at:end].split()
        size = int(header[2])
        out[sha] = raw[end + 1 : end + 1 + size]
        at = end + 1 + size + 1
    return out


def _overlay_profiles(repo: Path, files: dict[str, str], folder: Path) -> None:
    """Copy the working tree's profile files into the snapshot where it tracks none of its own."""
    tracked = {p for p in files if p.endswith(PROFILE_FILE)}
    dirs = {PurePosixPath(p).parent for p in files}
    for d in {a for p in dirs for a in (p, *p.parents)}:
        rel = (d / PROFILE_DIR / PROFILE_FILE).as_posix()
        source = repo / rel
        if rel in tracked or not source.is_file():
            continue
        target = folder / rel
        content = source.read_bytes()
        if not target.is_file() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)


def _prune(cache: Path, keep: Path) -> None:
    olds = sorted((p for p in cache.iterdir() if p.is_dir() and not p.name.startswith(".")), key=lambda p: p.stat().st_mtime)
    for old in olds[: max(0, len(olds) - SNAPSHOTS_KEPT)]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


def renames(repo: Path, base: Side, head: Side) -> dict[str, str]:
    """`{old path: new path}` of the files git sees renamed between the sides (`-M`)."""
    target = {"commit": [head.commit or ""], "index": ["--cached"], "worktree": []}[head.kind]
    raw = git(repo, "diff", "-M", "--name-status", "-z", base.commit or "HEAD", *target, "--")
    fields = raw.decode("utf-8", "surrogateescape").split("\0")
    out, i = {}, 0
    while i < len(fields) and fields[i]:
        status = fields[i]
        if status[:1] == "R":
            out[fields[i + 1]] = fields[i + 2]
            i += 3
        else:
            i += 2
    return out
