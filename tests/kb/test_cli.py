"""`greenlint kb build/show/stats` through the real command line entry point."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main
from greenlint.kb.store import default_kb_dir
from tests.environment import missing
from tests.kb.helpers import measurement, write


@pytest.fixture
def small_kb(tmp_path, capsys):
    d = tmp_path / "runs"
    write(d / "proj" / "train" / "experiment-1.json.gz", [measurement("keras.models.Sequential.fit()"),
                                                         measurement("tensorflow.keras.Sequential()", start=45, end=45)])
    write(d / "proj" / "train" / "experiment-2.json", None, raw=b"[{")
    out = tmp_path / "kb"
    assert main(["kb", "build", str(d), "--out", str(out), "--jobs", "1", "--dataset", "calibration",
                 "--hardware-id", "hw-1"]) == 0
    captured = capsys.readouterr()
    assert "experiment-2.json: malformed JSON" in captured.err  # reported with path and reason
    assert "1 file(s): malformed JSON" in captured.out  # and summarised
    return out


def test_build_requires_out_with_dirs_too(tmp_path, capsys):
    assert main(["kb", "build", str(tmp_path)]) == 2
    assert "with --out" in capsys.readouterr().err


def test_stats_json_has_the_documented_keys(small_kb, capsys):
    assert main(["kb", "stats", "--kb", str(small_kb), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records"] == 2 and data["apis"] == 2
    ds = data["datasets"]["calibration"]
    assert (ds["files"], ds["records"], ds["skipped_files"]) == (2, 2, 1)
    assert data["below_resolution_share"] == 0.5


def test_stats_text_is_a_table(small_kb, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    assert main(["kb", "stats", "--kb", str(small_kb)]) == 0
    out = capsys.readouterr().out
    assert "calibration" in out and "malformed JSON" in out


def test_show_accepts_any_alias(small_kb, capsys):
    for alias in ("tf.keras.models.Sequential.fit", "keras.Sequential.fit()", "tensorflow.keras.Sequential.fit"):
        assert main(["kb", "show", alias, "--kb", str(small_kb), "--format", "json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["apis"] == ["tensorflow.keras.Sequential.fit"], alias
        assert data["records"] == 1
        assert data["net_j"]["cpu"]["median"] == pytest.approx(50.0)
        assert data["net_j"]["total"]["median"] == pytest.approx(150.0)
        assert data["sources"] == {"calibration": {"proj/train": 1}}
    assert main(["kb", "show", "tf.keras.Sequential.fit", "--kb", str(small_kb)]) == 0
    assert "50 J" in capsys.readouterr().out
    assert main(["kb", "show", "tf.nothing", "--kb", str(small_kb)]) == 1


def test_missing_kb_is_a_clear_error(tmp_path, capsys):
    assert main(["kb", "stats", "--kb", str(tmp_path)]) == 2
    assert "no KB here" in capsys.readouterr().err


def test_bundled_kb_stats_show_the_public_dataset_counts(capsys):
    """The committed data/kb holds every record of the shared copy (figures from its READMEs)."""
    if not (default_kb_dir() / "meta.json").exists():
        missing("no bundled KB in data/kb")
    assert main(["kb", "stats", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ds = data["datasets"]
    gl = ds["greenlight"]
    assert (gl["files"], gl["records"], gl["scripts"], gl["raw_signatures"]) == (343, 2129, 104, 517)
    assert gl["records_by_experiment"]["1"] == 1245
    assert ds["fecom-method-level"]["records"] == 4650
    assert ds["fecom-project-level"]["records"] == 210
    assert ds["fecom-data-size"]["records"] == 1000
    assert data["skipped_files"] == 840
    assert ds["fecom-method-level"]["skipped_files"] + ds["fecom-project-level"]["skipped_files"] == 840
    assert data["records"] == 2129 + 4650 + 210 + 1000


def test_build_without_shared_and_without_dirs_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GREENLINT_SHARED_DIR", str(tmp_path / "absent"))
    assert main(["kb", "build", "--out", str(tmp_path / "kb")]) == 2
    assert "../shared is absent" in capsys.readouterr().err


def test_build_never_writes_a_default_inside_the_package(capsys):
    assert main(["kb", "build"]) == 2
    assert "--out" in capsys.readouterr().err


def test_loading_the_kb_needs_neither_numpy_nor_pandas(small_kb):
    import subprocess
    import sys

    code = (
        "import sys; from greenlint.kb import load_kb; "
        f"assert len(load_kb({str(small_kb)!r})) == 2; "
        "assert 'pandas' not in sys.modules and 'numpy' not in sys.modules, sorted(sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_bundled_kb_show_agrees_with_predict_and_shows_no_negative_joules(capsys):
    """`kb show` printed "-7.48 J" of RAM and 144 records where `kb predict` cites 296: a negative
    net is below the resolution, and show names the pooled call sites predict's figure rests on."""
    import re

    if not (default_kb_dir() / "meta.json").exists():
        missing("no bundled KB in data/kb")
    api = "tensorflow.keras.Model.fit"
    assert main(["kb", "show", api, "--format", "json"]) == 0
    pooled = json.loads(capsys.readouterr().out)["predictor"][api]
    assert pooled["apis"] == [api, "tensorflow.keras.Sequential.fit"]
    assert main(["kb", "predict", api]) == 0
    cited = int(re.search(r"evidence: (\d+) records", capsys.readouterr().out)[1])
    assert pooled["records"] == cited and pooled["kb_records"] > cited
    assert main(["kb", "show", api]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"pooling the call sites of {api}, tensorflow.keras.Sequential.fit: {cited} of their" in text
    table = text[text.index("┏") : text.index("┘")]
    assert "ram │ below resolution │ < 0 J .. < 0 J" in table and not re.search(r"-\d", table)
