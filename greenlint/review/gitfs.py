"""Git revisions as snapshots greenlint can analyse: read from git objects, never checked out.

A *side* of a diff is a commit, the index (what `git commit` would record) or the working tree.
The working tree is analysed where it is (a file a sparse checkout leaves out of it is unchanged, as git
reads it, never deleted). A commit or the index is written, from git's objects
(`git ls-tree`, `git ls-files -s`, `git cat-file --batch`), into a folder of the cache named by
its content (`snapshot`): the Python files, notebooks and the files the analysis reads beside
them (project markers, `.gitignore`), so that the analysis follows the project's imports within
that version exactly as it does on disk. The work tree, the index and HEAD are never touched and
nothing is executed. The working tree's profiles (`.greenlint/profiles.json`, measurements of this
machine, usually untracked) are laid over a snapshot that has none of its own.

A repository may be someone else's (a pull request, a clone): git runs with every setting that
runs a command turned off (`SAFE_CONFIG`), a tree entry whose path could leave the snapshot (`..`,
an absolute path, a folder that is a link in the same commit) is refused by name and the rest
written, every write goes through folders opened without following links, and pruning removes
only real folders carrying greenlint's marker, which holds a token kept in the user cache that no
repository can commit (one git tracks, in a user cache set inside a work tree, is not trusted;
docs/hardening.md).
"""

from __future__ import annotations

import errno
import functools
import hashlib
import itertools
import os
import re
import secrets
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from greenlint.analysis.sources import MAX_BYTES, NOTEBOOK_RAW_FACTOR, read_bytes
from greenlint.check.config import INCLUDE_SUFFIXES
from greenlint.check.discovery import SNAPSHOT_MARKER
from greenlint.profile.store import MAX_FILE_BYTES, PROFILE_DIR, PROFILE_FILE

#: Files besides code the analysis reads: project roots (import search) and ignore files (discovery).
COMPANIONS = ("pyproject.toml", "setup.py", "setup.cfg", ".gitignore")
#: Branch names tried, in order, for the default branch when `origin/HEAD` names none.
DEFAULT_BRANCHES = ("main", "master", "trunk", "origin/main", "origin/master")
SNAPSHOTS_KEPT = 8  # snapshots of other revisions kept in the cache (least recently used go)
_REGULAR = ("100644", "100755")  # blob modes of files
_LINK = "120000"  # a symbolic link: its blob is the target (written as a link); submodules are left out
_GITLINK = "160000"  # a submodule's commit
#: The largest blob read into memory: what the analysis would read of a notebook or a profile file at
#: most. A larger one (a commit can hold gigabytes of one byte, compressed to kilobytes) is written as
#: a sparse file of its size, which the analysis names as too large without reading it.
_MAX_BLOB = max(MAX_BYTES * NOTEBOOK_RAW_FACTOR, MAX_FILE_BYTES)
#: The file greenlint writes last into each snapshot folder it creates: pruning removes only these.
#: Its second line is this user's token (`_token`): a repository can commit a folder that looks
#: like a snapshot, marker and all, under a project's cache-dir, but not with the token.
MARKER = SNAPSHOT_MARKER
_MARKER_TEXT = b"a snapshot of a git revision written by greenlint diff; pruned by it\n"
_TOKEN_FILE = "snapshot-token"  # in the user cache (greenlint.paths.cache_dir), outside every project
_SNAPSHOT_NAME = re.compile(r"[0-9a-f]{24}")
_LAYOUT = "marker-v3\n"  # in the folder's name: snapshots of older versions (no token) are never reused
#: git settings that would run a command, turned off for every git greenlint runs (`-c` wins over
#: every config file): the fsmonitor hook, hooks, external diff. Filters (`filter.<driver>.clean`,
#: `smudge`, `process`) are named per driver by `_filter_overrides`; `git diff` also gets
#: `--no-ext-diff --no-textconv --ignore-submodules=all` (a submodule's own config, which these
#: `-c` do not reach, would run its filters when git looks inside it), and blobs are read by
#: `cat-file --batch`, which applies no filter.
SAFE_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.untrackedCache=false",
    "diff.external=",
    "core.pager=cat",
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "protocol.allow=never",
)
#: Environment variables that would make git run a command or read the system's config. `_run`
#: also sets GIT_ALLOW_PROTOCOL to none: unlike `protocol.allow=never`, which a repository's own
#: `protocol.ext.allow=always` overrides, it refuses every transport, so a partial clone's lazy
#: fetch of a missing blob runs no `ext::` command, `uploadpack` or `core.gitProxy`
#: (GIT_NO_LAZY_FETCH, git 2.44+, skips that fetch altogether).
_UNSAFE_ENV = ("GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_EDITOR",
               "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")


