"""`greenlint/fileTotal`, a request of greenlint's own: the predicted energy of a whole file or
notebook, for an editor's status bar (the VS Code extension asks for it; other clients may too).

Params `{"textDocument": {"uri": ...}}` (a file, a notebook or one of its cells); the result is
null when the document is not open or has no TF/Keras call with an estimate, else
`{"label": "5.28 kJ in this file (14 TF/Keras calls: 12 from data, 2 bounded)", "short": "5.28 kJ",
"joules": 5280.0, "low": 2100.0, "high": 9800.0, "calls": 14}`: joules times loops, summed over the
file's (or every cell's) call sites by `greenlint.report.total`, as the code lens and the energy
report's header sum them; `short` is the figure alone (a status bar), `label` says what it rests on.
"""

from __future__ import annotations

from greenlint.lsp_server.energy_text import BOLT, total_label, total_of
from greenlint.lsp_server.server import GreenlintServer

FILE_TOTAL = "greenlint/fileTotal"


def register(server: GreenlintServer) -> None:
    @server.feature(FILE_TOTAL)
    async def file_total(params) -> dict | None:
        uri = params.textDocument.uri
        owner = server.owner_of(uri)
        sites = [site for view in await server.views(owner) for site in view.sites]
        notebook = server.workspace.get_notebook_document(notebook_uri=owner) is not None
        unit = server.editor_settings(uri).unit
        label = total_label(sites, "this notebook" if notebook else "this file", unit)
        if label is None:
            return None
        total = total_of(sites)
        return {"label": label.removeprefix(f"{BOLT} "), "short": total.figure(unit), "joules": total.joules,
                "low": total.low, "high": total.high, "calls": total.calls}
