"""Inlay hints: the energy of the TensorFlow/Keras calls ending on a line, at that line's end.

Answered at once from the newest finished analysis, moved through the edits made since; the
tooltip (each call's figure) is filled in only when the client asks (`inlayHint/resolve`).
Settings: `inlayHints.enabled`, `inlayHints.minJoules` (a line below it gets no hint), `unit`,
`inlayHints.showNegligible` (off: calls that do no tensor work, basis `negligible`, get no hint).
"""

from __future__ import annotations

from lsprotocol import types

from greenlint.lsp_server.energy_text import hint_label, hint_tooltip
from greenlint.lsp_server.positions import line_end
from greenlint.lsp_server.server import GreenlintServer
from greenlint.predict.prediction import Basis


def register(server: GreenlintServer) -> None:
    documents: dict[str, int] = {}  # a short number per document URI, for the hints' resolve data

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def inlay_hints(params: types.InlayHintParams) -> list[types.InlayHint]:
        uri = params.text_document.uri
        settings = server.editor_settings(uri)
        if not settings.inlay_hints:
            return []
        view = await server.view(uri)
        if view is None:
            return []
        lines = view.lines
        first, last = params.range.start.line, min(params.range.end.line, len(lines) - 1)
        codec = server.workspace.position_codec
        key = ("inlay", settings.unit, settings.min_joules, settings.show_negligible)
        cached = view.memo.get((*key, first, last))
        if cached is not None:
            return cached  # the same view, range and settings: the same hints
        number = documents.setdefault(uri, len(documents))
        hints = []
        labels = view.memo.setdefault(key, {})
        for line, sites in view.sites_by_end_line.items():
            if not first <= line <= last:
                continue
            if not settings.show_negligible:
                sites = [s for s in sites if s.prediction.basis is not Basis.NEGLIGIBLE]
            label = labels.get(line, False)
            if label is False:
                total = sum(s.total_energy_j for s in sites if s.total_energy_j is not None)
                labels[line] = label = hint_label(sites, settings.unit) if total >= settings.min_joules else None
            if label is None:
                continue
            hints.append(
                types.InlayHint(
                    position=line_end(lines, line, codec),
                    label=label,
                    padding_left=True,
                    data=[number, view.version, line],
                )
            )
        view.memo[(*key, first, last)] = hints
        return hints

    @server.feature(types.INLAY_HINT_RESOLVE)
    def resolve(hint: types.InlayHint) -> types.InlayHint:
        try:
            number, version, line = hint.data
            uri = next(uri for uri, n in documents.items() if n == number)
        except (TypeError, ValueError, StopIteration):
            return hint  # not one of ours
        view = server.view_now(uri)
        if view is None or view.version != version:
            return hint  # the document changed since: the hint will be asked for again
        sites = view.sites_by_end_line.get(line, [])
        if sites:
            unit = server.editor_settings(view.uri).unit
            hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=hint_tooltip(sites, unit))
        return hint
