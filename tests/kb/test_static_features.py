"""Static features of measured call sites: matching, the table, and its join into the KB (no snapshots needed)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from greenlint.kb.static_table import COLUMNS, TABLE, attach, load_table, occurrences, static_key, with_provenance
from greenlint.kb.store import STATIC, load_kb, write_kb
from tests.environment import missing
from tests.predict.conftest import record
from tools.kb.static_features import (
    Resolved,
    align,
    compact,
    instance_call,
    match_fecom,
    match_unique,
    names_call,
    repeats,
    resolve_source,
    static_inputs,
    table_csv,
)

FIT = "tensorflow.keras.Sequential.fit"
DENSE = "tensorflow.keras.layers.Dense"


def r(api, line, **features):
    return Resolved(api, None, line, features)


def test_compact_keeps_workload_facts_and_drops_code():
    feats = {"epochs": 5, "receiver": "model", "vocabulary": list("abcdefghijk"), "shape": [28, 28],
             "callbacks": ["tensorflow.keras.callbacks.TensorBoard"],
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


def test_a_measured_class_matches_a_call_of_its_instance_and_names_it():
    # FECoM names `augment(images)` of `augment = Sequential(...)` by the class: `Sequential()`
    seq, call = "tensorflow.keras.Sequential", "tensorflow.keras.Sequential.__call__"
    found = [r(seq, 3, params=0), r(call, 5, samples=32), r(FIT, 9, epochs=5)]
    got = align([(0, seq), (1, seq), (2, FIT)], found)
    assert got[(0, seq)].api == seq and got[(1, seq)].api == call and got[(1, seq)].features == {"samples": 32}
    assert names_call(seq, call) and not names_call(call, seq) and not names_call(seq, FIT)
    # one measured call, a constructor and an instance call in the source: the name alone cannot say
    assert match_unique([seq], found) == {}
    assert match_unique([seq], found[:1])[seq].api == seq


def test_a_call_that_runs_several_times_takes_its_measured_calls_in_a_row():
    call = "tensorflow.keras.Sequential.__call__"
    loop = Resolved(call, None, 5, {"samples": 32}, runs=9)
    found = [r(DENSE, 3, units=8), loop, r(FIT, 9, epochs=5)]
    measured = [(0, DENSE), (1, call), (2, call), (3, call), (4, FIT)]
    got = align(measured, found, [repeats(f) for f in found])
    assert [got[(i, call)].line for i in (1, 2, 3)] == [5, 5, 5] and got[(4, FIT)].line == 9
    # a measured call the loop or a later call of the same kind could be: unsure, dropped
    later = [*found[:2], Resolved(call, None, 7, {"samples": 64}, runs=1), found[2]]
    got = align(measured, later, [repeats(f) for f in later])
    assert (1, call) in got and (3, call) not in got
    assert repeats(Resolved(FIT, None, 1, {"in_tf_function": True}, runs=1)) and not repeats(r(FIT, 1))


def test_occurrences_tell_a_runs_calls_of_one_signature_apart():
    # two runs (files) of one script; the second lost a signature FECoM stopped measuring after the first run
    recs = [record(FIT, 1.0, experiment=1, index=3), record(DENSE, 1.0, experiment=1, index=0),
            record(FIT, 1.0, experiment=1, index=1), record(FIT, 1.0, experiment=2, index=0),
            record(FIT, 1.0, experiment=2, index=2), record(FIT, 1.0, dataset="greenlight", line=4)]
    assert occurrences(recs) == [2, 1, 1, 1, 2, None]


def test_match_fecom_aligns_the_fullest_run_and_keeps_agreeing_apis():
    found = [r(DENSE, 3, units=8), r(FIT, 9, epochs=5), r(DENSE, 12, units=1), r(FIT, 14, epochs=50),
             r("tensorflow.constant", 15), r(FIT, 20, epochs=7)]
    runs = {1: [(0, DENSE, 1, False), (1, FIT, 1, False), (2, FIT, 2, False), (3, "tensorflow.constant", 1, False),
                (4, FIT, 3, False)],
            2: [(0, FIT, 1, False), (1, FIT, 2, False)]}
    got = match_fecom(runs, found)
    assert [got[(FIT, k)].features["epochs"] for k in (1, 2, 3)] == [5, 50, 7]
    assert got[("tensorflow.constant", 1)].line == 15
    # the measured Dense came before the first fit: the order says which Dense it was
    assert got[(DENSE, 1)].features == {"units": 8}
    # the run with the most records is the one aligned, whatever its number
    assert match_fecom({1: runs[2], 2: runs[1]}, found)[(FIT, 3)].features["epochs"] == 7


def test_a_call_of_an_instance_is_never_matched_to_its_class_constructor():
    app = "tensorflow.keras.applications.MobileNetV2"
    built = record(app, 1.0, index=0)
    called = replace(built, index=1, object_size=14_645_036)  # FECoM's size of the object called
    assert not instance_call(built) and instance_call(called)
    assert not instance_call(replace(called, api="tensorflow.train.Example.ParseFromString"))
    # the resolver names the model's call by its base class: the call stays unmatched, not the constructor's
    found = [r(app, 7, weights="imagenet"), r("tensorflow.keras.Model.__call__", 37, samples=1)]
    got = match_fecom({1: [(0, app, 1, False), (1, app, 2, True)]}, found)
    assert got[(app, 1)].line == 7 and (app, 2) not in got


def test_resolve_source_reads_notebook_cells_with_our_resolver():
    nb = {"cells": [{"cell_type": "code", "source": ["import tensorflow as tf\n"]},
                    {"cell_type": "markdown", "source": ["text"]},
                    {"cell_type": "code", "source": ["m = tf.keras.Sequential()\n", "m.fit(x, y, epochs=7)\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    calls = resolve_source(json.dumps(nb), "t.ipynb")
    fit = next(c for c in calls if c.api.endswith(".fit"))
    assert fit.cell == 2 and fit.line == 2 and fit.features["epochs"] == 7


def _row(dataset, project, script, line, api, features, occurrence=None, call_api=None, where="3:1"):
    return {"dataset": dataset, "project": project, "script": script, "line": line, "occurrence": occurrence,
            "api": api, "call_api": call_api or api,
            "source_repository": "https://github.com/o/r", "source_commit": "c" * 40, "source_path": "p.ipynb",
            "source_line": where, "features": features}


def test_table_round_trip_and_join(tmp_path):
    rows = [_row("greenlight", "proj", "tut", 12, FIT, {"epochs": 5}),
            _row("fecom-method-level", "keras/tut", "tut", None, FIT, {"epochs": 9}, occurrence=1),
            _row("fecom-method-level", "keras/tut", "tut", None, FIT, {"epochs": 90}, occurrence=2)]
    path = tmp_path / STATIC
    path.write_text(table_csv(rows))
    table = load_table(path)
    assert table[("greenlight", "proj", "tut", 12, None, FIT)] == (FIT, None, {"epochs": 5})
    recs = [
        record(FIT, 100.0, dataset="greenlight", line=12, script="tut"),
        record(FIT, 100.0, dataset="greenlight", line=13, script="tut"),  # another call site: no match
        record(FIT, 50.0, dataset="fecom-method-level", script="tut", index=4, features={"source": "kb"}),
        record(FIT, 50.0, dataset="fecom-method-level", script="tut", index=7),  # the run's second fit
    ]
    recs = [rec.__class__(**{**rec.__dict__, "project": p}) for rec, p in zip(recs, ["proj", "proj", "keras/tut", "keras/tut"])]
    joined = attach(recs, table)
    assert joined[0].features == {"epochs": 5}
    assert joined[1].features == {}
    assert joined[2].features == {"epochs": 9, "source": "kb"}
    assert joined[3].features == {"epochs": 90}


def test_a_matched_row_renames_the_record_to_the_resolved_call(tmp_path):
    seq, call = "tensorflow.keras.Sequential", "tensorflow.keras.Sequential.__call__"
    path = tmp_path / STATIC
    path.write_text(table_csv([_row("fecom-method-level", "p", "tut", None, seq, {"samples": 32}, occurrence=k,
                                    call_api=call, where="3") for k in (2, 3)]))
    recs = [record(seq, 0.1, dataset="fecom-method-level", script="tut", index=i) for i in (0, 1, 2)]
    recs = [rec.__class__(**{**rec.__dict__, "project": "p"}) for rec in recs]
    built, *augmented = attach(recs, load_table(path))
    assert (built.api, built.line, built.features) == (seq, None, {})
    # the two calls of the matched line (a loop's) take its line: one call site
    assert [(a.api, a.line, a.features) for a in augmented] == [(call, 3, {"samples": 32})] * 2


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
    assert COLUMNS[:6] == ("dataset", "project", "script", "line", "occurrence", "api")


def test_bundled_table_matches_the_bundled_kb():
    """Every row of data/kb/static_features.csv names a call site of the bundled KB (else: rerun it)."""
    from greenlint.kb.store import default_kb_dir

    path = default_kb_dir() / TABLE
    if not path.is_file():
        missing(f"{path} absent")
    table = load_table(path)
    records = load_kb(static=False)  # the keys are the measured names, not the matched calls'
    keys = {static_key(r, occ) for r, occ in zip(records, occurrences(records))}
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
    assert stamp.read_text(encoding="utf-8").strip() == static_inputs(load_kb(static=False)), (
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
