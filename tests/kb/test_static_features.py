"""Static features of measured call sites: matching, the table, and its join into the KB (no snapshots needed)."""

from __future__ import annotations

import json

import pytest

from greenlint.kb.static_table import COLUMNS, TABLE, attach, load_table, static_key, with_provenance
from greenlint.kb.store import STATIC, load_kb, write_kb
from tests.environment import missing
from tests.predict.conftest import record
from tools.kb.static_features import Resolved, align, compact, match_unique, resolve_source, static_inputs, table_csv

FIT = "tensorflow.keras.Sequential.fit"
DENSE = "tensorflow.keras.layers.Dense"


def r(api, line, **features):
    return Resolved(api, None, line, features)


def test_compact_keeps_workload_facts_and_drops_code():
    feats = {"epochs": 5, "receiver": "model", "vocabulary": list("abcdefghijk"), "shape": [28, 28],
             "init": {"units": 4, "receiver": "x"}, "obj": object(), "name": "x" * 100}
    assert compact(feats) == {"epochs": 5, "shape": [28, 28], "init": {"units": 4}}


def test_align_follows_the_order_and_skips_unmeasured_calls():
    found = [r(DENSE, 3, units=8), r(DENSE, 4, units=16), r(FIT, 9, epochs=5), r(DENSE, 12, units=1), r(FIT, 14, epochs=50)]
    # the patched script's lines differ from the source's, but the order is the same
    got = align([(2, DENSE), (5, FIT), (7, FIT)], found)
    assert got[(5, FIT)].features == {"epochs": 5}
    assert got[(7, FIT)].features == {"epochs": 50}


def test_align_drops_an_ambiguous_match():
    # one measured Dense, two candidates with different features before the next anchor: unsure
    found = [r(DENSE, 3, units=8), r(DENSE, 4, units=16), r(FIT, 9, epochs=5)]
    got = align([(2, DENSE), (5, FIT)], found)
    assert (2, DENSE) not in got and got[(5, FIT)].features == {"epochs": 5}
    # the same candidates with equal features are not ambiguous
    same = [r(DENSE, 3, units=8), r(DENSE, 4, units=8), r(FIT, 9, epochs=5)]
    assert align([(2, DENSE), (5, FIT)], same)[(2, DENSE)].features == {"units": 8}


def test_align_drops_a_match_that_another_longest_alignment_pairs_differently():
    # two Dense layers built and called; only one constructor and one call were measured: which
    # call it was, the order cannot say (the greedy pairing would take the first)
    call = DENSE + ".__call__"
    found = [r(DENSE, 1, units=8), r(call, 2, units=8), r(DENSE, 3, units=16), r(call, 4, units=16), r(FIT, 5, epochs=3)]
    got = align([(10, DENSE), (11, call), (12, FIT)], found)
    assert (11, call) not in got and (10, DENSE) not in got
    assert got[(12, FIT)].features == {"epochs": 3}


def test_align_never_matches_an_api_the_source_lacks():
    assert align([(1, "tensorflow.constant")], [r(FIT, 1, epochs=1)]) == {}


def test_match_unique_for_records_without_lines():
    found = [r(FIT, 9, epochs=5), r(DENSE, 3, units=8), r(DENSE, 4, units=16), r(FIT, 20, epochs=5)]
    got = match_unique([FIT, DENSE, "tensorflow.constant"], found)
    assert set(got) == {FIT} and got[FIT].features == {"epochs": 5}


