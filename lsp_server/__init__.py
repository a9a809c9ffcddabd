"""The greenlint language server (`greenlint lsp`, or `python -m greenlint.lsp_server`).

It serves the call sites, predictions and diagnostics of the check pipeline to editors:
push diagnostics, hover, inlay hints, code lenses and quick fixes, one module each under
`features/` (with document sync and configuration). Requests answer at once from the newest
finished analysis; analyses run in a worker process (`analysis.py`).
Needs the `lsp` extra (pygls, lsprotocol).
"""

from greenlint.lsp_server.analysis import ConfigLookup

__all__ = ["GreenlintServer", "ConfigLookup", "build_server"]


def __getattr__(name: str):
    """`build_server` and `GreenlintServer`, imported on first use: an analysis process imports this
    package for `analysis` alone and never loads pygls and lsprotocol (~1 s of CPU at its start)."""
    if name == "build_server":
        from greenlint.lsp_server.build import build_server

        return build_server
    if name == "GreenlintServer":
        from greenlint.lsp_server.server import GreenlintServer

        return GreenlintServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
