"""Reading measurement files: formats, and clear errors for empty, malformed and truncated files."""

from __future__ import annotations

import json
import lzma
import re

import pytest

from greenlint.kb.measurement import (
    MeasurementFileError,
    RecordError,
    fecom_name,
    parse_record,
    read_measurement_file,
)
from tests.kb.helpers import measurement, write


@pytest.mark.parametrize("name", ["experiment-1.json", "experiment-1.json.xz", "experiment-1.json.gz"])
def test_reads_plain_and_compressed(tmp_path, name):
    path = write(tmp_path / name, [measurement()])
    data = read_measurement_file(path)
    assert len(data) == 1
    call = parse_record(data[0])
    assert call.raw_signature == "tensorflow.keras.Sequential.fit()"
    assert set(call.energy_data) == {"cpu", "ram", "gpu"}
    assert len(call.energy_data["cpu"]["data"]) == 80
    assert call.hardware_id is None


@pytest.mark.parametrize(
    ("name", "raw", "reason"),
    [
        ("experiment-1.json.xz", b"", "empty file (0 bytes)"),
        ("experiment-1.json.xz", lzma.compress(b""), "decompresses to 0 bytes"),
        ("experiment-1.json", b"[{\"a\": ", "malformed JSON"),
        ("experiment-1.json", b"{\"a\": 1}", "expected a JSON list"),
        ("experiment-1.json", b"\xff\xfe[1]", "not UTF-8"),
        ("experiment-1.json.gz", b"\x1f\x8b\x08\x00garbage", "truncated or corrupt"),
    ],
)
def test_bad_files_raise_with_a_reason(tmp_path, name, raw, reason):
    path = write(tmp_path / name, None, raw=raw)
    with pytest.raises(MeasurementFileError, match=re.escape(reason)):
        read_measurement_file(path)


def test_truncated_xz_is_reported(tmp_path):
    full = lzma.compress(json.dumps([measurement()]).encode())
    path = write(tmp_path / "experiment-1.json.xz", None, raw=full[: len(full) // 2])
    with pytest.raises(MeasurementFileError, match="truncated or corrupt"):
        read_measurement_file(path)


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda r: {"a": 1, "b": 2}, "exactly one key"),
        (lambda r: {"x()": {**r["x()"], "times": {}}}, "times lacks"),
        (lambda r: {"x()": {**r["x()"], "energy_data": {"cpu": "{}", "ram": "{}"}}}, "split-orient"),
        (lambda r: {"x()": {**r["x()"], "energy_data": {**r["x()"]["energy_data"], "cpu": "[oops"}}}, "not valid JSON"),
        (lambda r: {"x()": {**r["x()"], "energy_data": {"cpu": r["x()"]["energy_data"]["cpu"], "gpu": None}}}, "lacks ram"),
        (lambda r: {"x()": {**r["x()"], "energy_data": {"cpu": None, "ram": None, "gpu": None}}}, "no component"),
    ],
)
def test_malformed_records_raise_record_error(mutate, reason):
    with pytest.raises(RecordError, match=reason):
        parse_record(mutate(measurement("x()")))


def test_null_series_means_not_measured():
    call = parse_record(measurement(gpu=False))
    assert set(call.energy_data) == {"cpu", "ram"}
    rec = measurement("x()")
    rec["x()"]["energy_data"]["ram"] = None  # the meter where RAPL DRAM is unreadable
    assert set(parse_record(rec).energy_data) == {"cpu", "gpu"}


def test_hardware_block_of_the_meter_is_read():
    rec = measurement()
    rec["tensorflow.keras.Sequential.fit()"]["hardware"] = {"hardware_id": "xeon-2c-1234abcd"}
    assert parse_record(rec).hardware_id == "xeon-2c-1234abcd"


def test_fecom_name_uses_fecoms_non_greedy_regex():
    assert fecom_name("tensorflow.keras.Sequential.fit()") == "tensorflow.keras.Sequential.fit"
    assert fecom_name("tensorflow.keras.layers.Dense(128, 'relu')()") == "tensorflow.keras.layers.Dense"
    # not balanced: FECoM's regex stops at the first ")"
    assert fecom_name("tensorflow.data.Dataset.from_tensor_slices((x, y)).batch()") == (
        "tensorflow.data.Dataset.from_tensor_slices).batch"
    )
