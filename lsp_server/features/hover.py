"""Hover on a TensorFlow/Keras call: its energy, the evidence behind it, its own profile, and the rules it trips.

Answered at once from the newest finished analysis, moved through the edits made since; when the
document changed since that analysis, the hover says so first, with both versions: its figures are
those of the analysed text."""

from __future__ import annotations

from lsprotocol import types

from greenlint.lsp_server.energy_text import hover_markdown, stale_note
from greenlint.lsp_server.positions import from_client, to_range
from greenlint.lsp_server.server import GreenlintServer


def register(server: GreenlintServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        view = await server.view(uri)
        if view is None:
            return None
        codec = server.workspace.position_codec
        at = from_client(view.lines, params.position, codec)
        here = view.sites_at(at.line, at.character)
        if not here:
            return None
        site, span = here[-1]  # the innermost call: the one starting last (ties: ending first)
        findings = [d for d in view.analysis.diagnostics if d.span == site.callsite.span]
        unit = server.editor_settings(uri).unit
        text = hover_markdown(site, findings, unit)
        if view.stale:
            text = f"{stale_note(view.analysed_version, view.version)}\n\n{text}"
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
            range=to_range(span, view.lines, codec),
        )
