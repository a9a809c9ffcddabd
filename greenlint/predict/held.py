"""The held device: what a running program draws beyond its calls' own figures.

A call's figure is measured from an idle machine, over the call alone. A running program keeps the
GPU at its working clocks (and the CPU busy) between its calls too, while Python, data loading and
plotting run beside the TensorFlow calls: in the public data's whole-program runs, once the runtime
has started, the GPU stays over 20 W above idle up to the script's end (docs/design.md). That time
grows with the program: priced here as seconds per call site at the runs' net draw, both fitted on
whole-program runs against what their calls' figures and start-up leave over (the model's `held`,
tools/model/scripts.py `fit_held`), which also holds the work those figures leave out (a loop of
unknown length, a data size the code does not give): a median over programs, not a figure of any
one call.
"""

from __future__ import annotations

from greenlint.predict.prediction import Basis, Evidence, Prediction

#: What the figure stands for, where it is shown (the calls table's note, the import's hover).
WHAT = "the device held between calls"


def held_draw(model: dict, sites: int) -> Prediction | None:
    """The held device of a program of *sites* call sites, on the reference machine; None where the
    model holds no such term or there is no call site."""
    h = model.get("held")
    if not h or sites <= 0:
        return None
    per_site, watts = h["seconds_per_site"], h["watts"]
    low, high = (s * sites * watts for s in h["interval_s"])
    note = (f"{sites} call site{'s' if sites != 1 else ''} × {per_site:.3g} s at {watts:.3g} W: the time a running "
            f"program holds the device at its working draw beyond what its calls' figures and start-up carry "
            f"(Python and data loading between calls, and work those figures leave out), per call site, the median "
            f"of {h['programs']} programs measured whole ({h['runs']} runs) on the reference machine")
    return Prediction(per_site * sites * watts, (low, high), None, None, None, Basis.FROM_DATA,
                      Evidence(records=h["runs"], api=WHAT, sources=("fecom-project-level",), note=note))
