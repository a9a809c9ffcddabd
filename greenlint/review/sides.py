"""One side of a diff analysed through `greenlint calls`' pipeline: its call sites with their
predictions and runs, each with what matching needs (its enclosing scope and argument shape, as the
analysis found them)."""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import greenlint.check.noqa as noqa
from greenlint.analysis.callsite import CallSite
from greenlint.analysis.sources import UNREADABLE, joined
from greenlint.check.config import Config
from greenlint.check.file_result import FileResult, error_diagnostic
from greenlint.check.pipeline import analyse_paths
from greenlint.check.selection import validate
from greenlint.review import gitfs
from greenlint.review.gitfs import Refused, Side, snapshot
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, is_test_assertion

#: A `noqa: GLD100` comment on a call's lines: its energy change is intended (the budget does not count it).
INTENDED = "GLD100"
#: A module that runs as a script although others import it.
MAIN_GUARD = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.M)


@dataclass(frozen=True, kw_only=True)
class SideSite(Site):
    """A call site of one side as rules read it (its runs per program run: `program_runs`, as
    GL101 counts them), with its path relative to the repository root."""

    path: str
    intended: bool = False  # a `noqa: GLD100` comment on its lines

    @property
    def position(self) -> tuple:
        """Where it stands in its file: (cell, line, column), for a stable order."""
        span = self.callsite.span
        return (span.cell or 0, span.line, span.column)


