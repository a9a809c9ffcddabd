"""The knowledge base: measured per-call energy of TF/Keras APIs (see greenlint/kb/record.py).

`load_kb()` reads the bundled ``data/kb`` (stdlib only, cached); `greenlint.kb.build.build_kb`
makes a KB from measurement files.
"""

from greenlint.kb.record import SCHEMA_VERSION, KBRecord
from greenlint.kb.store import KBError, default_kb_dir, load_kb, load_meta

__all__ = ["SCHEMA_VERSION", "KBError", "KBRecord", "default_kb_dir", "load_kb", "load_meta"]