#: Seconds a git call may take: a configuration including a FIFO (`include.path`, in a `.git`
#: that came with a checkout) keeps git reading it until the call is stopped.
GIT_TIMEOUT_S = 120


class GitError(Exception):
    """git failed or the revision does not exist (exit code 2); the message says which."""


def git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    """git's output for `git -C repo ARGS`, run with command-running settings off (SAFE_CONFIG,
    the filters of `_filter_overrides`); GitError with its message when it fails."""
    return _run(repo, [*_config_args(SAFE_CONFIG), *_filter_overrides(repo), *args], data)


#: Files of a `.git` folder that git reads whole on the calls greenlint makes, whatever the settings.
_READ_WHOLE = ("config", "info/attributes", "info/exclude", "HEAD")


def _refuse_unreadable_git_files(repo: Path) -> None:
    """GitError at once, naming the file, where the `.git` folder above *repo* holds one of
    `_READ_WHOLE` that is not a regular file: git would read a FIFO or a device until the call's
    time limit (a `.git` that came with a checkout can hold anything)."""
    for folder in (repo, *repo.parents):
        dot_git = folder / ".git"
        if os.path.lexists(dot_git):
            break
    else:
        return
    for name in _READ_WHOLE:
        path = dot_git / name
        try:
            mode = os.stat(path).st_mode
        except OSError:  # absent, a dangling link, or .git a file (a worktree's): git says what it finds
            continue
        if not stat.S_ISREG(mode):
            raise GitError(f"{path}: not a regular file (a FIFO or a device, which git would read until it ends);"
                           " git is not run on this repository")


def _run(repo: Path, args: list[str], data: bytes | None = None) -> bytes:
    _refuse_unreadable_git_files(repo)
    env = {k: v for k, v in os.environ.items() if k not in _UNSAFE_ENV and not k.startswith("GIT_CONFIG_KEY_")
           and not k.startswith("GIT_CONFIG_VALUE_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", GIT_NO_REPLACE_OBJECTS="1",
               GIT_ALLOW_PROTOCOL="", GIT_NO_LAZY_FETCH="1")
    shown = [a for i, a in enumerate(args) if a != "-c" and (i == 0 or args[i - 1] != "-c")]  # not SAFE_CONFIG
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, timeout=GIT_TIMEOUT_S,
                              env=env)
    except subprocess.TimeoutExpired:
        raise GitError(f"git {shown[0]} did not finish in {GIT_TIMEOUT_S} s (does the repository's configuration"
                       " include a FIFO or a device, which git reads until it ends?)") from None
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    if proc.returncode != 0:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines() or [f"git {' '.join(shown)} failed"]
        more = [line.strip() for line in itertools.takewhile(lambda line: line[:1].isspace(), lines[1:4])]
        if "dubious ownership" in lines[0]:  # git's advice is on lines of its own: said here, never bypassed
            more.append("(another user owns it, and git refuses it until you trust it:"
                        " git config --global --add safe.directory <its path>)")
        raise GitError(" ".join([lines[0], *more]))  # its first line, and the indented ones that go on with it
    return proc.stdout


def _config_args(settings) -> list[str]:
    return [a for setting in settings for a in ("-c", setting)]


