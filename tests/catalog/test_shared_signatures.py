"""Every raw signature in the shared measurements gets a canonical TF/Keras name."""

from __future__ import annotations

import json
import lzma

import pytest

from greenlint.catalog.catalog import load_catalog
from tests.environment import SHARED


def _raw_signatures() -> set[str]:
    names: set[str] = set()
    for path in sorted((SHARED / "greenlight" / "raw").glob("*/*/experiment-1.json.xz")):
        with lzma.open(path, "rt", encoding="utf-8") as fh:
            for record in json.load(fh):
                names.update(record)
    return names


@pytest.mark.shared
def test_every_measured_signature_is_canonical():
    cat = load_catalog()
    signatures = _raw_signatures()
    assert len(signatures) > 300
    unresolved = {s for s in signatures if cat.canonical(s) is None}
    assert unresolved <= {"project-level"}
    canon = {cat.canonical(s) for s in signatures} - {None}
    assert all(c.startswith("tensorflow.") and "(" not in c for c in canon)
    # alias families and call chains collapse onto one name each
    assert len(canon) < len(signatures)
    assert cat.canonical("tensorflow.keras.models.Sequential.fit()") in canon
    assert "tensorflow.data.Dataset.batch" in canon
    assert not any(c.startswith("tensorflow.keras.models.Sequential") for c in canon)
