"""README.md's `greenlint diff` example: the Markdown summary of a real run on the repository
tests/review/history.py builds (`main` → `change`), between two markers.

    python -m tests.review.readme_example          # rewrite it (after the predictor changed)

`python -m tools.generate_all` runs it with the other generators; tests/tools/test_generate_all.py
fails when README.md is stale.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from greenlint.atomic import atomic_write_text
from greenlint.paths import REPO_DIR

README = REPO_DIR / "README.md"
START = "<!-- greenlint diff example: python -m tests.review.readme_example -->"
END = "<!-- end of the greenlint diff example -->"


def render() -> str:
    """`greenlint diff main change --format markdown --fail-above 10` on a fresh history, in a fresh cache."""
    from greenlint.check.config import Config
    from greenlint.review import gitfs
    from greenlint.review.budget import Budget, check
    from greenlint.review.diff import diff_revisions
    from greenlint.review.formats import render as render_format
    from tests.review.history import build

    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("GREENLINT_CACHE_DIR")
        os.environ["GREENLINT_CACHE_DIR"] = str(Path(tmp) / "cache")
        try:
            root = Path(tmp) / "repo"
            build(root)
            base, head = gitfs.commit_side(root, "main"), gitfs.commit_side(root, "change")
            diff = diff_revisions(root, base, head, [""], Config(root=root))
        finally:
            if old is None:
                os.environ.pop("GREENLINT_CACHE_DIR", None)
            else:
                os.environ["GREENLINT_CACHE_DIR"] = old
    return render_format("markdown", diff, check(diff, Budget(fail_above=5.0)))


def updated(readme: str, example: str) -> str:
    head, start, rest = readme.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"README.md has no `{START}` ... `{END}` block")
    return f"{head}{START}\n\n{example.strip()}\n\n{END}{tail}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = updated(text, render())
    if new != text:
        atomic_write_text(README, new)
        print("README.md: the greenlint diff example was rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
