"""`greenlint rule` (placeholder until its issue lands)."""

HELP = "rule (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint rule: not implemented yet")
    return 2
