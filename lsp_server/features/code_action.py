"""Quick fixes: a rule's own fix (its Diagnostic.fix edits) and `# noqa: GLxxx` suppression."""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.workspace.position_codec import PositionCodec

from greenlint.check import noqa
from greenlint.rules.diagnostic import Diagnostic, Fix
from lsp_server.documents import View
from lsp_server.features.diagnostics import to_lsp
from lsp_server.positions import overlaps, to_range
from lsp_server.server import GreenlintServer

KIND = types.CodeActionKind.QuickFix


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


def register(server: GreenlintServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[KIND]))
    async def code_actions(params: types.CodeActionParams) -> list[types.CodeAction]:
        if params.context.only and not any(KIND.value.startswith(k) for k in params.context.only):
            return []
        view = await server.view(params.text_document.uri)
        if view is None:
            return []
        codec = server.workspace.position_codec
        lines = view.lines
        in_string: set[int] | None = None
        actions = []
        offered: set[tuple[int, str]] = set()
        for d in view.diagnostics:
            lsp_diagnostic = to_lsp(d, lines, codec)
            if not overlaps(lsp_diagnostic.range, params.range):
                continue
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
            if in_string is None:
                in_string = lines_ending_in_string(view.text)
            insert = noqa_edit(d, lines, in_string)
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