def _filter_overrides(repo: Path) -> list[str]:
    """`-c` arguments emptying every filter driver the configuration names (reading the config
    runs nothing): git then applies no clean, smudge or process command."""
    try:
        raw = _run(repo, [*_config_args(SAFE_CONFIG), "config", "-z", "--name-only", "--get-regexp", r"^filter\."])
    except GitError as exc:
        said = str(exc)
        if (said.startswith("git config") and said.endswith(" failed")) or "not a git repository" in said:
            return []  # none set (git exits 1, saying nothing), or no repository
        raise  # the configuration could not be read (a bad line, a FIFO): never go on with its filters left on
    drivers = {name.rsplit(".", 1)[0] for name in raw.decode("utf-8", "surrogateescape").split("\0") if "." in name}
    odd = sorted(d for d in drivers if "=" in d)
    if odd:  # `-c` cannot name it (its key ends at the first `=`): refuse rather than let it run
        raise GitError(f"the git filter driver {odd[0][len('filter.'):]!r} cannot be turned off: its name holds '='")
    return _config_args(f"{d}.{key}={value}" for d in sorted(drivers)
                        for key, value in (("clean", ""), ("smudge", ""), ("process", ""), ("required", "false")))


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
        sha = git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}").decode().strip()
    except GitError:
        sha = ""
    if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha):  # `^HEAD` verifies as `^<sha>`: a range's end, not a commit
        raise GitError(f"{revision}: not a revision of this repository")
    return Side("commit", revision, sha)


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
    return Side("commit", branch.removeprefix("origin/"), merge_base(repo, branch, "HEAD"))


def merge_base(repo: Path, one: str, other: str) -> str:
    """The best common ancestor of two revisions; GitError saying so where they share none (an
    orphan branch, an unrelated history), where git says nothing."""
    try:  # after --end-of-options: a branch may be named `--all`
        return git(repo, "merge-base", "--end-of-options", one, other).decode().strip()
    except GitError as exc:
        if not str(exc).startswith("git merge-base"):  # git said why (a missing object): that
            raise
        raise GitError(f"{one} and {other} share no commit (unrelated histories): name the base revision") from None


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
        if side.kind == "index" and mode not in (*_REGULAR, _LINK, _GITLINK):  # git reads a cut index without a word
            raise GitError(f"the index is damaged (an entry {path!r} of mode {mode}): `git status` to see it,"
                           " `git reset` to rebuild it from HEAD")
        if mode in (*_REGULAR, _LINK) and stage_ok and _relevant(path):
            out[path] = f"link:{sha}" if mode == _LINK else sha
    return out


def outside_sparse_checkout(repo: Path) -> set[str]:
    """The index's files marked skip-worktree (a sparse checkout) that the working tree lacks: git
    takes them as they are in the index, unchanged, never as deleted."""
    raw = git(repo, "ls-files", "-t", "-z")
    marked = (record[2:].decode("utf-8", "surrogateescape") for record in raw.split(b"\0") if record.startswith(b"S "))
    return {path for path in marked if _relevant(path) and not os.path.lexists(repo / path)}


def unmerged(repo: Path) -> list[str]:
    """The paths of the index in a merge conflict (stages 1-3 and no stage 0), sorted: not files
    of the index, and not deleted either."""
    raw = git(repo, "ls-files", "--unmerged", "-z")
    paths = {record.partition(b"\t")[2].decode("utf-8", "surrogateescape") for record in raw.split(b"\0") if record}
    return sorted(p for p in paths if _relevant(p))


class SnapshotError(GitError):
    """The snapshot folder cannot be used safely (a link, or a folder greenlint did not write)."""


@dataclass(frozen=True)
class Refused:
    """A tree entry left out of a snapshot, and why: its path could write outside the snapshot
    folder (`unsafe`), or the file system or the object store could not give it (`_write`)."""

    path: str
    reason: str


def unsafe(path: str, links: frozenset[str] | set[str] = frozenset()) -> str | None:
    """Why the tree entry *path* cannot be written inside a snapshot, or None: an empty, `.` or
    `..` component, an absolute path, a NUL byte, a `.git` folder, or a folder that is one of
    *links* (a link and a folder of the same name in one commit)."""
    if not path:
        return "an empty path"
    if "\0" in path:
        return "a NUL byte in the path"
    if path.startswith("/"):
        return "an absolute path"
    parts = path.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            return f"a path component {part!r}"
        if _is_dotgit(part):
            return "a path component '.git'" if part == ".git" else f"a path component {part!r} (read as '.git' on some disks)"
    for i in range(1, len(parts)):
        folder = "/".join(parts[:i])
        if folder in links:
            return f"its folder {folder!r} is a symbolic link in the same tree"
    return None


