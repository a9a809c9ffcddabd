"""`greenlint calibrate` (placeholder until its issue lands)."""

HELP = "calibrate (not implemented yet)"


def register(parser):
    parser.add_argument("rest", nargs="*")


def run(args) -> int:
    print("greenlint calibrate: not implemented yet")
    return 2
