"""A call whose FLOPs per sample are a lower bound (`flops_per_sample` with `bound: lower`: an op of
unknown work in a traced step, a layer of unknown shape, the smaller of two models joined): where its
figure moves with those FLOPs, it is a floor, the known part's price the least the code allows (its
FLOPs timed at one large op's throughput, `work_energy.flop_s`: whole runs' fitted cost per FLOP is an
average, not a least), and its interval's high end the same call's with its FLOPs unknown
(`work_energy.unknown_size_span`'s stated most), never a typical model's FLOPs. A TF1 graph run does
the same in `graphs.graph_run`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from greenlint.predict.prediction import Basis, Prediction


def flops_floor(pred: Prediction, features: dict, predict: Callable[[dict], Prediction]) -> Prediction:
    """*pred* as a floor where the call's FLOPs per sample are a lower bound and *predict* of its
    features without them is a floor (its figure rests on those FLOPs), its high end that floor's;
    *pred* itself otherwise (no lower bound, no figure, already a floor, or a figure its FLOPs do not set)."""
    if (features.get("flops_per_sample_bound") != "lower" or pred.floor or pred.energy_j is None
            or pred.interval_j is None or pred.basis is Basis.SYMBOLIC):
        return pred
    unknown = predict({k: v for k, v in features.items() if k not in ("flops_per_sample", "flops_per_sample_bound")})
    if not unknown.floor or unknown.interval_j is None:
        return pred
    top = max(pred.interval_j[1], unknown.interval_j[1])
    note = (f"{pred.evidence.note}; at least: its FLOPs per sample ({features['flops_per_sample']:.3g}) are a lower "
            f"bound, its ops or layers of known work alone at their least time; the interval's high end as where its "
            f"FLOPs are unknown")
    return replace(pred, interval_j=(pred.interval_j[0], top), floor=True, evidence=replace(pred.evidence, note=note))
