"""`greenlint measure` (placeholder until its issue lands)."""

HELP = "measure (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint measure: not implemented yet")
    return 2
