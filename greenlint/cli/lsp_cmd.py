"""`greenlint lsp`: the language server over stdio (diagnostics, hover, inlay hints, quick fixes)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import BinaryIO, cast

HELP = "run the greenlint language server over stdio (for editors)"


def register(parser):
    from greenlint.cli.check_cmd import path_arg

    parser.add_argument(
        "--stdio", action="store_true", help="talk LSP over stdin/stdout (the default and only transport)"
    )
    parser.add_argument(
        "--config", type=path_arg, metavar="FILE", help="read [tool.greenlint] from this pyproject.toml for every document"
    )
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    parser.add_argument(
        "-v", "--verbose", action="store_true",
        help="log debug messages too (on stderr until initialised, then through window/logMessage)",
    )


def run(args) -> int:
    try:
        from greenlint.lsp_server.analysis import ConfigLookup
        from greenlint.lsp_server.build import build_server
        from greenlint.lsp_server.framing import HeaderReader
    except ImportError as exc:
        from greenlint.paths import install_extra

        print(f"greenlint lsp: needs the `lsp` extra ({exc}): {install_extra('lsp')}", file=sys.stderr)
        return 2
    config_file = Path(args.config).resolve() if args.config else None
    if config_file is not None and not config_file.is_file():
        print(f"greenlint lsp: {args.config}: no such configuration file", file=sys.stderr)
        return 2
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.WARNING)
    server = build_server(ConfigLookup(config_file=config_file, isolated=args.isolated))
    server.start_io(stdin=cast(BinaryIO, HeaderReader(sys.stdin.buffer)))  # pygls calls its readline and read alone
    return server.protocol.exit_code or 0  # 1 after `exit` without `shutdown` (the LSP specification)
