"""`greenlint kb predict`: features from the command line, the calls JSON fields."""

from __future__ import annotations

import json

import pytest

from greenlint.cli import main
from greenlint.cli.kb_predict import parse_features
from greenlint.predict import load_predictor, model_path
from greenlint.predict.model import dumps, train
from tests.predict.conftest import record


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
    assert model_path().is_file(), "data/model/predictor.json missing: run `greenlint kb train`"
    p = load_predictor(overlay=False)
    pred = p.predict("tensorflow.keras.Sequential.fit", {})
    assert pred.energy_j > 0 and pred.basis.value == "from-data"
    assert len(p.fingerprint) == 16


def test_without_a_model_file_the_kb_tables_are_used(tmp_path, caplog):
    from greenlint.predict.loading import load

    p = load(tmp_path / "absent.json", with_overlay=False)
    assert "no trained predictor model" in caplog.text
    assert p.model["calibration"]["folds"] == 0  # uncalibrated, and says so in the model
    assert p.predict("tensorflow.keras.Sequential.fit", {}).basis.value == "from-data"


def test_shipped_model_is_reproduced_by_kb_train():
    from greenlint.kb import load_kb
    from greenlint.predict.loading import read_model
    from greenlint.predict.model import catalog_digest, kb_digest

    shipped, _ = read_model(model_path())
    records = load_kb()
    # stale data fails (never skips): the KB, the catalog or the training code changed since
    assert shipped["kb"] == kb_digest(records), "the KB changed since data/model/predictor.json: run `make data`"
    assert shipped.get("catalog") == catalog_digest(), "the catalog changed since the model: run `make data`"
    assert dumps(train(records)) == model_path().read_text(), "the model code changed: run `make data`"


def test_an_unknown_data_size_is_priced_as_the_linter_prices_it(capsys):
    assert parse_features(["samples=unknown,epochs=1000"]) == {"samples_unknown": True, "epochs": 1000}
    rc = main(["kb", "predict", "tf.keras.Sequential.fit", "--kw", "epochs=1000", "--work", "samples=unknown",
               "--format", "json", "--no-overlay"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert "data size unknown" in doc["evidence"]["note"]
    assert doc["interval_j"][1] / doc["interval_j"][0] > 1e4  # from one batch per epoch to a million samples
