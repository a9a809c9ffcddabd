"""The CSV form of a KB record round-trips exactly (None, inf, features, bools)."""

from __future__ import annotations

import math

from greenlint.kb.record import COLUMN_DOCS, COLUMNS, KBRecord, from_row, to_row


def make(**over) -> KBRecord:
    base = dict(
        api="tensorflow.keras.Sequential.fit", raw_signature="tensorflow.keras.Sequential.fit()",
        fecom_name="tensorflow.keras.Sequential.fit", dataset="greenlight", project="p", script="s",
        experiment=1, index=0, line=None, hardware_id="hw", execution_time_s=0.25, cpu_gross_j=10.0,
        cpu_net_j=-1.5, ram_gross_j=2.0, ram_net_j=0.0, gpu_gross_j=None, gpu_net_j=None, noise_j=None,
        below_resolution=True, upper_bound_j=math.inf, series_cut_short=False, window_samples=1,
        args_size=576, kwargs_size=None, object_size=None, features={"data_size_fraction": 0.3},
    )
    base.update(over)
    return KBRecord(**base)


def test_every_column_is_documented():
    assert tuple(COLUMN_DOCS) == COLUMNS


def test_round_trip():
    rec = make()
    row = to_row(rec)
    assert len(row) == len(COLUMNS)
    back = from_row(row)
    assert back == rec and back.features == rec.features
    assert back.upper_bound_j == math.inf and back.gpu_net_j is None and back.line is None


def test_net_sums_measured_components_only():
    assert make().net_j == -1.5  # no GPU measured
    assert make(gpu_gross_j=5.0, gpu_net_j=None).net_j is None  # measured but undefined
    assert make(gpu_gross_j=5.0, gpu_net_j=2.0).net_j == 0.5
    assert make(cpu_gross_j=None, cpu_net_j=None, ram_gross_j=None, ram_net_j=None).net_j is None