#: Code points HFS+ ignores in names (git's `is_hfs_dotgit`): `.g\u200cit` is `.git` there.
_HFS_IGNORED = re.compile("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")


def _is_dotgit(part: str) -> bool:
    """Whether a path component names git's folder on some file system, as git's own checks read
    it: any case, HFS+'s ignored code points left out, NTFS's trailing spaces and dots, alternate
    data stream (`.git::$INDEX_ALLOCATION`) and short name (`GIT~1`)."""
    name = _HFS_IGNORED.sub("", part).lower().split(":", 1)[0].rstrip(" .")
    return name in (".git", "git~1")


def split_unsafe(files: dict[str, str]) -> tuple[dict[str, str], list[Refused]]:
    """*files* without the entries `unsafe` refuses, and those refused (sorted by path)."""
    links = {p for p, sha in files.items() if sha.startswith("link:")}
    kept, refused = {}, []
    for path, sha in sorted(files.items()):
        reason = unsafe(path, links)
        if reason is None:
            kept[path] = sha
        else:
            refused.append(Refused(path, f"{reason}, which could write outside the snapshot folder"))
    return kept, refused


def snapshot(repo: Path, side: Side, cache: Path) -> tuple[Path, list[Refused]]:
    """The folder holding the files of *side* (a commit or the index), written once per content,
    and the tree entries refused (`unsafe`: not written). Raises SnapshotError when *cache* or
    the snapshot's folder is a link or a folder greenlint did not write."""
    files, refused = split_unsafe(entries(repo, side))
    listing = "".join(f"{p}\0{s}\n" for p, s in sorted(files.items()))
    # the token in the name too: another user cache's snapshots (an editor with another GREENLINT_CACHE_DIR)
    # never collide with this one's, and a repository cannot compute the name of one greenlint will use
    digest = hashlib.sha256(_LAYOUT.encode() + _marker_head() + listing.encode("utf-8", "surrogateescape"))
    _real_folder(cache, create=True)
    folder = cache / digest.hexdigest()[:24]
    if not _ours(folder):
        if os.path.lexists(folder):
            raise SnapshotError(f"{folder}: not a snapshot greenlint wrote (a link, or a folder without its marker"
                                f" {MARKER}); greenlint neither uses nor deletes it: remove it or choose another cache-dir")
        _write(repo, files, folder)
    os.utime(folder, follow_symlinks=False)
    refused += _written_refusals(folder)
    _overlay_profiles(repo, files, folder)
    _prune(cache, keep=folder)
    if not _ours(folder):  # swapped for a link (or emptied) by another process meanwhile: never read through it
        raise SnapshotError(f"{folder}: replaced while greenlint was using it (now a link, or without its marker"
                            f" {MARKER}); greenlint reads no snapshot it did not write: run the diff again")
    return folder, refused


def _real_folder(path: Path, create: bool = False) -> None:
    """Make sure *path* is a real folder, not a link (created when missing and *create*); a
    SnapshotError naming it where it cannot be (under a file, too long a name, no permission)."""
    try:
        if create and not os.path.lexists(path):
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                path.mkdir()
            except FileExistsError:
                pass
        st = os.lstat(path)
    except OSError as exc:
        raise SnapshotError(f"{path}: cannot hold snapshots ({exc.strerror or exc}): choose another cache-dir") from None
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise SnapshotError(f"{path}: is a symbolic link or not a folder; greenlint never writes snapshots through a"
                            " link: remove it or choose another cache-dir")


