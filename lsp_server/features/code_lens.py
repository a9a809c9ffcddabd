"""Code lens: the energy of a whole file (or notebook cell), whose command lists where it goes."""

from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from greenlint.lsp_server.energy_text import hotspots_text, total_label
from greenlint.lsp_server.features import since_base
from greenlint.lsp_server.server import GreenlintServer

#: Shows the costliest call sites of a document (argument: its URI) in a message.
SHOW_HOTSPOTS = "greenlint.showHotspots"
TOP = 5


def register(server: GreenlintServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lens(params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        view = await server.view(uri)
        if view is None:
            return []
        where = "this file" if view.cell is None else "this cell"
        sites = [site for sites in view.sites_by_end_line.values() for site in sites]
        title = total_label(sites, where, server.editor_settings(uri).unit)
        top = types.Position(0, 0)
        command = types.Command(title=title, command=SHOW_HOTSPOTS, arguments=[view.uri]) if title else None
        total = [types.CodeLens(range=types.Range(top, top), command=command)] if command else []
        return [*total, *await since_base.lenses(server, view)]

    @server.command(SHOW_HOTSPOTS)
    async def show_hotspots(*arguments) -> None:
        if len(arguments) != 1 or not isinstance(arguments[0], str):
            raise JsonRpcInvalidParams.of(ValueError(f"{SHOW_HOTSPOTS} takes one argument, a document URI"))
        uri = arguments[0]
        view = await server.view(uri)
        if view is None:
            return
        name = uri.rsplit("/", 1)[-1] if view.cell is None else f"cell {view.cell}"
        message = f"greenlint: {name}: {hotspots_text(view.sites, TOP, server.editor_settings(uri).unit)}"
        server.window_show_message(types.ShowMessageParams(types.MessageType.Info, message))
