"""`greenlint kb predict`: features from the command line, the calls JSON fields."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main
from greenlint.cli.kb_predict import parse_features
from greenlint.predict import load_predictor, model_path
from greenlint.predict.tables import dumps
from tests.predict.conftest import record
from tools.model.train import train


def test_parse_features_reads_python_literals():
    assert parse_features(["epochs=20", "lr=1e-3", "name=adam", "shuffle=False"]) == {
        "epochs": 20, "lr": 1e-3, "name": "adam", "shuffle": False,
    }  # fmt: skip
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_features(["20"])


def test_comma_separated_pairs_keep_tuples_whole():
    assert parse_features(["batch_size=64,steps_per_epoch=100", "input_shape=(224, 224, 3)"]) == {
        "batch_size": 64, "steps_per_epoch": 100, "input_shape": (224, 224, 3),
    }  # fmt: skip


@pytest.mark.parametrize("bad", ["epochs=0", "epochs=-5", "epochs=abc", "batch_size=2.5", "validation_split=1.5"])
def test_invalid_work_values_are_a_clear_error_and_exit_2(bad, capsys, model_file):
    with pytest.raises(ValueError, match=bad.partition("=")[0]):
        parse_features([bad])
    assert main(["kb", "predict", "tf.keras.Model.fit", "--work", bad, "--model", str(model_file)]) == 2
    assert bad.partition("=")[0] in capsys.readouterr().err


@pytest.fixture
def model_file(tmp_path):
    recs = [record("tensorflow.keras.Sequential.fit", 100.0 * (i + 1), script=f"t{i}") for i in range(4)]
    path = tmp_path / "predictor.json"
    path.write_text(dumps(train(recs, calibrated=False)))
    return path


def test_json_has_the_calls_fields(model_file, capsys):
    rc = main(["kb", "predict", "tf.keras.Sequential.fit", "--kw", "epochs=20", "--format", "json",
               "--model", str(model_file), "--no-overlay"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["api"] == "tensorflow.keras.Sequential.fit"  # canonicalised by the catalog
    assert doc["features"] == {"epochs": 20}
    for key in ("energy_j", "interval_j", "cpu_j", "gpu_j", "ram_j", "basis", "evidence", "multiplier"):
        assert key in doc
    assert doc["basis"] == "from-data" and doc["multiplier"] == 2.0
    assert "assumed" in doc["evidence"]["note"]


def test_text_output_and_bad_kw(model_file, capsys):
    assert main(["kb", "predict", "tf.keras.Sequential.fit", "--model", str(model_file), "--no-overlay"]) == 0
    assert "per call" in capsys.readouterr().out
    assert main(["kb", "predict", "tf.constant", "--kw", "oops", "--model", str(model_file)]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_shipped_model_loads_and_predicts():
    assert model_path().is_file(), "data/model/predictor.json missing: run `python -m tools.model.train`"
    p = load_predictor(overlay=False)
    pred = p.predict("tensorflow.keras.Sequential.fit", {})
    assert pred.energy_j > 0 and pred.basis.value == "from-data"
    assert len(p.fingerprint) == 16


def test_without_a_model_file_nothing_is_trained_and_the_error_says_how_to_build_it(tmp_path, capsys):
    from greenlint.predict.loading import load
    from greenlint.predict.tables import TRAIN_COMMAND, ModelError

    absent = tmp_path / "absent.json"
    with pytest.raises(ModelError) as err:
        load(absent, with_overlay=False)
    assert str(absent) in str(err.value) and TRAIN_COMMAND in str(err.value)
    assert main(["kb", "predict", "tf.keras.Sequential.fit", "--model", str(absent), "--no-overlay"]) == 2
    out = capsys.readouterr()
    assert f"greenlint kb predict: {absent}: no predictor model" in out.err
    assert not absent.exists()


def test_calls_without_a_model_file_say_which_file_and_how_to_build_it(tmp_path, monkeypatch, capsys):
    """The linter still runs (its rules need no figures); each figure is unknown and says why."""
    import greenlint.predict as predict

    absent = tmp_path / "absent.json"
    monkeypatch.setattr(predict, "model_path", lambda: absent)
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "cache"))
    load_predictor.cache_clear()
    source = tmp_path / "train.py"
    source.write_text("import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=3)\n")
    try:
        assert main(["calls", str(source), "--format", "json", "--jobs", "1", "--no-cache"]) == 0
    finally:
        load_predictor.cache_clear()
    doc = json.loads(capsys.readouterr().out)
    fit = next(c for c in doc["call_sites"] if c["api"].endswith(".fit"))
    assert fit["energy_j"] is None
    assert f"{absent}: no predictor model" in fit["evidence"]["note"]
    assert "python -m tools.model.train" in fit["evidence"]["note"] and not absent.exists()


def test_shipped_model_is_reproduced_by_training():
    from greenlint.kb import load_kb
    from greenlint.kb.store import default_kb_dir
    from greenlint.predict.tables import read_model
    from tools.kb.static_features import SCRIPTS_TABLE, load_scripts
    from tools.model.train import catalog_digest, kb_digest

    shipped, _ = read_model(model_path())
    records = load_kb()
    scripts = load_scripts(default_kb_dir() / SCRIPTS_TABLE)
    # stale data fails (never skips): the KB, the catalog or the training code changed since
    assert shipped["kb"] == kb_digest(records), "the KB changed since data/model/predictor.json: run `make data`"
    assert shipped.get("catalog") == catalog_digest(), "the catalog changed since the model: run `make data`"
    assert dumps(train(records, scripts=scripts)) == model_path().read_text(), (
        "the model code or the whole-script table changed: run `make data`")


def test_an_unknown_data_size_is_priced_as_the_linter_prices_it(capsys):
    assert parse_features(["samples=unknown,epochs=1000"]) == {"samples_unknown": True, "epochs": 1000}
    rc = main(["kb", "predict", "tf.keras.Sequential.fit", "--kw", "epochs=1000", "--work", "samples=unknown",
               "--format", "json", "--no-overlay"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert "data size unknown" in doc["evidence"]["note"]
    assert doc["interval_j"][1] / doc["interval_j"][0] > 1e4  # from one batch per epoch to a million samples
