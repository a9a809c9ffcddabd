"""Code actions: a rule's own fix (its Diagnostic.fix edits, computed on request from the finding's
statement) and `# noqa: GLxxx` suppression as quick fixes, and `source.fixAll.greenlint`: every
safe fix applied by the same engine as `check --fix`."""

from __future__ import annotations

import asyncio
import bisect
import io
import threading
import tokenize
from collections.abc import Sequence

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.workspace.position_codec import PositionCodec

from greenlint.analysis.sources import lines_with_endings
from greenlint.check import noqa
from greenlint.check.fixes import link_refusal
from greenlint.fix.engine import fix_text, statement_lines
from greenlint.lsp_server.documents import View
from greenlint.lsp_server.features.diagnostics import to_lsp
from greenlint.lsp_server.positions import overlaps, to_range
from greenlint.lsp_server.server import GreenlintServer
from greenlint.rules.diagnostic import Diagnostic, Fix

KIND = types.CodeActionKind.QuickFix
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.greenlint"


def lines_ending_in_string(text: str) -> set[int]:
    """1-based lines whose end lies inside a multi-line string (a comment there would be string text)."""
    inside: set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                inside.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return inside


def _in_string(view: View, d: Diagnostic) -> set[int]:
    """`lines_ending_in_string` of the document, read from the top-level statements holding `d`
    alone when the view shows its analysed text (a 10,000-line file takes a second to tokenize)."""
    shape = view.analysis.outline
    statements = None
    if shape is not None and not view.stale and view.cell is None:
        statements = statement_lines(shape, d.span.line, d.span.end_line)
    if statements is None:
        if "in_string" not in view.memo:
            view.memo["in_string"] = lines_ending_in_string(view.text)
        return view.memo["in_string"]
    first, last = statements
    return {first - 1 + n for n in lines_ending_in_string("".join(view.lines[first - 1 : last]))}


def noqa_edit(d: Diagnostic, lines: Sequence[str], in_string: set[int]) -> tuple[int, int, str] | None:
    """(0-based line, character, text to insert) adding `d.code` to a `# noqa` comment; None if already suppressed."""
    candidates = [n for n in dict.fromkeys((d.span.line, d.span.end_line)) if n not in in_string and n <= len(lines)]
    if not candidates:
        return None
    number = candidates[0]
    body = lines[number - 1].rstrip("\r\n")
    codes = noqa.parse(body).lines.get((None, 1), False)
    if codes is False:
        return number - 1, len(body), f"  # noqa: {d.code}"
    if codes is noqa.ALL or d.code in codes:
        return None  # a bare noqa, or one naming the code, suppresses it already
    return number - 1, noqa.LINE_NOQA.search(body).end("codes"), f", {d.code}"


def _edit(server: GreenlintServer, view: View, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    if get_capability(server.client_capabilities, "workspace.workspace_edit.document_changes", False):
        document = types.OptionalVersionedTextDocumentIdentifier(uri=view.uri, version=view.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=document, edits=edits)])
    return types.WorkspaceEdit(changes={view.uri: edits})


def fix_edits(fix: Fix, lines: Sequence[str], codec: PositionCodec) -> list[types.TextEdit]:
    return [types.TextEdit(range=to_range(e.span, lines, codec), new_text=e.content) for e in fix.edits]


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether a client's `only` list asks for `kind` (a listed kind covers its sub-kinds)."""
    return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)


