"""Honest fallbacks on the shipped model and catalog: unknown names, accessors, pooled model methods."""

from __future__ import annotations

import pytest

from greenlint.predict import load_predictor
from greenlint.predict.prediction import Basis


@pytest.fixture(scope="module")
def shipped():
    return load_predictor(overlay=False)


def test_a_name_the_catalog_does_not_know_gets_no_figure(shipped):
    p = shipped.predict("tensorflow.foo.NotAThing", {})
    assert p.basis is Basis.UNKNOWN and p.energy_j is None
    assert "catalog" in p.evidence.note


@pytest.mark.parametrize("accessor", ["get_vocabulary", "vocabulary_size"])
def test_cheap_accessors_never_inherit_a_heavy_siblings_cost(shipped, accessor):
    adapt = shipped.predict("tensorflow.keras.layers.TextVectorization.adapt", {})
    p = shipped.predict(f"tensorflow.keras.layers.TextVectorization.{accessor}", {})
    assert p.evidence.level in ("kind", "class") and "adapt" not in (p.evidence.api or "")
    assert p.energy_j < adapt.energy_j / 1000
    assert p.interval_j[1] < 100.0


def test_sequential_and_model_fit_cost_the_same_for_the_same_work(shipped):
    work = {"epochs": 5, "batch_size": 64}
    seq = shipped.predict("tensorflow.keras.Sequential.fit", work)
    model = shipped.predict("tensorflow.keras.Model.fit", work)
    assert seq.energy_j == pytest.approx(model.energy_j) and seq.interval_j == pytest.approx(model.interval_j)


def test_a_keras_application_keeps_its_identity_through_fit(shipped):
    plain = shipped.predict("tensorflow.keras.Model.fit", {"epochs": 5, "samples": 1000})
    app = shipped.predict("tensorflow.keras.applications.MobileNetV2.fit", {"epochs": 5, "samples": 1000})
    named = shipped.predict("tensorflow.keras.Model.fit", {"epochs": 5, "samples": 1000, "model": "MobileNetV2"})
    assert "MobileNetV2" in app.evidence.note and "MobileNetV2" in named.evidence.note
    assert app.energy_j == pytest.approx(named.energy_j) and app.energy_j != plain.energy_j


def test_every_measurement_below_resolution_is_bounded_not_measured(shipped):
    p = shipped.predict("tensorflow.keras.Sequential.compile", {})
    assert p.basis is Basis.BOUNDED and p.basis.label == "bounded"
    assert p.interval_j[0] == 0 < p.energy_j <= p.interval_j[1]  # an upper bound: no lower end


def test_an_api_mostly_below_resolution_gets_the_mean_of_its_calls_not_the_bound(shipped):
    """17 of get_file's 20 measured call sites were below the resolution, 3 well above it (large
    archives): a call of it costs, on average, the mixture's mean, and the interval reaches the
    measurable calls (the bound alone priced every measurable download 40x too low)."""
    api = "tensorflow.keras.utils.get_file"
    entry = shipped.model["apis"][api]
    assert 2 * entry["n_censored"] > entry["n_sites"] > entry["n_censored"]
    share = (entry["n_sites"] - entry["n_censored"]) / entry["n_sites"]
    measurable = 10 ** entry["mu"]
    p = shipped.predict(api, {})
    quick = entry["bound_j"] / 2  # or what its quick calls took at a call's steady power, where less
    if entry.get("censored_time_s"):
        quick = min(quick, shipped.model["work"]["power"]["all"]["steady_w"] * entry["censored_time_s"])
    assert p.energy_j == pytest.approx(share * measurable + (1 - share) * min(quick, measurable))
    assert entry["bound_j"] < p.energy_j < measurable
    assert p.basis is Basis.BOUNDED and p.interval_j[0] == 0 and p.interval_j[1] >= measurable
    assert "expected energy of a call" in p.evidence.note


@pytest.mark.parametrize("api", ["tensorflow.keras.optimizers.Adam", "tensorflow.keras.config.epsilon",
                                 "tensorflow.keras.Sequential.summary", "tensorflow.io.gfile.exists"])
def test_calls_that_do_no_work_get_the_measured_no_work_bound_not_a_family_constant(shipped, api):
    p = shipped.predict(api, {})
    assert p.basis is Basis.NEGLIGIBLE and p.interval_j == (0.0, shipped.model["negligible"]["bound_j"])
    assert 0 < p.energy_j <= p.interval_j[1] < 5.0
    assert "below the resolution" in p.evidence.note and p.evidence.records > 100


def test_a_never_measured_api_without_a_measured_group_gets_no_figure(shipped):
    p = shipped.predict("tensorflow.signal.hann_window", {})
    assert p.basis is Basis.UNKNOWN and p.energy_j is None


def test_fit_figures_follow_batch_size_steps_data_and_model_size(shipped):
    base = {"epochs": 5, "samples": 60000, "batch_size": 32, "flops_per_sample": 2e5}

    def joules(**change):
        return shipped.predict("tensorflow.keras.Model.fit", {**base, **change}).energy_j

    e = joules()
    assert joules(batch_size=512) < e / 3  # fewer steps, less per-step overhead
    assert joules(samples=600) < e / 30 and joules(epochs=50) > 5 * e
    assert joules(steps_per_epoch=100) < e / 5
    assert joules(flops_per_sample=2e9) > 3 * e  # a bigger model per sample
    p = shipped.predict("tensorflow.keras.Model.fit", base)
    assert p.interval_ratio < 15 and "power × time" in p.evidence.note


def test_adapt_on_three_words_is_tiny(shipped):
    corpus = shipped.predict("tensorflow.keras.layers.TextVectorization.adapt", {})
    tiny = shipped.predict("tensorflow.keras.layers.TextVectorization.adapt", {"samples": 1})
    assert tiny.energy_j < 10 and tiny.energy_j < corpus.energy_j / 1000


def test_adapt_on_a_literal_list_counts_its_elements(shipped):
    p = shipped.predict("tensorflow.keras.layers.TextVectorization.adapt", {"data": ["a b c"]})
    assert p.energy_j < 10 and "power × time" in p.evidence.note
