"""Physics goals: crafted programs, one thing varied at a time, through the real resolver and predictor.

Each goal runs small source texts through `analyse_source` and the shipped predictor, exactly as
`greenlint calls` does, and compares the figures with what physics requires at fixed hardware
(issue 18): work ×10 → energy ×8–12 past start-up, a larger batch never dearer per epoch, ×k FLOPs
→ at least ×k^0.5 where the FLOPs outweigh the per-step overhead (`COMPUTE_BOUND_BATCH`), the same
layers written two ways → figures within 2×, ops costed by shape, loops and calls counted, early stopping's patience
as the least epochs, intervals wider beyond the fitted range; a named architecture's many small and
depthwise layers dearer per FLOP than a plain CNN's (its layers' roofline, not its FLOPs alone).
`goals()` is deterministic; tests/physics asserts every goal, docs/accuracy.md shows the figures.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

#: Spelled once: the imports every crafted program starts with.
HEADER = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"


@dataclass(frozen=True)
class Goal:
    name: str  # what is varied
    figure: float  # what the crafted programs give
    low: float  # the goal: low <= figure <= high
    high: float
    unit: str  # how the figure reads ("×", "J", "ratio")

    @property
    def met(self) -> bool:
        return self.low <= self.figure <= self.high


def _fit_program(samples=60_000, epochs=10, batch=32, image=32, filters=32, depth=1, width=64,
                 split=None, callbacks="", steps=None) -> str:
    convs = "".join(f"    keras.layers.Conv2D({filters}, 3, activation='relu', padding='same'),\n" for _ in range(depth))
    extra = (f", validation_split={split}" if split else "") + (f", steps_per_epoch={steps}" if steps else "")
    return f"""
