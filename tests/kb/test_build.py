"""`build_kb` on constructed datasets: energy, provenance, skipped files, atomic writes, load_kb."""

from __future__ import annotations

import json

import pytest

from greenlint.kb import KBError, load_kb, load_meta, store
from greenlint.kb.build import build_kb
from greenlint.kb.measurement_files import REFERENCE_HARDWARE_ID
from tests.kb.helpers import measurement, write


def identity(raw: str) -> str:
    return raw.replace("()", "")


@pytest.fixture
def shared(tmp_path):
    """A miniature ../shared with both public layouts and some bad files."""
    root = tmp_path / "shared"
    gl = root / "greenlight" / "raw" / "tensorflow_docs" / "classification"
    meta = {"api_call_line": 12, "project_name": "tensorflow_docs"}
    write(gl / "experiment-1.json.xz", [measurement(metadata=meta, sizes={"args_size": 576.0, "kwargs_size": 0, "object_size": 0.0}),
                                        measurement("tensorflow.keras.Sequential()", start=45, end=45, metadata=meta)])
    write(gl / "experiment-2.json.xz", [measurement(metadata=meta, cpu_rows=48)])  # CPU series cut short
    write(root / "greenlight" / "raw" / "tensorflow_docs" / "git_metadata.json.xz", {"not": "a measurement"})
    ds = root / "fecom" / "raw" / "data-size" / "images" / "cnn_fit"
    write(ds / "experiment-1.json.xz", [measurement("tensorflow.keras.models.Sequential.fit()", cpu_extra=k) for k in range(1, 11)])
    ml = root / "fecom" / "raw" / "method-level" / "audio" / "music_generation"
    write(ml / "experiment-1.json.xz", None, raw=b"")  # empty upstream
    write(ml / "experiment-2.json.xz", None, raw=b"\xfd7zXZ\x00\x00truncated")
    write(ml / "skip_calls.json.xz", ["tensorflow.keras.Sequential()"])
    return root


def test_build_computes_energy_and_provenance(shared, tmp_path):
    out = tmp_path / "kb"
    problems = []
    summary = build_kb([shared / "greenlight" / "raw", shared / "fecom" / "raw"], out, jobs=1,
                       canonical=identity, on_problem=problems.append)
    assert summary.written
    records = load_kb(out)
    assert len(records) == 3 + 10
    fit = next(r for r in records if r.dataset == "greenlight" and r.experiment == 1 and r.index == 0)
    assert fit.api == "tensorflow.keras.Sequential.fit"
    assert fit.fecom_name == "tensorflow.keras.Sequential.fit"
    assert (fit.project, fit.script, fit.line) == ("tensorflow_docs", "classification", 12)
    assert fit.hardware_id == REFERENCE_HARDWARE_ID
    assert fit.cpu_net_j == pytest.approx(50.0)
    assert fit.ram_net_j == pytest.approx(0.0)
    assert fit.gpu_net_j == pytest.approx(100.0)
    assert fit.net_j == pytest.approx(150.0)
    assert fit.cpu_gross_j == pytest.approx(5 * 27.0)
    assert fit.execution_time_s == pytest.approx(2.5)
    assert not fit.below_resolution and not fit.series_cut_short
    assert (fit.args_size, fit.kwargs_size, fit.object_size) == (576, None, None)  # Greenlight 0 = absent
    empty = next(r for r in records if r.raw_signature == "tensorflow.keras.Sequential()")
    assert empty.window_samples == 0 and empty.below_resolution
    assert empty.upper_bound_j >= 0.0
    cut = next(r for r in records if r.experiment == 2)
    assert cut.series_cut_short
    sweep = sorted((r for r in records if r.dataset == "fecom-data-size"), key=lambda r: r.index)
    assert [r.features["data_size_fraction"] for r in sweep] == pytest.approx([k / 10 for k in range(1, 11)])
    assert [r.cpu_net_j for r in sweep] == pytest.approx([5.0 * k for k in range(1, 11)])
    assert sweep[0].project == "images/cnn_fit" and sweep[0].script == "cnn_fit"
    assert sweep[0].args_size == 100 and sweep[0].kwargs_size is None

    # skipped files are reported with path and reason, and summarised in meta.json
    assert {(p.path, p.index) for p in problems} == {
        ("fecom/raw/method-level/audio/music_generation/experiment-1.json.xz", None),
        ("fecom/raw/method-level/audio/music_generation/experiment-2.json.xz", None),
    }
    meta = load_meta(out)
    assert meta["skipped_files"] == 2
    ml = meta["datasets"]["fecom-method-level"]
    assert (ml["files"], ml["files_read"], ml["skipped_files"], ml["records"]) == (2, 0, 2, 0)
    assert meta["datasets"]["greenlight"]["files"] == 2  # git_metadata is not a measurement file
    assert meta["sources"] == ["greenlight/raw", "fecom/raw"]
    assert "Commons Clause" in (out / "PROVENANCE.md").read_text()


