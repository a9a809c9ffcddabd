"""`python -m lsp_server [ARGS]` is `greenlint lsp [ARGS]`."""

import sys

from greenlint.cli import main

raise SystemExit(main(["lsp", *sys.argv[1:]]))
