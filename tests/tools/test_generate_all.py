"""`python -m tools.generate_all`: every generated file it owns is current, and `--check` says which is not."""

from __future__ import annotations

import pytest

from tools import generate_all
from tools.generate_all import Step


@pytest.mark.parametrize("step", generate_all.STEPS, ids=lambda s: s.name)
def test_generated_files_are_current(step):
    stale = step.stale()
    assert stale == [], f"stale ({step.name}): {', '.join(stale)}: run `python -m tools.generate_all`"


def test_check_writes_nothing_and_names_the_stale_files(monkeypatch, capsys):
    written = []
    steps = (Step("fresh", lambda: [], lambda: written.append("fresh")),
             Step("old", lambda: ["docs/x.md"], lambda: written.append("old")))
    monkeypatch.setattr(generate_all, "STEPS", steps)
    assert generate_all.main(["--check"]) == 1 and written == []
    assert "stale (old): docs/x.md" in capsys.readouterr().err
    assert generate_all.main(["--check", "fresh"]) == 0
    assert generate_all.main([]) == 0 and written == ["fresh", "old"]
    assert generate_all.main(["old"]) == 0 and written == ["fresh", "old", "old"]
    with pytest.raises(SystemExit):
        generate_all.main(["nonsense"])
