"""`greenlint check` (placeholder until its issue lands)."""

HELP = "check (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint check: not implemented yet")
    return 2
