"""`greenlint kb` (placeholder until its issue lands)."""

HELP = "kb (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint kb: not implemented yet")
    return 2