def whole_text_edit(before: str, after: str, codec: PositionCodec) -> types.TextEdit:
    """One edit turning `before` into `after`: the changed middle, the common start and end kept."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    lines = lines_with_endings(before)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def position(offset: int) -> types.Position:
        line = max(0, bisect.bisect_right(starts, offset) - 1)
        line = min(line, len(lines) - 1)
        return codec.position_to_client_units(lines, types.Position(line, offset - starts[line]))

    return types.TextEdit(types.Range(position(start), position(len(before) - end)), after[start : len(after) - end])


async def fix_all(server: GreenlintServer, view: View) -> types.CodeAction | None:
    """Every safe fix of a file document, applied until none applies; None when nothing changes, or
    when the document's file is reached through a link (`check --fix` refuses it alike: saving the
    fixed text would rewrite the link's target; the user is told why)."""
    if view.cell is not None:
        return None  # a cell alone is not the notebook: fix notebooks' cells one quick fix at a time
    path = str(server.path_of(view.uri))
    linked = link_refusal(path, view.analysis.config.root)
    if linked:
        message = f"greenlint: no fix-all for {path}: {linked}"
        server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
        return None
    from greenlint.lsp_server.analysis import usable_config

    config = usable_config(view.analysis.config)  # unknown codes were reported with the analysis
    analyses = server.analyses

    def check(text: str) -> list[Diagnostic]:
        from greenlint.lsp_server.analysis import analyse_text

        return list(analyse_text(text, path, config, analyses.predictor.predict, fixes=True).diagnostics)

    def run() -> str:
        return fix_text(view.text, check)[0]

    after = await asyncio.get_running_loop().run_in_executor(None, run)
    if after == view.text:
        return None
    edit = whole_text_edit(view.text, after, server.workspace.position_codec)
    return types.CodeAction(title="Apply every safe greenlint fix", kind=FIX_ALL, edit=_edit(server, view, [edit]))


def _prepare() -> None:
    """Load what a fix needs (LibCST) before the first code action asks; the engine and its codemods
    are imported with this module, and a finding's rule by the analysis that found it."""
    import libcst  # noqa: F401


def register(server: GreenlintServer) -> None:
    kinds = [KIND, FIX_ALL]
    threading.Thread(target=_prepare, daemon=True, name="greenlint-prepare-fixes").start()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=kinds))
    async def code_actions(params: types.CodeActionParams) -> list[types.CodeAction]:
        only = params.context.only
        view = await server.view(params.text_document.uri)
        if view is None:
            return []
        if only and _wanted(FIX_ALL, only) and not _wanted(KIND.value, only):
            action = await fix_all(server, view)
            return [action] if action is not None else []
        if not _wanted(KIND.value, only):
            return []
        codec = server.workspace.position_codec
        lines = view.lines
        actions = []
        offered: set[tuple[int, str]] = set()
        wanted = [(d, to_lsp(d, lines, codec)) for d in view.diagnostics]
        wanted = [(d, lsp) for d, lsp in wanted if overlaps(lsp.range, params.range)]
        if wanted and not view.stale:  # a fix's exact edits wait for the analysis of the text as it is
            fixed = await asyncio.get_running_loop().run_in_executor(
                None, lambda: [view.analysis.with_fix(d) for d, _ in wanted]
            )
            wanted = [(d, lsp) for d, (_, lsp) in zip(fixed, wanted)]
        for d, lsp_diagnostic in wanted:
            if d.fix is not None:
                actions.append(
                    types.CodeAction(
                        title=d.fix.title,
                        kind=KIND,
                        diagnostics=[lsp_diagnostic],
                        edit=_edit(server, view, fix_edits(d.fix, lines, codec)),
                        is_preferred=d.fix.safe,
                    )
                )
            insert = noqa_edit(d, lines, _in_string(view, d))
            if insert is not None and (insert[0], d.code) not in offered:
                offered.add((insert[0], d.code))
                line, character, text = insert
                at = codec.position_to_client_units(lines, types.Position(line, character))
                actions.append(
                    types.CodeAction(
                        title=f"Suppress {d.code} ({d.name}) on this line with `# noqa`",
                        kind=KIND,
                        diagnostics=[lsp_diagnostic],
                        edit=_edit(server, view, [types.TextEdit(range=types.Range(at, at), new_text=text)]),
                    )
                )
        return actions