@dataclass
class SideAnalysis:
    side: Side
    sites: list[SideSite] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    imports: dict[str, list[str]] = field(default_factory=dict)  # file -> the project files it imports
    scripts: list[str] = field(default_factory=list)  # files a program run starts from
    present: set[str] = field(default_factory=set)  # the paths asked for that this side holds

    def without(self, paths: set[str]) -> SideAnalysis:
        """This side less the files *paths*: neither compared nor counted."""
        if not paths:
            return self
        return dataclasses.replace(
            self, sites=[s for s in self.sites if s.path not in paths], files=[f for f in self.files if f not in paths],
            imports={f: deps for f, deps in self.imports.items() if f not in paths},
            scripts=[f for f in self.scripts if f not in paths])

    def closure(self, script: str) -> tuple[str, ...]:
        """*script*, then every project file one run of it imports (directly or not), sorted."""
        seen, todo = {script}, [script]
        while todo:
            for dep in self.imports.get(todo.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return (script, *sorted(seen - {script}))


def analyse(repo: Path, side: Side, paths: list[str], config: Config, cache: Path) -> SideAnalysis:
    """Analyse the files of *side* under the repository-relative *paths* (all of it: `[""]`)."""
    root, refused = (repo, []) if side.on_disk else snapshot(repo, side, cache)
    # a submodule's files, or a nested repository's, are in no snapshot of a commit or the index:
    # counted on neither side, and a path in one present on neither (git too refuses it: "is in submodule")
    inside = _in_other_repository(repo) if side.on_disk else lambda path: False
    out = SideAnalysis(side, present={p for p in paths if _holds(root, p) and not inside(f"{p}/")})
    targets = [root / p for p in paths if p in out.present]
    out.errors = [_refusal(side, r) for r in refused if any(_below(r.path, p) for p in paths)]
    if side.kind == "index":  # a merge conflict's file is in no stage 0: named, never read as deleted
        out.errors += [_unmerged(path) for path in gitfs.unmerged(repo) if any(_below(path, p) for p in paths)]
    if not targets:
        return out
    if not side.on_disk:
        config = dataclasses.replace(config, root=_moved(config.root, repo, root))
    validate(config)  # the configuration judged as `check` judges it: a code that matches no rule is an error
    # no rule runs: a diff reports call sites and file errors (GL001/GL002, always kept), never findings;
    # git tracks a link, not what it points to: one leading out of the side's root (a committed link
    # to a file of the machine that runs the diff) is named, never read
    result = analyse_paths(targets, config, within=root)
    for link in result.left_out:
        shown = _relative(str(link), root)
        if not inside(shown):
            out.errors.append(error_diagnostic(shown, 1, 1, UNREADABLE, f"{side.label}: {shown!r} is a symbolic link"
                                               f" leading out of the repository (to {os.path.realpath(link)}); git"
                                               " tracks the link, not what it points to: not read"))
    analysed = list(result.file_results())  # each file's FileResult, as `check` has it
    rel = {shown: _relative(shown, root) for shown in result.files}

    def where(shown: str) -> str:
        return rel.get(shown) or _relative(shown, root)

    out.files = sorted(path for path in rel.values() if not inside(path))
    out.errors += [dataclasses.replace(d, path=where(d.path)) for d in result.errors if not inside(where(d.path))]
    texts: dict[str, str | tuple[str, ...]] = {}
    for file in analysed:
        path = where(file.path)
        if not inside(path):
            out.sites += side_sites(path, file)
            out.imports[path] = sorted({_relative(f, root) for f in file.imports})
            texts[path] = file.source
    imported = {f for deps in out.imports.values() for f in deps}
    top = {s.path for s in out.sites if not s.callsite.scope}
    out.scripts = sorted(p for p in top if p not in imported or MAIN_GUARD.search(joined(texts[p])))
    return out


def _holds(root: Path, path: str) -> bool:
    """Whether *path* exists below *root*; a name no file system holds (longer than NAME_MAX or
    PATH_MAX) does not."""
    try:
        return (root / path).exists()
    except OSError:
        return False


def _refusal(side: Side, refused: Refused) -> Diagnostic:
    """A tree entry left out of the snapshot, as the GL002 of its path (the run goes on)."""
    commit = f" ({side.commit[:12]})" if side.commit else ""
    message = f"{side.label}{commit}: tree entry {refused.path!r} refused: {refused.reason}; not written nor compared"
    return error_diagnostic(refused.path, 1, 1, UNREADABLE, message)


def _unmerged(path: str) -> Diagnostic:
    message = (f"index: {path!r} is unmerged (a merge conflict): not compared, neither deleted nor changed;"
               " resolve the conflict and `git add` it")
    return error_diagnostic(path, 1, 1, UNREADABLE, message)


def _below(path: str, top: str) -> bool:
    return not top or path == top or path.startswith(top.rstrip("/") + "/")


def _in_other_repository(repo: Path):
    """A test of a repository-relative path: whether it lies in one of the index's submodules, or
    in a folder of the work tree holding a `.git` of its own (a clone git lists as one untracked
    folder and never looks inside; `git add` records it as a gitlink, never its files)."""
    raw = gitfs.git(repo, "ls-files", "--stage", "-z")
    folders = tuple(
        record.partition(b"\t")[2].decode("utf-8", "surrogateescape") + "/"
        for record in raw.split(b"\0")
        if record.startswith(b"160000 ")
    )
    nested: dict[str, bool] = {}

    def is_repository(folder: str) -> bool:
        if folder not in nested:
            nested[folder] = os.path.lexists(repo / folder / ".git")
        return nested[folder]

    def inside(path: str) -> bool:
        if folders and path.startswith(folders):
            return True
        parts = path.split("/")[:-1]  # the folders above a file; with a trailing `/`, the folder too
        return any(parts[i] and is_repository("/".join(parts[: i + 1])) for i in range(len(parts)))

    return inside


def side_sites(path: str, result: FileResult) -> list[SideSite]:
    """The call sites of one file's analysis (as `check` has it) as SideSites of *path*."""
    out = []
    for site in result.sites:
        cs = site.callsite
        if not is_test_assertion(cs.api):
            out.append(SideSite(cs, site.prediction, path=path, intended=_intended(cs, result.suppressions)))
    return out


def _moved(path: Path, old_root: Path, new_root: Path) -> Path:
    """*path* below *old_root* at the same place below *new_root* (else *new_root*)."""
    try:
        return new_root / Path(os.path.abspath(path)).relative_to(old_root)
    except ValueError:
        return new_root


def _relative(shown: str, root: Path) -> str:
    return Path(os.path.relpath(os.path.abspath(shown), root)).as_posix()


def _intended(cs: CallSite, suppressions: noqa.Suppressions) -> bool:
    """Whether a `noqa: GLD100` comment on its lines (or the file's) says its energy change is intended."""
    span = cs.span
    codes = [suppressions.lines.get((span.cell, line), ()) for line in range(span.line, span.end_line + 1)]
    file_codes = suppressions.file_codes
    return any(c and INTENDED in c for c in codes) or bool(file_codes and INTENDED in file_codes)
