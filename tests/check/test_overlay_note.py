"""The line naming the calibration overlay a run applied is one sentence, the same in `check`,
`calls` and README.md."""

from __future__ import annotations

from greenlint.check import overlay
from greenlint.cli import main
from greenlint.paths import REPO_DIR
from greenlint.report import calibration_note

FOUND = {"path": "/cache/calibration/hw-1", "hardware_id": "hw-1"}


def test_check_calls_and_the_readme_say_the_same(tmp_path, monkeypatch, capsys, fake_backend):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(overlay, "applied", lambda root: FOUND if root is not None else None)
    (tmp_path / "train.py").write_text("import tensorflow as tf\ntf.keras.Sequential().fit(x, y, batch_size=2)\n")
    note = calibration_note(FOUND)
    main(["check", "train.py", "--exit-zero"])
    assert f"greenlint: {note}\n" in capsys.readouterr().err
    main(["calls", "train.py"])
    assert " ".join(capsys.readouterr().out.split()).endswith(note)
    quoted = calibration_note({"path": "<path>", "hardware_id": "<id>"})
    assert f"`{quoted}`" in " ".join((REPO_DIR / "README.md").read_text().split())
