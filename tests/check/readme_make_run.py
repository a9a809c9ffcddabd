"""README.md's `make run` example (abridged) and its quoted `Figures:` line, made from what
`greenlint calls examples/` and `greenlint check examples/` print now.

    python -m tests.check.readme_make_run          # rewrite them (after the predictor changed)

The example keeps the lines it shows: each calls-table row by its location and API, each finding by
its location and code; the table's header and every shown line are rewritten as printed now.
`python -m tools.generate_all` runs it with the other generators (step `readme-make-run`);
tests/check/test_examples.py fails when README.md is stale.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile

from greenlint.atomic import atomic_write_text
from greenlint.paths import REPO_DIR

README = REPO_DIR / "README.md"
EXAMPLE = re.compile(r"(Example \(`make run`, abridged\):\n\n```\n)(.*?)(```)", re.S)
FIGURES = re.compile(r"^`(Figures: .*)`$", re.M)
_FINDING = re.compile(r"^(.*?): (GL\d{3}) ")


def printed() -> list[str]:
    """The lines `make run` prints (`calls examples/ --format text`, then `check examples/`), run
    from the repository in a fresh cache (no calibration of this machine)."""
    from greenlint.cli import main

    out = io.StringIO()
    old, cwd = os.environ.get("GREENLINT_CACHE_DIR"), os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(out):
        os.environ["GREENLINT_CACHE_DIR"] = tmp
        os.chdir(REPO_DIR)
        try:
            main(["calls", "examples/", "--format", "text"])
            main(["check", "examples/", "--exit-zero"])
        finally:
            os.chdir(cwd)
            if old is None:
                os.environ.pop("GREENLINT_CACHE_DIR", None)
            else:
                os.environ["GREENLINT_CACHE_DIR"] = old
    return [line.rstrip() for line in out.getvalue().splitlines()]


def _key(line: str) -> tuple[str, ...]:
    """What names a shown line: a finding's location and code, a table row's location and API."""
    found = _FINDING.match(line)
    return found.groups() if found else tuple(re.split(r"\s{2,}", line.strip())[:2])


def updated(readme: str, lines: list[str]) -> str:
    """*readme* with its example's lines and its `Figures:` line as *lines* (`printed`) have them.
    A shown line that is printed no more is an error: which lines to show is chosen by hand."""
    block, figures = EXAMPLE.search(readme), FIGURES.search(readme)
    if block is None or figures is None:
        raise ValueError("README.md has no `make run` example block or no quoted `Figures:` line")
    now: dict[tuple[str, ...], str] = {}
    for line in lines:
        now.setdefault(_key(line), line)
    shown = []
    for line in block[2].splitlines():
        if line.strip() in ("", "..."):
            shown.append(line)
        elif _key(line) in now:
            shown.append(now[_key(line)])
        else:
            raise ValueError(f"README.md's `make run` example shows a line `make run` no longer prints: {line}")
    [summary] = [line for line in lines if line.startswith("Figures: ")]
    text = readme[: block.start(2)] + "\n".join(shown) + "\n" + readme[block.end(2) :]
    return FIGURES.sub(lambda _: f"`{summary}`", text, count=1)


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = updated(text, printed())
    if new != text:
        atomic_write_text(README, new)
        print("README.md: the make run example was rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
