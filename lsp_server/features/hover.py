"""Hover on a TensorFlow/Keras call: its energy, the evidence behind it, its own profile, and the rules it trips;
on an `import tensorflow` (or `keras`) line: what the program pays once there, its start-up, and the
device its call sites hold between calls.

Answered at once from the newest finished analysis, moved through the edits made since; when the
document changed since that analysis, the hover says so first, with both versions: its figures are
those of the analysed text."""

from __future__ import annotations

import re

from lsprotocol import types

from greenlint.lsp_server.energy_text import hover_markdown, stale_note, startup_markdown
from greenlint.lsp_server.positions import from_client, line_end, to_client, to_range
from greenlint.lsp_server.server import GreenlintServer

#: A line that imports TensorFlow (Keras imports it too): where a program pays its start-up.
_TF_IMPORT = re.compile(r"\s*(?:import|from)\s+(?:tensorflow|keras)\b")


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
            return _startup(server, uri, view.lines, at.line, view.analysis.config.overlay, len(view.sites))
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


def _startup(server: GreenlintServer, uri: str, lines, line: int, overlay: bool | str,
             sites: int) -> types.Hover | None:
    """The start-up hover of a TensorFlow import line (`Predictor.startup`, this machine's where the
    document's configuration applies a calibration that measured it, and the device the document's
    *sites* call sites hold, `Predictor.held`), None on any other line."""
    from greenlint.predict import load_predictor
    from greenlint.predict.tables import ModelError

    found = _TF_IMPORT.match(lines[line]) if line < len(lines) else None
    if found is None:
        return None
    try:
        predictor = load_predictor(overlay=overlay)
    except ModelError:
        return None
    start = predictor.startup()
    if start is None:
        return None
    codec = server.workspace.position_codec
    indent = len(lines[line]) - len(lines[line].lstrip())
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                     value=startup_markdown(start, server.editor_settings(uri).unit,
                                                            predictor.held(sites))),
        range=types.Range(to_client(lines, types.Position(line, indent), codec), line_end(lines, line, codec)),
    )
