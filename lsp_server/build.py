"""The language server assembled: a `GreenlintServer` with every feature of `features/` registered.

Apart from server.py so that the features import the server and never the other way round.
"""

from __future__ import annotations

from lsprotocol import types

from greenlint.lsp_server.analysis import ConfigLookup
from greenlint.lsp_server.features import FEATURES
from greenlint.lsp_server.server import GreenlintServer


def build_server(lookup: ConfigLookup = ConfigLookup(), predictor_loader=None) -> GreenlintServer:
    """A server with every feature registered."""
    server = GreenlintServer(lookup, predictor_loader)
    for feature in FEATURES:
        feature.register(server)
    server.analyses.listeners.append(lambda analysis: server.refresh())  # after the features' own

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.analyses.close()

    return server
