"""Code lens: the predicted energy of a whole file (or notebook cell), whose command lists where it goes."""

from __future__ import annotations

from lsprotocol import types

from lsp_server.energy_text import hotspots_text, total_label
from lsp_server.server import GreenlintServer

#: Shows the costliest call sites of a document (argument: its URI) in a message.
SHOW_HOTSPOTS = "greenlint.showHotspots"
TOP = 5


def register(server: GreenlintServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lens(params: types.CodeLensParams) -> list[types.CodeLens]:
        view = await server.view(params.text_document.uri)
        title = None if view is None else total_label(view.sites, "this file" if view.cell is None else "this cell")
        if title is None:
            return []
        top = types.Position(0, 0)
        command = types.Command(title=title, command=SHOW_HOTSPOTS, arguments=[view.uri])
        return [types.CodeLens(range=types.Range(top, top), command=command)]

    @server.command(SHOW_HOTSPOTS)
    async def show_hotspots(uri: str) -> None:
        view = await server.view(uri)
        if view is None:
            return
        name = uri.rsplit("/", 1)[-1] if view.cell is None else f"cell {view.cell}"
        message = f"greenlint: {name}: {hotspots_text(view.sites, TOP)}"
        server.window_show_message(types.ShowMessageParams(types.MessageType.Info, message))
