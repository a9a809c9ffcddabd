"""Hover on a TensorFlow/Keras call: its predicted energy, the evidence behind it, and the rules it trips."""

from __future__ import annotations

from lsprotocol import types

from lsp_server.energy_text import hover_markdown
from lsp_server.positions import contains, to_range
from lsp_server.server import GreenlintServer


def register(server: GreenlintServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        view = await server.view(params.text_document.uri)
        if view is None:
            return None
        codec = server.workspace.position_codec
        at = codec.position_from_client_units(view.lines, params.position)
        here = [s.callsite.span for s in view.sites if contains(s.callsite.span, at.line, at.character)]
        if not here:
            return None
        # the innermost call: the one starting last (ties: ending first)
        span = max(here, key=lambda s: (s.line, s.column, -s.end_line, -s.end_column))
        site = next(s for s in view.sites if s.callsite.span == span)
        findings = [d for d in view.diagnostics if d.span == span]
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hover_markdown(site, findings)),
            range=to_range(span, view.lines, codec),
        )