def _ours(folder: Path) -> bool:
    """Whether *folder* is a real folder holding greenlint's marker as a regular file that starts
    with this user's token (`_marker_head`): a marker a repository committed is not greenlint's."""
    head = _marker_head()
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return False
        fd = os.open(folder / MARKER, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            return stat.S_ISREG(os.fstat(fh.fileno()).st_mode) and fh.read(len(head)) == head
    except OSError:
        return False


def _marker_head() -> bytes:
    """The first two lines of every marker this user's greenlint writes: the text, then the token."""
    from greenlint.paths import cache_dir

    return _MARKER_TEXT + f"token {_token(cache_dir() / _TOKEN_FILE)}\n".encode()


@functools.cache
def _token(path: Path) -> str:
    """The random token kept in *path* (created once, without replacing one another run made
    meanwhile); where the user cache cannot hold it, or where git tracks the token (a user cache set
    inside a repository's work tree, GREENLINT_CACHE_DIR=.cache in CI: the repository can commit
    one), a token of this run only (its snapshots are then neither reused nor pruned by later runs)."""
    fresh = secrets.token_hex(16)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".token-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(fresh + "\n")
            os.link(tmp, path)  # fails where the token exists: that one stays
            return fresh
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    except OSError:
        return fresh
    data, error = read_bytes(path, 64)
    token = data.decode("ascii", "replace").strip() if data is not None and error is None else ""
    return token if re.fullmatch(r"[0-9a-f]{32}", token) and not _tracked(path) else fresh


def _tracked(path: Path) -> bool:
    """Whether a git work tree holding *path* tracks it (in its index: committed or staged)."""
    try:
        git(path.parent, "ls-files", "--error-unmatch", "--", path.name)
    except GitError:  # untracked, or no work tree holds it
        return False
    return True


#: Write errors of the disk, not of an entry: the snapshot is abandoned, never kept without the file.
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS})


def _write(repo: Path, files: dict[str, str], folder: Path) -> None:
    """Write *files* into a folder beside *folder*, then rename it. An entry the file system
    refuses (a name that folds onto a link on a case-insensitive disk) is left out and listed in
    the marker, after its first two lines, so that every later run names it too."""
    partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=folder.parent))
    try:
        blobs = _blobs(repo, sorted({sha.removeprefix("link:") for sha in files.values()}))
        failed = []
        for path, sha in files.items():
            parts = path.split("/")
            blob = blobs[sha.removeprefix("link:")]
            try:
                if isinstance(blob, int) and blob < 0:
                    raise OSError("its blob is not in the repository")
                if sha.startswith("link:"):
                    if isinstance(blob, int):
                        raise OSError(f"a link target of {blob} bytes")
                    _put(partial, parts, link=blob.decode("utf-8", "surrogateescape"))
                else:
                    _put(partial, parts, blob)
            except OSError as exc:
                if exc.errno in _NO_ROOM:  # not this entry's fault: no snapshot kept that lacks it
                    raise
                failed.append(f"{path}\tcannot be written inside the snapshot ({exc.strerror or exc})\n")
        # the snapshot's root is its work tree's root (import search and .gitignore stop there)
        (partial / ".git").mkdir(exist_ok=True)
        _put(partial, [MARKER], _marker_head() + "".join(failed).encode("utf-8", "surrogateescape"))
        try:
            partial.rename(folder)
        except OSError:  # written meanwhile by another run: theirs is the same
            shutil.rmtree(partial, ignore_errors=True)
    except BaseException as exc:
        shutil.rmtree(partial, ignore_errors=True)
        if isinstance(exc, OSError) and exc.errno in _NO_ROOM:
            raise SnapshotError(f"{folder.parent}: cannot write a snapshot ({exc.strerror or exc}); free some space"
                                " or choose another cache-dir") from None
        raise


