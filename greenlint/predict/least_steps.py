"""A call whose steps are a lower bound (`steps` with `bound: lower`: a loop of unknown length in a
`tf.function`'s body, analysis/traced.py): its figure is a floor, those steps the least the code
allows, and its interval's high end assumes up to `HIGH_SAMPLES` samples in its steps, stated like
any floor's (`work_energy.unknown_size_span`), never a typical loop's length."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from greenlint.predict.prediction import Basis, Prediction
from greenlint.predict.work_energy import HIGH_SAMPLES


def most_steps_features(features: dict) -> dict | None:
    """The features of the most steps such a call is priced up to (HIGH_SAMPLES samples in steps of
    its batch: `samples`, else `batch_size`, else Keras' 32), None where its steps are not a lower bound."""
    steps = features.get("steps")
    if features.get("steps_bound") != "lower" or not isinstance(steps, (int, float)) or isinstance(steps, bool):
        return None
    batch = features.get("samples") or features.get("batch_size") or 32
    most = max(float(steps), HIGH_SAMPLES / batch)
    return {**{k: v for k, v in features.items() if k != "steps_bound"}, "steps": most}


def steps_floor(pred: Prediction, features: dict, predict: Callable[[dict], Prediction]) -> Prediction:
    """*pred* as a floor where the call's steps are a lower bound (`most_steps_features`), its high end
    *predict*'s figure at the most steps; *pred* itself otherwise (or where it has no figure)."""
    most = most_steps_features(features)
    if most is None or pred.energy_j is None or pred.interval_j is None or pred.basis is Basis.SYMBOLIC:
        return pred
    high = predict(most)
    top = max(pred.interval_j[1], *(high.interval_j or (high.energy_j or 0.0,)))
    note = (f"{pred.evidence.note}; at least: its steps are a lower bound ({features['steps']:g}, a loop of "
            f"unknown length counted once); the interval's high end assumes up to {HIGH_SAMPLES:,} samples in "
            f"its steps ({most['steps']:.3g} steps; stated, not inferred)")
    return replace(pred, interval_j=(pred.interval_j[0], top), floor=True, evidence=replace(pred.evidence, note=note))
