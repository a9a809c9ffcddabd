"""An imported project module edited keeping its size and mtime still invalidates the importer's result."""

from __future__ import annotations

import os

from greenlint.check.config import Config
from greenlint.check.pipeline import run_check

MAIN = "import tensorflow as tf\nfrom settings import EPOCHS\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=EPOCHS)\n"


def _fit_energy(tmp_path):
    config = Config(root=tmp_path, cache_dir=tmp_path / "cache", jobs=1)
    result = run_check([tmp_path / "main.py"], config)
    (fit,) = [p for c, p in result.callsites_with_predictions if c.api.endswith(".fit")]
    return fit.energy_j, result.stats


def test_an_edit_keeping_size_and_mtime_is_seen(tmp_path, monkeypatch):
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "user-cache"))
    (tmp_path / "main.py").write_text(MAIN)
    settings = tmp_path / "settings.py"
    settings.write_text("EPOCHS = 2\n")
    before, _ = _fit_energy(tmp_path)
    again, stats = _fit_energy(tmp_path)
    assert again == before and stats.cache_hits == 1
    st = os.stat(settings)
    settings.write_text("EPOCHS = 9\n")  # same size
    os.utime(settings, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the mtime set back
    after, stats = _fit_energy(tmp_path)
    assert stats.cache_hits == 0 and after > before


def test_an_edit_keeping_the_whole_stamp_is_seen_by_content(tmp_path, monkeypatch):
    """Even where size, mtime, ctime and inode all stay (a file system with coarse times): the
    content hash decides."""
    from greenlint.analysis import project

    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "user-cache"))
    monkeypatch.setattr(project, "file_stamp", lambda path: (1, 1, 1, 1) if os.path.exists(path) else None)
    (tmp_path / "main.py").write_text(MAIN)
    settings = tmp_path / "settings.py"
    settings.write_text("EPOCHS = 2\n")
    before, _ = _fit_energy(tmp_path)
    project.project_index().__init__()  # a new run: only what the cache remembers
    settings.write_text("EPOCHS = 9\n")
    after, stats = _fit_energy(tmp_path)
    assert stats.cache_hits == 0 and after > before
