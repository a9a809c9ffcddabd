"""The generated table of library classes built on TF/Keras (`data/catalog/libraries.json.gz`).

Written by `python -m tools.catalog.libraries` from the sources of the most used libraries (read,
never imported: `greenlint.analysis.libraries`), so that their classes are known where they are not
installed. Format (JSON, gzip): `{"format": 1, "generator": ..., "versions": {distribution:
version}, "roots": {import root: distribution}, "classes": {public path: Keras base}}`.
"""

from __future__ import annotations

import functools
import gzip
import json

from greenlint.paths import DATA_DIR

LIBRARIES_FILE = "libraries.json.gz"
FORMAT = 1


@functools.lru_cache(maxsize=1)
def load_libraries() -> dict:
    """The bundled table, read once per process; an empty one where it is missing or unreadable."""
    try:
        with gzip.open(DATA_DIR / "catalog" / LIBRARIES_FILE, "rt", encoding="utf-8") as fh:
            payload = json.load(fh)
    except (OSError, EOFError, ValueError):
        payload = None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        return {"versions": {}, "roots": {}, "classes": {}}
    return payload
