"""Regenerate the derived files that need neither ../shared nor TensorFlow: `python -m tools.generate_all`.

In order (a later step may quote an earlier one's output):

- `rule-codes`: greenlint/rules/codes.json, the rules by code that a run reads (`python -m tools.rule_codes`);
- `rule-snapshots`: tests/fixtures/rules/<CODE>.full.txt, each rule's findings on its fixture;
- `rule-docs`: greenlint/rules/measured.json and docs/rules/ (`python -m tools.gendocs`);
- `readme-diff-example`: README.md's `greenlint diff` example (`python -m tests.review.readme_example`);
- `editor-doc-hover`: docs/editor.md's quoted hover (`python -m tests.lsp_server.test_editor_doc`);
- `readme-make-run`: README.md's `make run` example and its `Figures:` line (`python -m tests.check.readme_make_run`).

`--check` writes nothing and exits 1 naming each stale file (tests/tools/test_generate_all.py runs
every step's check). What needs the measurement data or TensorFlow (catalog, KB, predictor model,
docs/accuracy.md) is rebuilt by `make data`; the type checker's baseline by `python -m tools.mypy_baseline`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass

from greenlint.atomic import atomic_write_text
from tools import gendocs, rule_codes


@dataclass(frozen=True)
class Step:
    """One generator: what it would change (paths below the repository), and how to write it."""

    name: str
    stale: Callable[[], list[str]]
    write: Callable[[], object]


def _snapshots_stale() -> list[str]:
    from tests.rules import snapshots

    return snapshots.stale()


def _snapshots_write() -> None:
    from tests.rules import snapshots

    snapshots.write()


def _readme_example() -> tuple[str, str]:
    """(README.md now, README.md with a freshly rendered diff example)."""
    from tests.review.readme_example import README, render, updated

    text = README.read_text(encoding="utf-8")
    return text, updated(text, render())


def _readme_stale() -> list[str]:
    have, want = _readme_example()
    return [] if have == want else ["README.md"]


def _readme_write() -> None:
    from tests.review.readme_example import README

    have, want = _readme_example()
    if want != have:
        atomic_write_text(README, want)


def _editor_doc() -> tuple[str, str]:
    """(docs/editor.md now, docs/editor.md with its quoted hover made by the server now)."""
    from tests.lsp_server.test_editor_doc import DOC, updated

    text = DOC.read_text(encoding="utf-8")
    return text, updated(text)


def _editor_doc_stale() -> list[str]:
    have, want = _editor_doc()
    return [] if have == want else ["docs/editor.md"]


def _editor_doc_write() -> None:
    from tests.lsp_server.test_editor_doc import DOC

    have, want = _editor_doc()
    if want != have:
        atomic_write_text(DOC, want)


def _make_run() -> tuple[str, str]:
    """(README.md now, README.md with its `make run` example and `Figures:` line as printed now)."""
    from tests.check.readme_make_run import README, printed, updated

    text = README.read_text(encoding="utf-8")
    return text, updated(text, printed())


def _make_run_stale() -> list[str]:
    have, want = _make_run()
    return [] if have == want else ["README.md"]


def _make_run_write() -> None:
    from tests.check.readme_make_run import README

    have, want = _make_run()
    if want != have:
        atomic_write_text(README, want)


STEPS = (
    Step("rule-codes", rule_codes.stale, rule_codes.write),
    Step("rule-snapshots", _snapshots_stale, _snapshots_write),
    Step("rule-docs", lambda: [f"docs/rules/{name}" if name.endswith(".md") else name for name in gendocs.stale()],
         gendocs.write),
    Step("readme-diff-example", _readme_stale, _readme_write),
    Step("editor-doc-hover", _editor_doc_stale, _editor_doc_write),
    Step("readme-make-run", _make_run_stale, _make_run_write),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is stale; write nothing")
    parser.add_argument("steps", nargs="*", metavar="STEP",
                        help=f"run only these ({', '.join(s.name for s in STEPS)}); all by default")
    args = parser.parse_args(argv)
    unknown = set(args.steps) - {s.name for s in STEPS}
    if unknown:
        parser.error(f"no step {', '.join(sorted(unknown))}")
    chosen = [s for s in STEPS if not args.steps or s.name in args.steps]
    stale = 0
    for step in chosen:
        if args.check:
            bad = step.stale()
            stale += len(bad)
            for path in bad:
                print(f"stale ({step.name}): {path}", file=sys.stderr)
        else:
            step.write()
            print(f"{step.name}: written")
    if stale:
        print("run `python -m tools.generate_all` to regenerate", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