def test_kb_is_sorted_and_rebuilds_identically(shared, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    build_kb([shared / "fecom" / "raw", shared / "greenlight" / "raw"], a, jobs=2, canonical=identity)
    build_kb([shared / "greenlight" / "raw", shared / "fecom" / "raw"], b, jobs=1, canonical=identity)
    assert (a / "records.csv").read_text() == (b / "records.csv").read_text()


def test_user_directory_gets_the_given_dataset_and_hardware(tmp_path):
    d = tmp_path / "mine"
    metered = measurement("tensorflow.keras.Sequential()")
    metered["tensorflow.keras.Sequential()"]["hardware"] = {"hardware_id": "xeon-2c-1234abcd"}
    write(d / "proj" / "train" / "experiment-3.json", [measurement(gpu=False), metered])
    build_kb([d], tmp_path / "kb", jobs=1, dataset="calibration", hardware_id="hw-123", canonical=identity)
    rec, other = sorted(load_kb(tmp_path / "kb"), key=lambda r: r.index)
    assert (rec.dataset, rec.project, rec.script, rec.experiment) == ("calibration", "proj", "train", 3)
    assert rec.hardware_id == "hw-123"
    assert other.hardware_id == "xeon-2c-1234abcd"  # the record's own hardware block wins
    assert rec.gpu_net_j is None and rec.gpu_gross_j is None
    assert rec.net_j == pytest.approx(50.0)


def test_meter_records_are_scaled_to_one_execution_and_keep_their_features(tmp_path):
    rec = measurement("tensorflow.keras.Sequential.fit()", gpu=False)
    body = rec["tensorflow.keras.Sequential.fit()"]
    body["energy_data"]["ram"] = None  # DRAM counter unreadable: not measured, never 0 J
    body["meter"] = {"executions": 4, "basis": "measured", "features": {"batch_size": 32}}
    write(tmp_path / "runs" / "p" / "s" / "experiment-1.json", [rec])
    build_kb([tmp_path / "runs"], tmp_path / "kb", jobs=1, canonical=identity)
    (r,) = load_kb(tmp_path / "kb")
    assert r.cpu_net_j == pytest.approx(50.0 / 4) and r.cpu_gross_j == pytest.approx(135.0 / 4)
    assert r.ram_gross_j is None and r.ram_net_j is None and r.net_j == pytest.approx(12.5)
    assert r.execution_time_s == pytest.approx(2.5 / 4)
    assert r.features == {"batch_size": 32, "basis": "measured", "executions": 4}


def test_a_failing_build_leaves_the_previous_kb_intact(shared, tmp_path, monkeypatch):
    out = tmp_path / "kb"
    build_kb([shared / "greenlight" / "raw"], out, jobs=1, canonical=identity)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def boom(records):
        raise OSError("disk full")

    monkeypatch.setattr(store, "records_csv", boom)
    with pytest.raises(OSError, match="disk full"):
        build_kb([shared / "greenlight" / "raw", shared / "fecom" / "raw"], out, jobs=1, canonical=identity)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb", "shared"]  # no temporary folders left


def test_nothing_read_leaves_the_target_unchanged(tmp_path):
    bad = tmp_path / "bad"
    write(bad / "experiment-1.json", None, raw=b"")
    summary = build_kb([bad, tmp_path / "missing"], tmp_path / "kb", jobs=1, canonical=identity)
    assert not summary.written and not (tmp_path / "kb").exists()
    assert [p.reason for p in summary.problems] == ["no such file or directory", "empty file (0 bytes)"]


def test_load_kb_rejects_other_schema_versions(shared, tmp_path):
    out = tmp_path / "kb"
    build_kb([shared / "greenlight" / "raw"], out, jobs=1, canonical=identity)
    meta = json.loads((out / "meta.json").read_text())
    meta["schema_version"] = 999
    (out / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(KBError, match="schema version 999"):
        load_kb(out)
    with pytest.raises(KBError, match="no KB here"):
        load_kb(tmp_path / "nowhere")
