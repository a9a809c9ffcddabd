"""data/model/README.md documents every top-level field of the shipped model."""

from __future__ import annotations

import json
import re
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "model"


def test_every_field_of_the_shipped_model_is_documented():
    fields = json.loads((DATA / "predictor.json").read_text(encoding="utf-8"))
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    assert [f for f in fields if not re.search(rf"`{re.escape(f)}[`.]", readme)] == []
