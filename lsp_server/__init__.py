"""The greenlint language server (`greenlint lsp`, or `python -m greenlint.lsp_server`).

It serves the call sites, predictions and diagnostics of the check pipeline to editors:
push diagnostics, hover, inlay hints, code lenses and quick fixes, one module each under
`features/` (with document sync and configuration). Requests answer at once from the newest
finished analysis; analyses run in a worker process (`analysis.py`).
Needs the `lsp` extra (pygls, lsprotocol).

The package exports nothing: an analysis process imports `analysis` alone and never loads pygls and
lsprotocol (~1 s of CPU at its start); the command imports `build:build_server`.
"""
