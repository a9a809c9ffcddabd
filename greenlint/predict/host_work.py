"""Per-item host work in the program's own functions: items x a measured host cost per item x the host's draw.

A call of the program's own function that tokenises a text or decodes files item by item in Python
(docs/calls-json.md, "Host work"; the analysis's `work.host`, `work.host_items`) keeps one host core
busy for as long as its items take:

    energy = items x seconds per item x the reference host's net draw

The seconds per item are measured (`RATES`, each with where and how), never borrowed from a TF API's
figure. The draw is the KB reference machine's host while its GPU trained the tutorials' small models:
the training power model's `steady_w` x `fit`'s measured CPU and DRAM shares (`host_watts`). Where
the items are not known statically (a text or files read at run time), the figure is a floor: one
item at the least rate, its interval's top a stated most (`RATES`' `most`), as for a `fit` of unknown data.
"""

from __future__ import annotations

from dataclasses import dataclass

from greenlint.analysis.hostwork import HOST
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.predict.work_energy import DECODE_PIXEL_S, power_for

__all__ = ["HOST", "RATES", "floor_terms", "host_watts", "host_work"]

#: The API whose measured CPU and DRAM shares split the training power model's draw (`host_watts`).
FIT = "tensorflow.keras.Model.fit"


@dataclass(frozen=True)
class HostRate:
    """The host seconds one item costs, at least (`least_s`) and at most in common code (`most_s`)."""

    unit: str
    least_s: float
    most_s: float
    most_items: float  # the stated most of items where their number is unknown
    unknown: str  # what is not known where the items are not: "the text's size"
    provenance: str


#: Per kind of host work (analysis/hostwork.py `host_kind`).
RATES = {
    "text": HostRate(
        "token", 1.3e-7, 2.1e-6, 1e9, "the text's size",
        "CPU time per token measured by `python -m tools.host_rates` (Python 3.11, a shared two-core Xeon): "
        "1.3e-07 s for a whitespace split and a dictionary look-up, the least a Python tokeniser does; 2.1e-06 s "
        "for a greedy longest-match sub-word split (WordPiece's algorithm); at most 10^9 tokens, a few GB of text",
    ),
    "decode": HostRate(
        "pixel", DECODE_PIXEL_S, DECODE_PIXEL_S, 1e11, "the files' size",
        "a PNG's decode and resize, 1.5e-07 s a pixel, measured with TensorFlow 2.21 on a shared two-core machine "
        "(analysis/hostwork.py `ENCODES`); at most 10^11 pixels, a million 300 x 300 images",
    ),
}


def host_watts(model: dict) -> float | None:
    """The reference host's net draw: the training power model's `steady_w` x `fit`'s CPU and DRAM shares."""
    power = power_for(model.get("work") or {}, "training")
    shares = ((model.get("apis") or {}).get(FIT) or {}).get("shares") or {}
    if not power or "cpu" not in shares:
        return None
    return power["steady_w"] * (shares["cpu"] + shares.get("ram", 0.0))


def host_work(model: dict, features: dict) -> Prediction:
    """The figure of a call with per-item host work (module docstring); unknown where its kind or the draw is."""
    rate = RATES.get(str(features.get("host")))
    watts = host_watts(model)
    if rate is None or watts is None:
        return Prediction.unknown("per-item host work of a kind greenlint has no measured rate for")
    given = features.get("host_items")
    known = isinstance(given, (int, float)) and not isinstance(given, bool) and given > 0
    items = float(given) if known else None  # type: ignore[arg-type]
    least = (items or 1) * rate.least_s * watts
    most = (items or rate.most_items) * rate.most_s * watts
    size = f"{items:,.0f} {rate.unit}s" if items else f"{rate.unknown} is unknown, one {rate.unit} priced"
    note = (f"host work in Python: at least {rate.least_s:.2g} s per {rate.unit} at the reference host's "
            f"{watts:.3g} W net (the training power model x `fit`'s CPU and DRAM shares); {size}: "
            f"{least:.3g} J at least, at most {most:.3g} J; {rate.provenance}")
    return Prediction(least, (least, most), None, None, None, Basis.PREDICTED,
                      Evidence(records=0, api=None, level="work", sources=("tools.host_rates",), note=note), floor=True)


def floor_terms(features: dict) -> tuple[str, str] | None:
    """(what is unknown, what the interval's top assumes) of a host-work floor, for people (the hover):
    ("the text's size unknown", "10^9 tokens at 2.1e-06 s each"); None for another call."""
    rate = RATES.get(str(features.get("host"))) if features.get("receiver") == HOST else None
    if rate is None:
        return None
    return f"{rate.unknown} unknown", f"{rate.most_items:.0e} {rate.unit}s at {rate.most_s:.2g} s each"
