"""A program's start-up: what a TensorFlow program pays once, before its first call does any work.

From the program's first line through `import tensorflow` (and its other imports) to the runtime's
start on the GPU: the public data's whole-program runs measured it (the KB's `startup_j`,
greenlint/kb/energy.py; the model's `startup`, fitted by tools/model/train.py). No call site
carries it, since a call's figure is measured from the call's start; a program pays it once, however
many of its files import TensorFlow. A figure of the reference machine, unless `greenlint calibrate`
measured it here (`meter.startup`: the CPU seconds of a fresh interpreter's `import tensorflow` and
first op, at the estimated watts per core).
"""

from __future__ import annotations

from greenlint.predict.prediction import Basis, Evidence, Prediction

#: What the figure stands for, where it is shown (the calls table's row, the accuracy report).
WHAT = "import tensorflow"


def program_startup(model: dict, here: dict | None = None) -> Prediction | None:
    """The start-up measured on this machine (*here*: the overlay's `startup`), else *model*'s (its
    median over the runs, their 10th-90th percentiles as the interval); None where neither holds one."""
    if here:
        note = (f"`{here['statement']}` in a fresh interpreter, the median of {here['runs']} runs by greenlint "
                f"calibrate: {here['cpu_s']:.3g} CPU s at {here.get('power_model', 'the estimated power')}; paid once "
                "per program, by no call")
        low, high = here["interval_j"]
        return Prediction(here["energy_j"], (low, high), here["energy_j"], None, None,
                          Basis.CALIBRATED_ESTIMATED, Evidence(records=here["runs"], api=WHAT, note=note))
    s = model.get("startup")
    if not s:
        return None
    low, high = s["interval_j"]
    note = (f"the imports up to the runtime's start on the GPU, median {s['seconds']:.3g} s, measured from the "
            f"program's first line in {s['runs']} whole-program runs of {s['programs']} programs on the reference "
            "machine; paid once per program, by no call")
    return Prediction(s["energy_j"], (low, high), None, None, None, Basis.FROM_DATA,
                      Evidence(records=s["runs"], api=WHAT, sources=("fecom-project-level",), note=note))
