"""`greenlint kb ...`: the measured knowledge base.

Sub-subcommands live in modules ``greenlint/cli/kb_<name>.py``, each with ``HELP``,
``register(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import importlib

HELP = "the measured energy knowledge base (build, show, stats, ...)"
SUBCOMMANDS = ("build", "show", "stats", "predict")


def _modules():
    for name in SUBCOMMANDS:
        yield name, importlib.import_module(f"greenlint.cli.kb_{name}")


def register(parser) -> None:
    sub = parser.add_subparsers(dest="kb_command", metavar="SUBCOMMAND")
    for name, module in _modules():
        sp = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.register(sp)
        sp.set_defaults(_kb_run=module.run)
    parser.set_defaults(_kb_parser=parser)


def run(args) -> int:
    if getattr(args, "_kb_run", None) is None:
        args._kb_parser.print_help()
        return 2
    return int(args._kb_run(args) or 0)
