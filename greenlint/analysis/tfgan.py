"""TF-GAN's training entry points (`tensorflow_gan`, imported as `tfgan`): a small table of its API,
never imported.

`tfgan.gan_model(generator_fn, discriminator_fn, real_data, generator_inputs)` calls the generator
function on its inputs and the discriminator function on the real data and on the generated data
(tensorflow_gan/python/train.py); `cyclegan_model(generator_fn, discriminator_fn, data_x, data_y)`
builds two such models, X to Y and Y to X, each generator also run on the other's output (the cycle).
`gan_loss`/`cyclegan_loss` and `gan_train_ops` carry that model on. `gan_train(train_ops, logdir,
hooks=[...])` runs a monitored session's steps of those train ops until a hook stops it: listed
there as what it runs, a TF1 `Session.run` of a training step of the GAN's graph (the generator's and
discriminator's forward passes on the batch, their backward passes on top: work_energy.py), run
`num_steps` (or `last_step`) times where a `StopAtStepHook` states it literally, an unknown number
of times otherwise (the figure then one step's: a floor). The step's FLOPs are those of the graph
built from the data the model was given where it is symbolic (a placeholder's), else unknown; a
step runs the generator's update and the discriminator's, each recomputing the forward passes it
needs, so one pass of the graph per step is a lower bound. A project that is itself TF-GAN keeps
its own modules (the resolver asks for them first).
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.arrays import is_sym
from greenlint.analysis.callsite import Quantity, Work
from greenlint.analysis.runs import Local
from greenlint.analysis.slim_training import hook_steps
from greenlint.analysis.values import Inst
from greenlint.analysis.work import INFERRED, q
from greenlint.analysis.work import UNKNOWN as UNKNOWN_SIZE

ROOT = "tensorflow_gan"
MODEL = "tensorflow_gan.GANModel"
#: What a loss or the train ops hold: the model they train (meta "model").
TRAINING = "tensorflow_gan.GANTrainOps"
#: Model builders -> their parameters after the two functions, in order, and which of them is the
#: generator's input and which the real data (tensorflow_gan/python/train.py).
MODELS = {
    "gan_model": (("real_data", "generator_inputs"), "generator_inputs", "real_data"),
    "cyclegan_model": (("data_x", "data_y"), "data_x", "data_y"),
}
#: Functions whose first argument (`model`) is carried on to what they return.
CARRIERS = frozenset({"gan_loss", "cyclegan_loss", "gan_train_ops"})
TRAIN = "gan_train"
#: `gan_train`'s parameters a call may pass by position, in order.
TRAIN_PARAMETERS = ("train_ops", "logdir", "get_hooks_fn", "master", "is_chief", "scaffold", "hooks")
#: What the training is listed as at `gan_train`.
STEP = "tensorflow.compat.v1.Session.run"
VIA = "TF-GAN's gan_train"


def is_path(path: str) -> bool:
    """`tensorflow_gan.gan_train`, `tensorflow_gan.cyclegan_model`: a name of this table."""
    parts = path.split(".")
    return parts[0] == ROOT and len(parts) == 2 and (parts[1] in MODELS or parts[1] in CARRIERS or parts[1] == TRAIN)


def _named(params: tuple[str, ...], args: list, keywords: list) -> dict[str, Any]:
    positional = [value for starred, value in args if not starred]
    named = dict(zip(params, positional))
    named.update((name, value) for name, value in keywords if name)
    return named


def model_inputs(path: str, args: list, keywords: list) -> tuple[Any, Any, Any, Any] | None:
    """The generator and discriminator functions a model builder *path* is given, and its two data
    (generator input, real data): None for any other name of the table."""
    name = path.rpartition(".")[2]
    if name not in MODELS:
        return None
    params, source, real = MODELS[name]
    named = _named(("generator_fn", "discriminator_fn", *params), args, keywords)
    return named.get("generator_fn"), named.get("discriminator_fn"), named.get(source), named.get(real)


def cyclic(path: str) -> bool:
    """The builder makes a CycleGAN: two generators and two discriminators from the functions given."""
    return path.rpartition(".")[2] == "cyclegan_model"


def model(outputs: list, name: str) -> Inst:
    """The GAN model a builder returns: the symbolic tensors its functions' calls gave (the graph's
    outputs), and whether some call gave none (its FLOPs then not among the graph's)."""
    syms = tuple(v for v in outputs if is_sym(v))
    return Inst(MODEL, "factory", {"outputs": syms, "builder": name, "partial": len(syms) < len(outputs)})


def carried(path: str, args: list, keywords: list) -> Inst | None:
    """What a loss or `gan_train_ops` returns: the model it was given, carried on; None otherwise."""
    if path.rpartition(".")[2] not in CARRIERS:
        return None
    given = _named(("model",), args, keywords).get("model")
    return Inst(TRAINING, "factory", {"model": given}) if type(given) is Inst and given.cls in (MODEL, TRAINING) else None


def trained(args: list, keywords: list) -> Inst | None:
    """The GAN model `gan_train(train_ops, ...)` trains, where its train ops came from this table."""
    ops = _named(TRAIN_PARAMETERS, args, keywords).get("train_ops")
    while type(ops) is Inst and ops.cls == TRAINING:
        ops = ops.meta["model"]
    return ops if type(ops) is Inst and ops.cls == MODEL else None


def steps(args: list, keywords: list) -> tuple[Local, str]:
    """How many training steps `gan_train` runs, and why (slim_training.hook_steps of its `hooks`)."""
    return hook_steps(_named(TRAIN_PARAMETERS, args, keywords).get("hooks"))


def note(builder: str, why: str) -> str:
    """The basis note of the training step listed at `gan_train`."""
    return f"{VIA} runs training steps of the {builder}'s generator and discriminator, {why}"


def step_work(flops: Quantity, partial: bool, why: str) -> Work:
    """The work of one step `gan_train` runs: a training step of the GAN's graph (*flops*: its forward
    FLOPs per sample, graphrun.forward; *partial*: some of its passes not followed), a lower bound
    (the generator's update and the discriminator's each recompute the passes they need), on a batch
    the input tensors set (not known here)."""
    if flops.value is not None:
        missing = "; some passes of the generator or the discriminator are not among them (their data is not a " \
            "symbolic tensor of known shape)" if partial else ""
        flops = flops._replace(bound="lower", note=f"{flops.note}, once per step: the generator's and the "
                        "discriminator's updates each run the passes they need" + missing)
    return {
        "step": q("training", INFERRED, "one training step of the GAN's graph per step gan_train runs"),
        "samples": q(None, UNKNOWN_SIZE, "the batch is the one the model's input tensors give, not known here"),
        "flops_per_sample": flops if flops.value is not None else q(
            None, UNKNOWN_SIZE, "the data the GAN model was given is not a symbolic tensor of known shape (a placeholder's)"),
        "driver": q(True, INFERRED, why),
    }
