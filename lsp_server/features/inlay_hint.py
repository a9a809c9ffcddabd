"""Inlay hints: the predicted energy of the TensorFlow/Keras calls ending on a line, at that line's end."""

from __future__ import annotations

from collections import defaultdict

from lsprotocol import types

from lsp_server.energy_text import hint_label, site_line
from lsp_server.server import GreenlintServer


def register(server: GreenlintServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hints(params: types.InlayHintParams) -> list[types.InlayHint]:
        view = await server.view(params.text_document.uri)
        if view is None:
            return []
        lines = view.lines
        first, last = params.range.start.line, params.range.end.line
        by_line = defaultdict(list)
        for site in view.sites:
            line = site.callsite.span.end_line - 1
            if first <= line <= last and line < len(lines):
                by_line[line].append(site)
        hints = []
        codec = server.workspace.position_codec
        for line, sites in sorted(by_line.items()):
            label = hint_label(sites)
            if label is None:
                continue
            end = types.Position(line, len(lines[line].rstrip("\r\n")))
            hints.append(
                types.InlayHint(
                    position=codec.position_to_client_units(lines, end),
                    label=label,
                    padding_left=True,
                    tooltip=types.MarkupContent(
                        kind=types.MarkupKind.Markdown, value="\n".join(f"- {site_line(s)}" for s in sites)
                    ),
                )
            )
        return hints
