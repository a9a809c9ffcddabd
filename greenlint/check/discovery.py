"""Find the files to check: `*.py`, `*.pyi`, `*.ipynb`, minus excludes and `.gitignore`d paths."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from greenlint.analysis.sources import MAX_BYTES, read_bytes
from greenlint.check.config import (
    DEFAULT_EXCLUDE,
    INCLUDE_SUFFIXES,
    MAX_WILDCARDS,
    Config,
    ConfigError,
    too_many_wildcards,
)
from greenlint.report.escape import visible

#: The file `greenlint diff` writes into each snapshot folder it makes (review/gitfs.py): such a
#: folder below a walked one (under a project's cache-dir) is a copy of another revision's files,
#: never checked as the project's own.
SNAPSHOT_MARKER = ".greenlint-snapshot"


def discover(paths: Iterable[Path | str], config: Config) -> list[Path]:
    """Files to check under `paths`, sorted, each once (by where it really is: a file named by a
    relative and by an absolute path, found again under another folder named, or through a link to
    it, keeps the first name).

    A file met through a link and by its own name is kept by its own name (`--fix` writes no link).

    Files named explicitly are included whatever their suffix, and despite `exclude` unless
    `force_exclude` is set (pre-commit passes every staged file by name).

    Raises ConfigError for a path that does not exist, or that is empty.
    """
    root = config.root.resolve().as_posix()
    found: dict[Path, None] = {}
    spec = []  # the exclude patterns, compiled once on first use (pathspec costs an import)

    def exclude():
        if not spec:
            import pathspec

            patterns = [*config.exclude, *config.extend_exclude]
            bad = [p for p in patterns if _invalid(p)]
            if bad:
                raise ConfigError(f"exclude pattern {bad[0]!r} is not a valid gitignore-style pattern")
            slow = [p for p in patterns if too_many_wildcards(p)]
            if slow:
                raise ConfigError(f"exclude pattern {slow[0]!r} has more than {MAX_WILDCARDS} `*` in one path part,"
                                  " which greenlint cannot match in bounded time")
            spec.append(pathspec.GitIgnoreSpec.from_lines(patterns))
        return spec[0]

    if config.extend_exclude or config.exclude != DEFAULT_EXCLUDE:
        exclude()  # the user's patterns judged on every run, not only on those that walk a folder
    real: dict[str, Path] = {}  # a file named twice (`a.py`, then its absolute path): checked once, as first named

    def add(path: Path, key: str) -> None:
        if key not in real:
            real[key] = path
            found[path] = None
        elif os.path.islink(real[key]) and not os.path.islink(path):
            del found[real[key]]
            real[key] = path
            found[path] = None

    for raw in paths:
        refuse_empty(raw)
        path = Path(raw)
        try:  # the name as given: `a.py/` names a folder, which Path("a.py/") would drop
            is_dir = stat.S_ISDIR(os.stat(raw).st_mode)
        except FileNotFoundError:
            raise ConfigError(f"{raw}: no such file or directory") from None
        except NotADirectoryError:
            raise ConfigError(f"{raw}: not a directory (a file named as a folder)") from None
        except OSError:  # a name longer than NAME_MAX or PATH_MAX, a link loop: reading it names the problem (GL002)
            add(path, str(path))
            continue
        if is_dir:
            top = os.path.realpath(path)
            for f in _walk(path, config, exclude()):  # a link to a file met in the walk too: once, where it really is
                add(f, os.path.realpath(f) if os.path.islink(f) else os.path.join(top, os.path.relpath(f, path)))
        elif not (config.force_exclude and _excluded(path.resolve().as_posix(), False, root, exclude())):
            add(path, os.path.realpath(path))  # a FIFO, socket or device too: reported as a GL002, never opened
    return sorted(found)


def leads_out(path: Path, root: Path) -> bool:
    """Whether *path* is a symbolic link whose target lies outside *root* (or nowhere it can reach)."""
    if not os.path.islink(path):
        return False
    top = os.path.realpath(root)
    return not os.path.realpath(path).startswith(top.rstrip("/") + "/")


def refuse_empty(raw: Path | str) -> None:
    """Raise ConfigError for an empty PATH argument (`greenlint check "$FILE"` with FILE unset):
    `Path("")` is the current folder, which would be checked whole without a word."""
    if isinstance(raw, str) and raw == "":
        raise ConfigError("'': an empty path names no file or folder (an unset variable?); give `.` for the current folder")


def _under(path: str, base: str) -> str | None:
    """`path` relative to `base` (absolute posix strings), or None when it is not below it."""
    if path == base:
        return ""
    return path[len(base) :].lstrip("/") if path.startswith(base.rstrip("/") + "/") else None


def _excluded(path: str, is_dir: bool, base: str, spec) -> bool:
    """Whether the absolute `path`, relative to `base` (or just its name, outside it), matches `spec`."""
    rel = _under(path, base)
    rel = rel if rel else path.rsplit("/", 1)[-1]
    return spec.match_file(rel + "/" if is_dir else rel)


def _ignored(path: str, is_dir: bool, ignores: list) -> bool:
    """Whether `.gitignore` files (outermost first) ignore `path`; a deeper file's rule wins, as in git."""
    for base, spec in reversed(ignores):
        rel = _under(path, base)
        if rel:
            verdict = spec.check_file(rel + "/" if is_dir else rel).include
            if verdict is not None:
                return verdict
    return False