def _put(root: Path, parts: list[str], data: bytes | int = b"", link: str | None = None, replace: bool = False) -> None:
    """Write the file (or *link*) *parts* below *root*: each folder opened without following a
    link (created when missing), the file created anew (or, with *replace*, truncated) and never
    opened through a link. An entry `unsafe` let through still cannot leave *root*. *data* given
    as a size writes a sparse file of that size (a blob too large to read)."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | nofollow)
    try:
        for part in parts[:-1]:
            try:
                os.mkdir(part, 0o777, dir_fd=fd)
            except FileExistsError:
                pass
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | nofollow, dir_fd=fd)
            os.close(fd)
            fd = inner
        if link is not None:
            os.symlink(link, parts[-1], dir_fd=fd)
            return
        flags = os.O_WRONLY | os.O_CREAT | nofollow | (os.O_TRUNC if replace else os.O_EXCL)
        out = os.open(parts[-1], flags, 0o666, dir_fd=fd)
        with os.fdopen(out, "wb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise OSError(f"{'/'.join(parts)}: not a regular file")
            if isinstance(data, int):
                fh.truncate(data)
            else:
                fh.write(data)
    finally:
        os.close(fd)


def _written_refusals(folder: Path) -> list[Refused]:
    """The entries `_write` could not write into *folder*, as its marker lists them."""
    try:
        lines = (folder / MARKER).read_bytes().decode("utf-8", "surrogateescape").splitlines()[2:]
    except OSError:
        return []
    return [Refused(*line.split("\t", 1)) for line in lines if "\t" in line]


def _blobs(repo: Path, shas: list[str]) -> dict[str, bytes | int]:
    """The contents of blobs, read in one `git cat-file --batch` (which applies no filter); the
    size alone of a blob over _MAX_BLOB (`cat-file --batch-check` reads none), -1 for one the
    repository lacks (a tree made with `git mktree --missing`, a partial clone)."""
    listing = git(repo, "cat-file", "--batch-check", data="".join(f"{s}\n" for s in shas).encode())
    sizes = {sha: int(fields[2]) if len(fields) == 3 and fields[2].isdigit() else -1
             for sha, fields in zip(shas, (line.split() for line in listing.decode().splitlines()))}
    out: dict[str, bytes | int] = {sha: size for sha, size in sizes.items() if size > _MAX_BLOB or size < 0}
    shas = [sha for sha in shas if sha not in out]
    raw = git(repo, "cat-file", "--batch", data="".join(f"{s}\n" for s in shas).encode())
    at = 0
    for sha in shas:
        end = raw.index(b"\n", at)
        header = raw[at:end].split()
        size = int(header[2])
        out[sha] = raw[end + 1 : end + 1 + size]
        at = end + 1 + size + 1
    return out


def _overlay_profiles(repo: Path, files: dict[str, str], folder: Path) -> None:
    """Copy the working tree's profile files into the snapshot where it tracks none of its own
    (a regular file under the profile store's size limit only; written without following a link)."""
    tracked = {p for p in files if p.endswith(PROFILE_FILE)}
    dirs = {PurePosixPath(p).parent for p in files}
    for d in {a for p in dirs for a in (p, *p.parents)}:
        rel = (d / PROFILE_DIR / PROFILE_FILE).as_posix()
        if rel in tracked:
            continue
        content, error = read_bytes(repo / rel, MAX_FILE_BYTES)
        if content is None or error is not None:
            continue
        target = folder / rel
        try:
            if stat.S_ISREG(os.lstat(target).st_mode) and target.read_bytes() == content:
                continue
        except OSError:
            pass
        try:
            _put(folder, rel.split("/"), content, replace=True)
        except OSError:  # a link or a folder where the profile would go: the snapshot's own, left as it is
            continue


def _prune(cache: Path, keep: Path) -> None:
    """Remove all but the SNAPSHOTS_KEPT newest snapshots: only real folders named as greenlint
    names them and holding its marker; links and anything else are never followed nor removed."""
    olds = []
    for entry in os.scandir(cache):
        if _SNAPSHOT_NAME.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False) and _ours(Path(entry.path)):
            olds.append((entry.stat(follow_symlinks=False).st_mtime, Path(entry.path)))
    olds.sort()
    for _, old in olds[: max(0, len(olds) - SNAPSHOTS_KEPT)]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


#: Files git compares pairwise looking for renames: its own default for `git diff`, whatever the
#: repository's `diff.renameLimit` says (0, no limit, made the detection quadratic in the files
#: renamed: 2,000 by 2,000 took 5 s, 10,000 by 10,000 would pass the time limit).
RENAME_LIMIT = 1000


def renames(repo: Path, base: Side, head: Side) -> dict[str, str]:
    """`{old path: new path}` of the files git sees renamed between the sides (`-M`)."""
    target = {"commit": [head.commit or ""], "index": ["--cached"], "worktree": []}[head.kind]
    # `-O/dev/null`: no `diff.orderFile` of the repository's config is read (a FIFO there hung the call)
    raw = git(repo, "diff", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "-M", f"-l{RENAME_LIMIT}",
              "-O/dev/null", "--name-status", "-z", base.commit or "HEAD", *target, "--")
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
