"""Program entry runners: absl's `app.run(main)` and TF1's `tf.compat.v1.app.run(main)` call *main*
once, with the command line's arguments (TF1's `app.run()` given no function runs the module's own
`main`, as TensorFlow looks it up in `__main__`). The resolver counts that as one call of *main*, so
what main runs has a count (once per program run) instead of "passed where greenlint cannot count"."""

from __future__ import annotations

import ast
from typing import Any

#: absl's module holding `run`, valued by the resolver (nothing else of absl's `app`).
ABSL_APP = "absl.app"
#: absl's runner (no TF API: no call site of its own).
ABSL_RUN = f"{ABSL_APP}.run"
#: TF1's runners, as the catalog names them (call sites).
TF_RUNNERS = frozenset({"tensorflow.compat.v1.app.run", "tensorflow.app.run"})
#: What TF1's runner calls when it is given no function.
DEFAULT_MAIN = "main"


def given_main(args: list, keywords: list) -> Any:
    """The function a runner's call names (its first argument, or `main=`); None where none is given."""
    if args and not args[0][0]:
        return args[0][1]
    return next((value for key, value in keywords if key == "main"), None)


def argv(params: int) -> list:
    """The arguments main is called with: the command line (unknown), where it takes one."""
    return [(False, None)] if params else []


def is_main_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round): the script's own path when it runs as the program."""
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Eq:
        return False
    sides = (test.left, test.comparators[0])
    return any(type(n) is ast.Name and n.id == "__name__" for n in sides) \
        and any(type(n) is ast.Constant and n.value == "__main__" for n in sides)