def _walk(top: Path, config: Config, exclude) -> Iterator[Path]:
    # A directory named explicitly is checked even if excluded or ignored (`greenlint check
    # .venv/lib/...`): excludes and .gitignore files then apply only below it.
    top_abs = top.resolve().as_posix()
    root = config.root.resolve().as_posix()
    base = top_abs if _excluded(top_abs, True, root, exclude) else root
    unreadable: list[Path] = []  # reported as files: reading them gives their GL002
    parents = _parent_gitignores(top, unreadable) if config.respect_gitignore else []
    inherited = {top_abs: [] if _ignored(top_abs, True, parents) else parents}
    top_len = len(str(top))
    for dirpath, dirnames, filenames in os.walk(top, onerror=lambda exc: unreadable.append(Path(exc.filename))):
        here = top_abs + dirpath[top_len:].replace(os.sep, "/")
        ignores = inherited.pop(here, [])
        if config.respect_gitignore and ".gitignore" in filenames:
            ignores = [*ignores, _gitignore(Path(here), unreadable, Path(dirpath, ".gitignore"))]
        kept = []
        for d in sorted(dirnames):
            sub = f"{here}/{d}"
            if not (_excluded(sub, True, base, exclude) or _ignored(sub, True, ignores)
                    or os.path.isfile(os.path.join(dirpath, d, SNAPSHOT_MARKER))):
                kept.append(d)
                inherited[sub] = ignores
        dirnames[:] = kept
        for name in sorted(filenames):
            f = f"{here}/{name}"
            if name.endswith(INCLUDE_SUFFIXES) and not (
                _excluded(f, False, base, exclude) or _ignored(f, False, ignores)
            ):
                yield Path(dirpath, name)
    yield from unreadable


def _invalid(pattern: str) -> bool:
    """Whether *pattern* is one that git itself ignores and pathspec refuses (`!`, a lone `\\`)."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([pattern])
    except Exception:  # pathspec's GitIgnorePatternError, re.error for `[b-a]`
        return True
    return False


def _gitignore(directory: Path, unreadable: list[Path], shown: Path | None = None):
    """The patterns of *directory*'s `.gitignore`. Only a regular file under the sources' size
    limit is read (a FIFO would block, `/dev/zero` or a huge sparse file exhaust memory); another
    one is appended to *unreadable* as *shown* (reading it there gives its GL002) and ignores nothing.
    A symbolic link is never read, as git (2.32 on) never follows one: it ignores nothing, named in a
    warning as git warns (one to no regular file by its GL002 as above). A line with more `*` in a
    path part than can be matched in bounded time is named and skipped."""
    import pathspec

    path = directory / ".gitignore"
    if os.path.islink(path) and os.path.isfile(path):
        print(visible(f"greenlint: warning: {shown or path}: a symbolic link, which git does not follow; it ignores"
                      " nothing"), file=sys.stderr)
        return directory.as_posix(), pathspec.GitIgnoreSpec.from_lines([])
    data, error = read_bytes(path, MAX_BYTES)
    if error is not None:
        unreadable.append(shown or path)
    # git splits at "\n" alone (dropping a "\r" before it): never at a form feed or U+2028 in a pattern
    lines = [line.removesuffix("\r") for line in (data or b"").decode("utf-8", "replace").split("\n")]
    for number, line in enumerate(lines, 1):
        if not line.startswith("#") and too_many_wildcards(line):
            print(visible(f"greenlint: warning: {shown or path}:{number}: more than {MAX_WILDCARDS} `*` in one path"
                          " part, which greenlint cannot match in bounded time; the line ignores nothing"), file=sys.stderr)
            lines[number - 1] = ""
    try:
        return directory.as_posix(), pathspec.GitIgnoreSpec.from_lines(lines)
    except Exception:  # a line git cannot use matches nothing there: it is skipped here too
        return directory.as_posix(), pathspec.GitIgnoreSpec.from_lines([n for n in lines if not _invalid(n)])


def _parent_gitignores(top: Path, unreadable: list[Path]) -> list:
    """`.gitignore` files above `top`, up to the root of its git work tree (if it is in one)."""
    chain = []
    for directory in top.resolve().parents:
        if os.path.lexists(directory / ".gitignore") and not (directory / ".gitignore").is_dir():
            chain.append(_gitignore(directory, unreadable))
        if (directory / ".git").exists():
            return chain[::-1]
    return []  # not in a git work tree: no parent .gitignore applies
