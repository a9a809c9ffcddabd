"""Read the `# expect: api, api` markers of the resolver fixtures."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "resolve"
_EXPECT = re.compile(r"#\s*expect:\s*(.+?)\s*$")


def expected_calls(text: str) -> Counter:
    """(line, api) pairs marked in a fixture; a line without a marker expects no call."""
    found: Counter = Counter()
    for number, line in enumerate(text.splitlines(), 1):
        match = _EXPECT.search(line)
        if match:
            for api in match.group(1).split(","):
                found[(number, api.strip())] += 1
    return found


def fixture_files() -> list[Path]:
    """The Python fixtures (.py and .pyi); notebooks have their own test."""
    return sorted(p for p in FIXTURES.iterdir() if p.suffix in (".py", ".pyi"))
