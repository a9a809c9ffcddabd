"""`greenlint calls` (placeholder until its issue lands)."""

HELP = "calls (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint calls: not implemented yet")
    return 2