x = np.random.rand({samples}, {image}, {image}, 3)
y = np.random.rand({samples}, 10)
model = keras.Sequential([
    keras.Input(shape=({image}, {image}, 3)),
{convs}    keras.layers.Flatten(),
    keras.layers.Dense({width}, activation='relu'),
    keras.layers.Dense(10),
])
model.compile(optimizer="adam", loss="mse")
{callbacks}model.fit(x, y, epochs={epochs}, batch_size={batch}{extra})
"""


#: The batch of the FLOPs goals (issue 18: "×k FLOPs per sample → at least ×k^0.5 for compute-bound
#: fits"). On the reference GPU a training step costs about 5.5 ms of overhead (the KB's MNIST MLPs:
#: 10^7 FLOPs a step) and its FLOPs run at about 1.4·10^12 FLOP/s (its 180-px CNN: 1.8·10^10 FLOPs a
#: step in 17.6 ms); the goals' small CNN does 1.8·10^7 FLOPs a trained sample, so a step of 32 is
#: overhead (0.4 ms of FLOPs) and one of 1,024 is compute (13 ms).
COMPUTE_BOUND_BATCH = 1024


class Physics:
    """The resolver and the shipped predictor over crafted source texts."""

    def __init__(self, predictor=None):
        from greenlint.predict import load_predictor

        self.predictor = predictor or load_predictor(overlay=False)

    def sites(self, code: str, api_suffix: str):
        from greenlint.analysis.analyse import analyse_source

        result = analyse_source(HEADER + textwrap.dedent(code), "physics.py")
        if result.errors:
            raise ValueError(f"crafted program does not analyse: {result.errors}")
        return [s for s in result.callsites if s.api.endswith(api_suffix)]

    def predict(self, code: str, api_suffix: str = ".fit", index: int = -1):
        """(prediction, call site) of the `index`-th call ending in *api_suffix*."""
        from greenlint.predict.site_predictions import with_work

        site = self.sites(code, api_suffix)[index]
        return self.predictor.predict(site.api, with_work(site.features, site.work)), site

    def joules(self, code: str, api_suffix: str = ".fit", index: int = -1) -> float:
        pred, _ = self.predict(code, api_suffix, index)
        if pred.energy_j is None:
            raise ValueError(f"no figure for {api_suffix} in a crafted program: {pred.evidence.note}")
        return pred.energy_j

    def program_joules(self, code: str, api_suffix: str) -> float:
        """Energy of every call ending in *api_suffix*, each × its runs (loops, calls of its function)."""
        from greenlint.predict.site_predictions import with_work

        total = 0.0
        for site in self.sites(code, api_suffix):
            pred = self.predictor.predict(site.api, with_work(site.features, site.work))
            total += (pred.energy_j or 0.0) * (site.runs.count or 1)
        return total

    def flops(self, code: str) -> float:
        _, site = self.predict(code)
        return float(site.work["flops_per_sample"].value)


def _ratio(phys: Physics, name: str, small: str, large: str, low=8.0, high=12.0) -> Goal:
    return Goal(name, phys.joules(large) / phys.joules(small), low, high, "×")


def goals(predictor=None) -> list[Goal]:
    """Every physics goal with its figure (deterministic: the shipped model and fixed programs)."""
    p = Physics(predictor)
    out = [
        _ratio(p, "samples ×10 (60,000 → 600,000, past start-up)", _fit_program(), _fit_program(samples=600_000)),
        _ratio(p, "epochs ×10 (10 → 100)", _fit_program(), _fit_program(epochs=100)),
        _ratio(p, "steps_per_epoch ×10 (200 → 2,000)", _fit_program(steps=200), _fit_program(steps=2000)),
    ]
    per_epoch = [p.joules(_fit_program(batch=b)) for b in (8, 32, 128, 512)]
    out.append(Goal("batch 8 → 32 → 128 → 512: largest step up in energy per epoch",
                    max(b / a for a, b in zip(per_epoch, per_epoch[1:])), 0.0, 1.0, "×"))
    b = COMPUTE_BOUND_BATCH
    for name, small, large in (
        ("filters ×4 (32 → 128)", _fit_program(image=64, batch=b), _fit_program(image=64, filters=128, batch=b)),
        ("depth ×4 (1 → 4 conv layers)", _fit_program(image=64, batch=b), _fit_program(image=64, depth=4, batch=b)),
        ("image size ×4 per side (32 → 128 px)", _fit_program(batch=b), _fit_program(image=128, batch=b)),
        ("width ×16 (Dense 64 → 1,024)", _fit_program(batch=b), _fit_program(width=1024, batch=b)),
    ):
        k = p.flops(large) / p.flops(small)
        out.append(Goal(f"{name}, batch {b:,}: energy ratio / FLOPs ratio^0.5 (FLOPs ×{k:.3g})",
                        p.joules(large) / p.joules(small) / math.sqrt(k), 1.0, math.inf, "×"))
    split = p.joules(_fit_program(split=0.2)) / p.joules(_fit_program())
    out.append(Goal("validation_split 0.2: energy / without (0.8 trained + 0.2 validated at a third)",
                    split, 0.8, 0.95, "×"))
    out.extend(_op_goals(p))
    out.extend(_work_follow_goals(p))
    out.extend(_repetition_goals(p))
    out.extend(_early_stopping_goals(p))
    out.extend(_path_goals(p))
    out.extend(_interval_goals(p))
    return out


def _op(p: Physics, expr: str, suffix: str) -> float:
    return p.joules(f"a = {expr}\n", suffix)


#: A 16384² fp32 matmul on an RTX 3090 (35.6 TFLOPS peak, 350 W board power, NVIDIA's
#: specifications): 2 × 16384³ FLOPs at peak and full power, the least such a device spends.
MATMUL_16K_REFERENCE_J = 2 * 16384**3 / 35.6e12 * 350


def _op_goals(p: Physics) -> list[Goal]:
    mm = [_op(p, f"tf.matmul(tf.ones(({n}, {n})), tf.ones(({n}, {n})))", "matmul") for n in (10, 512, 16384)]
    red = [_op(p, f"tf.reduce_sum(tf.ones(({n}, {n})))", "reduce_sum") for n in (10, 16384)]
    conv = [_op(p, f"tf.nn.conv2d(tf.ones((8, {n}, {n}, 16)), tf.ones((3, 3, 16, 16)), 1, 'SAME')", "conv2d")
            for n in (8, 1024)]
    return [
        Goal("matmul 512² / 10²", mm[1] / mm[0], 1.0 + 1e-9, math.inf, "×"),
        Goal("matmul 16384² / a real device's least (RTX 3090 at peak, "
             f"{MATMUL_16K_REFERENCE_J:.3g} J)", mm[2] / MATMUL_16K_REFERENCE_J, 1 / 3, 3.0, "×"),
        Goal("reduce_sum 16384² / 10²", red[1] / red[0], 1.0 + 1e-9, math.inf, "×"),
        Goal("conv2d 8×1024² / 8×8² inputs", conv[1] / conv[0], 1.0 + 1e-9, math.inf, "×"),
    ]


def _cnn(functional: bool) -> str:
    layers = ("keras.layers.Conv2D(8, 3, activation='relu')", "keras.layers.MaxPooling2D()",
              "keras.layers.Flatten()", "keras.layers.Dropout(0.2)", "keras.layers.Dense(10)")
    if functional:
        body = "inputs = keras.Input(shape=(28, 28, 1))\nh = inputs\n" + "".join(f"h = {layer}(h)\n" for layer in layers)
        body += "model = keras.Model(inputs, h)\n"
    else:
        body = "model = keras.Sequential([keras.Input(shape=(28, 28, 1)), " + ", ".join(layers) + "])\n"
    return ("x = np.random.rand(20000, 28, 28, 1)\ny = np.random.rand(20000, 10)\n" + body
            + "model.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, epochs=5, batch_size=32)\n")


def _work_follow_goals(p: Physics) -> list[Goal]:
    """Issue 27: figures follow the work (ops by FLOPs, one-batch calls by the model's FLOPs) and a
    functional model's symbolic layer calls cost nothing at their lines."""
    mm = [_op(p, f"tf.matmul(tf.ones(({n}, {n})), tf.ones(({n}, {n})))", "matmul") for n in (16, 4096)]
    relu = _op(p, "tf.nn.relu(tf.ones((16, 16)))", "relu")
    unseen = "tensorflow.keras.layers.EinsumDense.__call__"
    flops = [p.predictor.predict(unseen, {"flops": f}).energy_j for f in (3e10, 3e12)]
    cnn = p.program_joules(_cnn(True), "") / p.program_joules(_cnn(False), "")
    step = "x = np.random.rand(4096, 64)\nmodel = keras.Sequential([keras.Input(shape=(64,)), keras.layers.Dense({w})])\n" \
           "model.compile(optimizer='adam', loss='mse')\nmodel.train_on_batch(x, x[:, :1])\n"
    tob = p.joules(step.format(w=65536), "train_on_batch") / p.joules(step.format(w=16), "train_on_batch")
    return [
        Goal("matmul 4096² / 16² (FLOPs ×1.7·10⁷)", mm[1] / mm[0], 10.0, math.inf, "×"),
        Goal("relu on 16×16", relu, 0.0, 0.1, "J"),
        Goal("an unseen layer's call, FLOPs ×100 (3·10¹⁰ → 3·10¹²)", flops[1] / flops[0], 10.0, math.inf, "×"),
        Goal("train_on_batch of 4,096, Dense 16 → 65,536 wide (compute-bound: 10^11 FLOPs)", tob, 10.0, math.inf, "×"),
        Goal("a small CNN written functionally / its Sequential twin (whole program)", cnn, 1 / 1.2, 1.2, "×"),
    ]


def _repetition_goals(p: Physics) -> list[Goal]:
    op = "tf.matmul(tf.ones((512, 512)), tf.ones((512, 512)))"
    once = p.program_joules(f"b = {op}\n", "matmul")
    loop = p.program_joules(f"for i in range(10):\n    b = {op}\n", "matmul")
    ds = p.program_joules("ds = tf.data.Dataset.range(1000).batch(100)\nfor x in ds:\n"
                          f"    b = {op}\n", "matmul")
    calls = p.program_joules(f"def f():\n    return {op}\n\nf()\nf()\nf()\n", "matmul")
    return [
        Goal("a loop of 10: program energy / one call", loop / once, 10 - 1e-6, 10 + 1e-6, "×"),
        Goal("for x in a dataset of 1,000 in batches of 100: program energy / one call", ds / once,
             10 - 1e-6, 10 + 1e-6, "×"),
        Goal("a function called 3 times: program energy / one call", calls / once, 3 - 1e-6, 3 + 1e-6, "×"),
    ]


def _early_stopping_goals(p: Physics) -> list[Goal]:
    stopped, site = p.predict(_fit_program(epochs=100, callbacks="cb = keras.callbacks.EarlyStopping(patience=3)\n")
                              .replace("batch_size=32", "batch_size=32, callbacks=[cb]"))
    least, _ = p.predict(_fit_program(epochs=4))
    most, _ = p.predict(_fit_program(epochs=100))
    return [
        Goal("EarlyStopping(patience=3), epochs=100: interval low / low of exactly 4 epochs",
             stopped.interval_j[0] / least.interval_j[0], 1 - 1e-6, math.inf, "×"),
        Goal("EarlyStopping(patience=3), epochs=100: interval high / high of all 100 epochs",
             stopped.interval_j[1] / most.interval_j[1], 1 - 1e-6, 1 + 1e-6, "×"),
    ]


#: The most a named network of small and depthwise layers may cost per FLOP over a hand-built CNN of
#: a few dense layers: an order of magnitude (GAISSA's recorded runs, docs/accuracy.md: MobileNetV2 costs
#: 5-6.5x ResNet50's joules per FLOP on one GPU, a device's roofline 5x VGG16's: tests/predict/test_devices.py).
PER_FLOP_SPREAD = 10.0


def _path_goals(p: Physics) -> list[Goal]:
    """A Keras Application and a hand-built CNN, same data: the application, priced by its layers'
    roofline (its depthwise and small layers move bytes and fill the GPU, `devices.REFERENCE_DEVICE`),
    never cheaper per FLOP than the CNN's fitted time, and within PER_FLOP_SPREAD of it."""
    app = """
x = np.random.rand(20000, 96, 96, 3)
y = np.random.rand(20000, 10)
model = keras.applications.MobileNetV2(input_shape=(96, 96, 3), weights=None, classes=10)
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=5, batch_size=32)
"""
    hand = _fit_program(samples=20_000, epochs=5, image=96, filters=48)
    ratio = (p.joules(app) / p.flops(app)) / (p.joules(hand) / p.flops(hand))
    return [Goal("MobileNetV2 (keras.applications, its layers' roofline) vs a hand-built CNN: energy per FLOP ratio",
                 ratio, 1.0, PER_FLOP_SPREAD, "×")]


def _interval_goals(p: Physics) -> list[Goal]:
    def width(code):
        pred, _ = p.predict(code)
        return pred.interval_j[1] / pred.interval_j[0]

    inside = width(_fit_program(samples=6_000, epochs=5))
    beyond = width(_fit_program(samples=600_000, epochs=100))
    return [Goal("interval width far beyond the fitted range / within it", beyond / inside, 1 + 1e-6, math.inf, "×")]


@dataclass(frozen=True)
class RunCheck:
    """The work model's figure for GAISSA's recorded runs of one architecture on one GPU."""

    architecture: str
    gpu: str
    runs: int
    ratio: float  # median over the runs of predicted / recorded joules
    recorded_s: float  # median recorded duration
    predicted_s: float  # median duration the reference GPU's roofline gives


def gaissa_check(predictor=None) -> list[RunCheck]:
    """The shipped predictor (the reference machine's net CPU + GPU + DRAM joules) against GAISSA's
    recorded training runs (data/training/runs.csv: gross GPU + DRAM joules on an RTX 3090 or 3070),
    each run given as the `fit` calls of del Rey's code with the architecture named
    (`training_data.fit_phases`: at 128x128, its frozen epochs, then the rest on the whole network;
    what a `fit` of the application model itself carries; a model wrapping it as its base carries the
    same layer table plus its head's layers, which the data do not state), priced on the reference GPU by its layers' roofline (predict/devices.py
    `REFERENCE_DEVICE`). The definitions differ by the idle draw (in GAISSA's, not in ours) and the
    CPU (in ours, not in GAISSA's); the machines differ: the ratio measures both, nothing is fitted."""
    import statistics
    from collections import defaultdict

    from greenlint.paths import DATA_DIR
    from greenlint.predict.devices import REFERENCE_DEVICE
    from tools.model.device_eval import FIT, run_seconds
    from tools.model.training_data import fit_phases, read_runs_csv

    phys = Physics(predictor)
    by: dict[tuple[str, str], list[tuple[float, float, float]]] = defaultdict(list)
    for run in read_runs_csv(DATA_DIR / "training" / "runs.csv"):
        calls = fit_phases(run)
        joules = sum(phys.predictor.predict(FIT, f).energy_j for f in calls)
        seconds = sum(run_seconds(phys.predictor, REFERENCE_DEVICE, f) for f in calls)
        by[(run.architecture, run.gpu_name)].append((joules / run.energy_j, run.duration_s, seconds))
    return [RunCheck(arch, gpu, len(v), statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
                     statistics.median(x[2] for x in v)) for (arch, gpu), v in sorted(by.items())]