def test_resolve_source_reads_notebook_cells_with_our_resolver():
    nb = {"cells": [{"cell_type": "code", "source": ["import tensorflow as tf\n"]},
                    {"cell_type": "markdown", "source": ["text"]},
                    {"cell_type": "code", "source": ["m = tf.keras.Sequential()\n", "m.fit(x, y, epochs=7)\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    calls = resolve_source(json.dumps(nb), "t.ipynb")
    fit = next(c for c in calls if c.api.endswith(".fit"))
    assert fit.cell == 2 and fit.line == 2 and fit.features["epochs"] == 7


def _row(dataset, project, script, line, api, features):
    return {"dataset": dataset, "project": project, "script": script, "line": line, "api": api,
            "source_repository": "https://github.com/o/r", "source_commit": "c" * 40, "source_path": "p.ipynb",
            "source_line": "3:1", "features": features}


def test_table_round_trip_and_join(tmp_path):
    rows = [_row("greenlight", "proj", "tut", 12, FIT, {"epochs": 5}),
            _row("fecom-method-level", "keras/tut", "tut", None, FIT, {"epochs": 9})]
    path = tmp_path / STATIC
    path.write_text(table_csv(rows))
    table = load_table(path)
    assert table[("greenlight", "proj", "tut", 12, FIT)] == {"epochs": 5}
    recs = [
        record(FIT, 100.0, dataset="greenlight", line=12, script="tut"),
        record(FIT, 100.0, dataset="greenlight", line=13, script="tut"),  # another call site: no match
        record(FIT, 50.0, dataset="fecom-method-level", script="tut", features={"data_size_fraction": 1.0}),
    ]
    recs = [rec.__class__(**{**rec.__dict__, "project": p}) for rec, p in zip(recs, ["proj", "proj", "keras/tut"])]
    joined = attach(recs, table)
    assert joined[0].features == {"epochs": 5}
    assert joined[1].features == {}
    assert joined[2].features == {"epochs": 9, "data_size_fraction": 1.0}


def test_malformed_table_names_the_file(tmp_path):
    path = tmp_path / STATIC
    path.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match=str(path)):
        load_table(path)
    assert load_table(tmp_path / "absent.csv") == {}


def test_kb_loads_the_table_and_a_rebuild_keeps_it(tmp_path):
    from greenlint.kb.record import SCHEMA_VERSION

    kb = tmp_path / "kb"
    recs = [record(FIT, 100.0, dataset="greenlight", line=12, script="tut")]
    write_kb(kb, recs, {"schema_version": SCHEMA_VERSION}, "# Provenance\n")
    assert load_kb(kb)[0].features == {}
    (kb / STATIC).write_text(table_csv([_row("greenlight", "tut", "tut", 12, FIT, {"epochs": 5})]))
    assert load_kb(kb)[0].features == {"epochs": 5}
    write_kb(kb, recs, {"schema_version": SCHEMA_VERSION}, "# Provenance\n")  # a rebuild
    assert (kb / STATIC).is_file() and load_kb(kb)[0].features == {"epochs": 5}
    text = (kb / "PROVENANCE.md").read_text()
    assert text.count("static_features.csv)") == 1 and with_provenance(text) == text


def test_columns_are_documented_in_order():
    assert COLUMNS[:5] == ("dataset", "project", "script", "line", "api")


def test_bundled_table_matches_the_bundled_kb():
    """Every row of data/kb/static_features.csv names a call site of the bundled KB (else: rerun it)."""
    from greenlint.kb.store import default_kb_dir

    path = default_kb_dir() / TABLE
    if not path.is_file():
        missing(f"{path} absent")
    table = load_table(path)
    keys = {static_key(r) for r in load_kb()}
    stale = [k for k in table if k not in keys]
    assert not stale, f"{len(stale)} rows name no KB call site, e.g. {stale[:3]}: rerun python -m tools.kb.static_features"
    joined = sum(1 for r in load_kb() if "loop_multiplier" in r.features)
    assert joined > 0


def test_bundled_tables_are_current():
    """data/kb/static_features.csv and script_sites.csv were derived by today's resolver from today's KB
    sites: their stamp names the digest of both. Any change to the resolver, its tables or the KB's sites
    fails here (never skips): the sources are not at hand to compare the rows themselves."""
    from greenlint.kb.static_table import STAMP
    from greenlint.kb.store import default_kb_dir

    stamp = default_kb_dir() / STAMP
    assert stamp.is_file(), f"{stamp} absent: run `make static-features` (data/kb/PROVENANCE.md)"
    assert stamp.read_text(encoding="utf-8").strip() == static_inputs(load_kb()), (
        "data/kb/static_features.csv and script_sites.csv are stale (the resolver, its tables or the KB's "
        "call sites changed since): run `make static-features`, then `make data`")


def test_the_stamp_follows_the_measured_sites_not_their_energies():
    recs = [record(FIT, 100.0, dataset="greenlight", line=12, script="tut")]
    same_sites = [record(FIT, 50.0, dataset="greenlight", line=12, script="tut")]
    other_site = [record(FIT, 100.0, dataset="greenlight", line=13, script="tut")]
    assert static_inputs(recs) == static_inputs(same_sites)
    assert static_inputs(recs) != static_inputs(other_site)


def test_a_kb_rebuild_keeps_the_tables_stamp(tmp_path):
    from greenlint.kb.record import SCHEMA_VERSION
    from greenlint.kb.static_table import STAMP

    kb = tmp_path / "kb"
    recs = [record(FIT, 100.0, dataset="greenlight", line=12, script="tut")]
    write_kb(kb, recs, {"schema_version": SCHEMA_VERSION}, "# Provenance\n")
    (kb / STATIC).write_text(table_csv([_row("greenlight", "tut", "tut", 12, FIT, {"epochs": 5})]))
    (kb / STAMP).write_text("abc\n")
    write_kb(kb, recs, {"schema_version": SCHEMA_VERSION}, "# Provenance\n")
    assert (kb / STAMP).read_text() == "abc\n"
