"""One module per LSP feature, each with `register(server)` (CONTRIBUTING.md, "Language server")."""

from greenlint.lsp_server.features import (
    code_action,
    code_lens,
    configuration,
    diagnostics,
    file_total,
    hover,
    inlay_hint,
    since_base,
    sync,
)

FEATURES = (sync, configuration, diagnostics, hover, inlay_hint, code_action, code_lens, since_base, file_total)
