"""`greenlint lsp` (placeholder until its issue lands)."""

HELP = "lsp (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint lsp: not implemented yet")
    return 2
