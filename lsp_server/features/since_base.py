"""Code lenses "×9.6 since main": what a file's edits since the base revision do to its energy
(`greenlint diff` of this file: the base from git objects, this side as the editor holds it),
when `greenlint.sinceBase.enabled` is set. One lens on the file's first line (its ratio per program
run), one on each call site that changed; their command lists the changes in a message."""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types

from greenlint.lsp_server.documents import View
from greenlint.lsp_server.server import GreenlintServer
from greenlint.review import gitfs
from greenlint.review.compare import Change, FileDiff
from greenlint.review.diff import diff_file
from greenlint.review.formats import fmt_ratio, why
from greenlint.units import fmt_j

log = logging.getLogger(__name__)
#: Shows what changed since the base in a message (argument: the document's URI).
SHOW_CHANGES = "greenlint.showChangesSinceBase"


def _file_diff(server: GreenlintServer, view: View) -> tuple[FileDiff, str] | None:
    """This file's FileDiff against its base, and the base's name; None where there is none (not
    in a git work tree, a notebook cell)."""
    if view.cell is not None:
        return None
    path = server.path_of(view.uri)
    settings = server.editor_settings(view.uri)
    try:
        repo = gitfs.toplevel(path.parent)
        base = gitfs.commit_side(repo, settings.base_revision) if settings.base_revision else gitfs.default_base(repo)
        rel = path.resolve().relative_to(repo.resolve()).as_posix()
    except (gitfs.GitError, ValueError, OSError) as exc:
        log.info("greenlint: no base for %s: %s", path, exc)
        return None
    analysis = view.analysis
    memo = server.__dict__.setdefault("_since_base_memo", {})  # the base side's analyses, by commit
    return diff_file(repo, base, rel, analysis.result, analysis.config, memo), base.label


async def lenses(server: GreenlintServer, view: View) -> list[types.CodeLens]:
    """The lenses of *view* when its folder asks for them (`greenlint.sinceBase.enabled`)."""
    if not server.editor_settings(view.uri).since_base:
        return []
    result = await asyncio.to_thread(_file_diff, server, view)
    if result is None or not result[0].changes:
        return []
    found, label = result
    command = lambda title: types.Command(title=title, command=SHOW_CHANGES, arguments=[view.uri])  # noqa: E731
    top = types.Position(0, 0)
    out = [types.CodeLens(types.Range(top, top), command(f"{fmt_ratio(found.ratio)} since {label} ({_count(found)})"))]
    for change in found.changes:
        span = change.site.callsite.span
        now, _ = view.moved.span(span) if view.moved else (span, False)
        if now is None or change.status == "removed":
            continue
        at = types.Position(now.line - 1, 0)
        out.append(types.CodeLens(types.Range(at, at), command(f"{_ratio(change)} since {label}: {why(change)}")))
    return out


def _ratio(change: Change) -> str:
    return fmt_ratio(change.ratio) if change.status == "changed" else change.status


def _count(found: FileDiff) -> str:
    n = len(found.changes)
    return f"{fmt_j(found.before_j)} → {fmt_j(found.after_j)} per program run, {n} call site{'s' if n != 1 else ''} changed"


def register(server: GreenlintServer) -> None:
    @server.command(SHOW_CHANGES)
    async def show_changes(uri: str) -> None:
        view = await server.view(uri)
        result = None if view is None else await asyncio.to_thread(_file_diff, server, view)
        if result is None:
            return
        found, label = result
        name = uri.rsplit("/", 1)[-1]
        items = "; ".join(
            f"line {c.site.callsite.span.line} `{c.site.api}` {_ratio(c)}: {why(c)}" for c in found.changes
        ) or "no call site changed its energy"
        message = f"greenlint: {name} since {label}: {fmt_ratio(found.ratio)} per program run; {items}"
        server.window_show_message(types.ShowMessageParams(types.MessageType.Info, message))
