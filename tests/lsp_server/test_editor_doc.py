"""docs/editor.md shows a hover as the editor shows it: the quoted block is the hover of
examples/train.py's swept `model.fit` (line 19), made now by the server's own text."""

from __future__ import annotations

import re
from pathlib import Path

from greenlint.check.config import load_config
from greenlint.lsp_server.analysis import analyse_text
from greenlint.lsp_server.energy_text import hover_markdown
from greenlint.predict import load_predictor

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "train.py"


def example_hover() -> str:
    text = EXAMPLE.read_text(encoding="utf-8")
    result = analyse_text(text, str(EXAMPLE), load_config([EXAMPLE.parent]), load_predictor().predict)
    site = next(s for s in result.sites if s.callsite.span.line == 19 and s.api.endswith(".fit"))
    return hover_markdown(site, [d for d in result.diagnostics if d.span == site.callsite.span])


def quoted_hover(doc: str) -> str:
    block = re.search(r"A hover looks like this[^\n]*\n(?:[^\n]+\n)*\n((?:>[^\n]*\n)+)", doc)
    assert block, "docs/editor.md has no quoted hover"
    return "\n".join(line[2:] if line.startswith("> ") else line[1:] for line in block.group(1).splitlines())


def test_the_quoted_hover_is_the_one_the_editor_shows():
    doc = DOC.read_text(encoding="utf-8")
    assert quoted_hover(doc) == example_hover(), "regenerate: python -m tools.generate_all"


DOC = ROOT / "docs" / "editor.md"


def updated(doc: str) -> str:
    """docs/editor.md's text *doc* with its quoted block rewritten from the current hover."""
    old = "\n".join(f"> {line}" if line else ">" for line in quoted_hover(doc).splitlines())
    new = "\n".join(f"> {line}" if line else ">" for line in example_hover().splitlines())
    return doc.replace(old, new, 1)


if __name__ == "__main__":  # rewrite the quoted block from the current hover (`python -m tools.generate_all`)
    from greenlint.atomic import atomic_write_text

    atomic_write_text(DOC, updated(DOC.read_text(encoding="utf-8")))
