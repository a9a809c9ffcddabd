"""GL602 training-without-mixed-precision: a training (Keras, a custom step, a TF1 graph's update) in float32 where mixed precision exists."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.callsite import estimator_method
from greenlint.catalog.names import TF1_PREFIX
from greenlint.predict.devices import gpu_spec
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid
from greenlint.rules.base_classes import with_derived
from greenlint.rules.beside import CHOSEN, GRAPH_CHOSEN, KERAS_2_ONLY, PRECISION_CHOSEN, beside_mentions
from greenlint.rules.defaults import other_mode
from greenlint.rules.deliberate import in_test_code, test_module
from greenlint.rules.devices import hides_gpus, placed_on_host
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.fit_workers import fed_in_one_worker, worker_setting
from greenlint.rules.given_model import given_model
from greenlint.rules.hidden_decoding import HEAVY_MODEL_ONE_WORKER, HIDING_FLOPS, flops_per_element
from greenlint.rules.keras_flavour import keras_flavour
from greenlint.rules.large_step import (
    architecture,
    built_backbone,
    factory_architecture,
    has_method,
    imported_definitions,
    large_step,
    small_step,
)
from greenlint.rules.material import SAVING_OPTION, immaterial_saving, saving_clause, share_of, work_j
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import cell_units, enclosing, is_training_step, last_name
from greenlint.rules.tf_data_defaults import OPTION as TF_VERSION
from greenlint.rules.tf_target import TargetVersion, cpu_only, target

#: TF1 optimizers and the calls that build their update op: one training step per run of it (TensorFlow
#: 1's graph API: a training there is fixed by the graph rewrite, not a Keras policy).
TF1_TRAIN = TF1_PREFIX + "train."
TF1_UPDATES = frozenset({"minimize", "apply_gradients"})
#: Gradients taken from the graph itself, not through an optimizer: the rewrite's optimizer scales
#: the loss in its `compute_gradients` (and `minimize`) alone, so these go unscaled.
RAW_GRADIENTS = frozenset({"tensorflow.gradients", "tensorflow.compat.v1.gradients"})
#: The same calls as a project module the file imports spells them, and the optimizer's methods
#: that scale the loss.
RAW_GRADIENT_CALLS = frozenset({"tf.gradients", "tf.compat.v1.gradients", "tensorflow.gradients"})
GRADIENTS_SCALED = frozenset({"compute_gradients", "minimize"})
#: Keras' own training steps, which scale a float16 loss by themselves under a mixed policy.
KERAS_STEPS = ("fit", "fit_generator", "train_on_batch")
#: What sets a Keras optimizer's `lr` during a training (a callback, or the program itself).
#: The TensorFlow of multi-backend Keras' last releases, whose graph rewrite serves that Keras, and
#: the option that reports such trainings (the rule's cases, whose fake figures are all material).
TF_1_15 = {"tensorflow-version": "1.15", "multi-backend-rewrite": True, "material-saving-j": 0.0}
LEARNING_RATE_SETTERS = ("ReduceLROnPlateau", "LearningRateScheduler", "optimizer.lr")
#: A file on standalone Keras (an import of `keras` and no mention of tf.keras) sets the policy
#: through `keras.mixed_precision` from TensorFlow `KERAS_MIXED_PRECISION` on (Keras 2.6+ and 3); any
#: other, and Keras 2.4 and 2.5 (on TensorFlow 2.2-2.5: no `keras.mixed_precision`, their layers
#: are tf.keras's), through `tf.keras.mixed_precision`.
KERAS_MIXED_PRECISION = (2, 6)
STANDALONE_KERAS = re.compile(r"^\s*(?:import|from) keras\b", re.MULTILINE)
TF_KERAS_WORDS = ("tf.keras", "tensorflow.keras", "tensorflow import keras")
#: Keras 2 chosen on TensorFlow 2.16 and later, where `tf.keras` is Keras 3: its own package imported
#: (`import tf_keras`, whose layers follow its own policy) or `TF_USE_LEGACY_KERAS` set (`tf.keras` is then tf_keras).
TF_KERAS_PACKAGE = re.compile(r"^[ \t]*(?:import[ \t][^\n#]*\btf_keras\b|from[ \t]+tf_keras\b)", re.MULTILINE)
LEGACY_KERAS = re.compile(r"\bTF_USE_LEGACY_KERAS\b")
#: A Keras optimizer's gradient clipping, which no `LossScaleOptimizer` before TensorFlow 2.4 wraps.
CLIPPING = frozenset({"clipnorm", "clipvalue"})
#: What the policy's advice adds where the file clips through a Keras optimizer and its project states no
#: TensorFlow, or a lower bound alone: the advice holds from 2.4, whose `LossScaleOptimizer` applies that clipping.
CLIPPING_NEEDS = (
    ", on TensorFlow 2.4 or later: the `LossScaleOptimizer` of 2.3 and older rejects an optimizer given"
    " `clipnorm` or `clipvalue`"
)
#: What a file that can train on a TPU builds.
TPU_WORDS = ("TPUStrategy", "TPUClusterResolver")
#: The share of a training's energy mixed precision can save: none where the step waits on
#: something else; at most two thirds, the time of the guide's "up to three times" speed-up on
#: GPUs with tensor cores, at the same steady power.
SPEED_UP_SHARE = (0.0, 2 / 3)


class TrainingWithoutMixedPrecision(Rule):
    """
    ## What it does
    Flags a training in a file that never chooses its floating-point precision: it mentions no
    mixed-precision policy (`mixed_float16`, `mixed_bfloat16`), no `mixed_precision` API or helper (a project's
    `set_mixed_precision_policy(dtype)`, TensorFlow 1's `enable_mixed_precision_graph_rewrite`)
    and no `set_floatx`, where the program shows that its training step is large enough for
    faster arithmetic to matter. A step is compute-bound on its matrix multiplications and
    convolutions when its forward and backward FLOPs (3 x the model's FLOPs per sample x the
    batch; fewer where layers are frozen: no backward pass below the lowest layer that trains) reach 10^9, the work at which one GPU kernel reaches half its peak (greenlint's cost
    model, greenlint/predict/work_energy.py); below it, the step's time is kernel launches and
    Python, and float16 saves nothing. A training is any call that runs training steps: Keras'
    `fit()`, `fit_generator()` and `train_on_batch()`; a custom step run eagerly (a model's call
    under a `GradientTape`, `optimizer.apply_gradients`); the call of a `tf.function` whose traced
    body trains a model (reported there, where the steps run, not inside the traced body); a
    TensorFlow 1 `Session.run` that fetches an optimizer's update (or TF-GAN's `gan_train`, which
    runs such steps); and an Estimator's `train()`, which runs its `model_fn`'s training steps. The
    evidence, stated in the
    message (greenlint/rules/large_step.py):

    - the model's FLOPs, read from its layers, or the known part of them (a lower bound: a
      convolution on images of known size beside a layer greenlint does not know), give a step
      of at least 10^9 FLOPs (the batch taken as 1 where it is unknown);
    - it trains a named model: a Keras Application (`tf.keras.applications.ResNet50`), a
      keras-hub or keras-cv model (`ImageClassifier.from_preset(...)`);
    - where the model's FLOPs are unknown, the file builds a Keras Application (a pretrained
      backbone inside a `Sequential`, say) or calls a project factory function named after a
      large public architecture (`build_transformer_model` for BERT, `efficientdet(phi)`,
      `resnet50()`, `unet()`, `yolo_body()`, an image-to-image or super-resolution network such as
      `edsr(scale)`, whose convolutions run at every pixel, or a function the code defines with a CamelCase name,
      as Keras Applications and much research code name their factories: `def YoloV3(size)`,
      `def ResNet50()`, or a Keras model class so named (`class ResnetV2(tf.keras.Model)`, BiT's:
      the whole network), or a class of any base whose name ends in `Model` or `Network` after the
      architecture's, and at most its backbone's (`class DeepLabResNetModel(Network)`, a TF1 graph
      builder's: the whole network too), but not another class named so, which may be a layer of any
      size (`ResNetBlock`, `class ResNet50(Layer)`); not a model
      an object holds called as `self.vgg(x)`), or calls a
      class or function of a project module it imports whose own code does either, or is such a
      CamelCase function or model class (`model_lib.Model(n)`, whose constructor calls `resnet.resnet(depth=50)`;
      `from models import YoloV3`; `models.ResnetV2(...)`; read through a package's `__init__` that
      imports it from a module of its own), or builds it from
      a registry of model constructors that a project module it imports fills
      (`model_from_name[name](n_classes)`, `model_from_name["vgg_unet"] = unet.vgg_unet`), or through
      a function of it that returns the entry (`get_network(FLAGS.model_name)` returning
      `networks_obj[name]`), where
      more than half of the registry's models are such architectures (by a word of their name,
      `resnet50_pspnet`, or of the key a constructor is filed under, `"ssd_300_vgg": SSDNet`, or their
      definition): their steps are 10^9 FLOPs and more at their usual input sizes.
      The finding is then on the first training at or after that call, or where the runs of each
      are counted the one run most (a TF1 loop's every-step run, not the one under
      `if step % 1000 == 0` that also writes summaries) (in a notebook, only a
      later one: its cells run in order; in a script, the first where none follows, as a fit in
      a function defined above the call trains what it builds);
    - a training in a method of a class of the file (a trainer: `Trainer.train` running its
      `train_step` on `self.model`, the model its constructor is given) where a script or notebook
      beside the file that imports it calls the class, or a subclass the file defines, with such a
      factory's call or a name it bound to one (`EdsrTrainer(model=edsr(scale=4))`:
      greenlint/rules/given_model.py; a driver that itself chooses the precision, or a test module, is
      passed over).
      Each such trainer class is reported at its first training, beside the file's own finding
      in another class: its step scales its own loss, a change of its own.

    A training or a build in a mode the program offers beside its default (one branch of an
    `if`/`else` on a command-line option whose default takes the other: `if FLAGS.mode ==
    "eager_tf": <custom loop> else: <fit>`, `if FLAGS.tiny: YoloV3Tiny() else: YoloV3()`) is
    neither reported nor evidence: the program runs the other unless told to, and the advice is
    the default run's (a custom step's loss scaling is not a `fit`'s).

    A `Session.run` of a TF1 graph's update with such evidence is reported with the advice of
    TensorFlow's graph rewrite (`tf.compat.v1.train.experimental.enable_mixed_precision_graph_rewrite`,
    TF 1.14 and later: one name for TF1 and TF2 programs, kept in 2.x beside 2.4's
    `tf.compat.v1.mixed_precision` one, as the 1.15, 2.4 and 2.21 sources show; it wraps the
    optimizer and adds loss scaling), at the first TF1 optimizer that the function (or script, or
    notebook cell) running it constructs before the run, the optimizer to wrap, else the first one the
    class whose method runs it constructs (`build_model` beside `train`; at the run where neither does:
    the optimizer is built elsewhere). The wrapped optimizer scales the loss in its
    `compute_gradients` (and so `minimize`) alone: where the file's updates apply gradients it
    takes with `tf.gradients` (it calls `apply_gradients` and neither `compute_gradients` nor
    `minimize`), the advice says to take them through the optimizer, or they go unscaled. Where
    a file's only training steps are such runs
    with no evidence of their own, or none, the optimizer's update it builds is flagged
    (`optimizer.minimize(loss)`, `apply_gradients`: built to be run once per training step, by
    whichever module runs the session) when the class or function that builds it is the model
    itself, named after a large public architecture (a `class Transformer:` whose `train` method
    calls `minimize`, a `class CycleGAN:` or `class UGATIT:` building its generators' updates, `def build_resnet50(...)`: the same names as the project factories above),
    with the same advice.

    A training other than `fit()` (a custom step, `train_on_batch`, a TF1 graph's update or its
    `Session.run`) is not reported when the file or a Python module beside it (its directory,
    where a TF1 project's trainer builds the session, and where the script that drives a
    trainer class's step sets the policy before building it) chooses the precision: the words
    above, the session config's `auto_mixed_precision`, or float16/bfloat16 written into the
    program (a graph built in float16, an optimizer given `use_float16=dtype == tf.float16` from
    a flag).

    Not reported either: a `fit()` that waits for one host thread reading or warping its batches
    (a `Sequence` such as `ImageDataGenerator.flow_from_directory` in one worker, a generator
    decoding files: GL407 and GL409 price that wait) whose model is known to do less than 5.5e5
    forward FLOPs per element of its input (GL409's `HIDING_FLOPS`, under which a step at the
    device's peak is shorter than one core's decode of its batch: a small CNN on JPEGs), whose step
    may be input-bound. A model whose FLOPs per element are unknown (a named architecture, a model
    the command line chooses) or known only in part (a lower bound) is not taken as input-bound: its float32 step runs far below the
    peak (NVIDIA's EfficientNet-B4 recipe below: 13 % of a V100's), so nothing shows that the host's
    work outlasts it, and a GPU that waits still spends the busy part of its draw on the step's
    arithmetic, which mixed precision shortens; and where the
    FLOPs rest on Keras' default batch of 32 taken for an input of unknown kind (a dataset
    batches itself, `.batch(flags.batch_size)`), the batch is unknown and taken as 1.

    A model greenlint cannot size is no evidence: a few Dense or RNN layers on data of unknown
    width or length (a regression on a CSV file, a small RNN) is not reported, and neither is a
    class named after an architecture (`TransformerBlock(32, 2)`: a layer of any size), nor a
    TensorFlow Hub layer of any name (`hub.KerasLayer(".../resnet_v1_50/feature_vector/5")`): the
    SavedModel keeps the float32 computation it was exported with, and a mixed policy reaches only
    the layers around it, or fails on the float16 inputs its signatures reject (tensorflow/hub
    issues 466, 748 and 854); nor, for that reason, a factory or Keras model class named after an
    architecture whose definition loads its network from TensorFlow Hub (`hub.KerasLayer(handle)`,
    `hub.load(handle)` in `def build_bert_model(handle)`, in the file or a project module it imports).
    One finding per file (and per trainer class given a large model), on its first training with
    such evidence, except where the advice
    cannot be followed or changes what the code is for:

    - the program runs on **multi-backend Keras 2.0-2.3** (the standalone `keras` package of
      2017-2019, recognised from its imports and from `fit_generator`-style calls, Keras 1's
      `nb_epoch=` given to `fit` (tf.keras rejects it from TensorFlow 2.2) or a TensorFlow 1.x pin, or from an import of `keras_contrib`, which extends that Keras alone:
      see greenlint/rules/keras_flavour.py) and its training cannot take the one switch that
      Keras has. That Keras has no dtype policy, and `enable_mixed_precision_graph_rewrite(opt)`
      raises for its own optimizers; but `compile` wraps a TensorFlow 1 optimizer it is given
      (a `tf.train.Optimizer`) in its `TFOptimizer`, whose update is that optimizer's
      `compute_gradients` and `apply_gradients`, and the graph rewrite returns such an
      optimizer, with loss scaling, and turns on the float16 rewrite of every session created
      after it (TensorFlow 1.14 and 1.15, the Session's own config code): Keras' session is one.
      With the option `multi-backend-rewrite = true`, a training on this Keras is reported with
      that advice (on its TensorFlow backend:
      `compile(optimizer=tf.train.experimental.enable_mixed_precision_graph_rewrite(
      tf.train.AdamOptimizer(lr)))`, before the session is made), except where the wrapped
      optimizer breaks what the file does: a `TFOptimizer` has no `lr`, which
      `ReduceLROnPlateau`, `LearningRateScheduler` and a `K.set_value(optimizer.lr, ...)` set,
      nor the Keras optimizer's gradient clipping (`clipnorm=`, `clipvalue=`), which a `tf.train`
      optimizer does not take;
      and except where the project pins TensorFlow 2 (there this Keras wraps tf.keras
      optimizers alone, and the rewrite is for `tf.function`s) or one older than 1.14. It is off
      by default: the benchmark's judges labelled three of these trainings false when the rule
      knew no such route (unet's and keras-yolo2's), and the advice asks for TensorFlow 1.14 or
      later where such projects often document an older one. The Grappler pass turned on alone,
      through a session config's `auto_mixed_precision` given to `K.set_session`, computes the
      gradients without loss scaling, which TensorFlow warns may not converge;
      `TF_ENABLE_AUTO_MIXED_PRECISION=1` is the switch of NVIDIA's NGC containers, not of the
      TensorFlow wheels. tf.keras (TensorFlow 2.1 and later: `tf.keras.mixed_precision`,
      experimental until 2.4), standalone Keras 2.4 and later (tf.keras under another name) and
      Keras 3 (`keras.mixed_precision`) have the policy.
      With the option `multi-backend-port = true`, a training on multi-backend Keras that the
      rewrite does not serve (or whose option is off) is reported all the same, with the advice its Keras allows: port the
      program to tf.keras (TensorFlow 2.4 or later, where the `mixed_float16` policy is stable)
      and set the policy there. That is a migration, not a switch (the optimizers,
      `fit_generator` and keras-contrib's layers change with it), so it is off by default;
    - the project pins a TensorFlow older than 1.14, which has neither the policy nor the rewrite
      (greenlint/rules/tf_target.py reads the pin; a project that pins none is taken to run the
      TensorFlow installed where greenlint runs, else the newest: its Keras is then told by the
      APIs it calls, as above);
    - the project installs TensorFlow's CPU-only wheel (its pin files name `tensorflow-cpu` and
      no other TensorFlow distribution): it trains on the host, where float16 is emulated and
      slower;
    - the file hides every GPU (`os.environ["CUDA_VISIBLE_DEVICES"] = ""` or `"-1"`, or
      `tf.config.set_visible_devices([], "GPU")`, at top level), or the training call runs inside
      a `with tf.device("/cpu:0"):` block: it trains on the host, where float16 is emulated and
      slower;
    - the fit is test code (a `test*` function or a test class's method, or any fit in a
      `test_*.py` / `*_test.py` file): a test of a layer or an optimizer checks float32 numbers,
      and its policy is what it tests;
    - the fit forwards `**kwargs` (a library's wrapper around its caller's model: the policy
      must be set before that model is built, by the caller);
    - the model's training step is known to be below 10^9 FLOPs (a one-neuron regression, an
      MNIST MLP), even in a file that builds a large model elsewhere;
    - the program targets a TensorFlow older than 2.4 and gives a Keras optimizer gradient
      clipping (`Adam(clipnorm=0.001)`, `clipvalue=`): the `LossScaleOptimizer` that a mixed
      policy's `compile`, a custom step's loss scaling and the graph rewrite of a Keras optimizer
      wrap it in raises "does not support wrapping optimizers with a clipnorm" there (the
      TensorFlow 1.15 to 2.3 sources); the change then means dropping the clipping or upgrading
      TensorFlow, not a switch. From 2.4 (and Keras 2.6-2.11 and Keras 3) the wrapper applies the
      inner optimizer's clipping to the unscaled gradients, and the finding stands; where the project
      states no TensorFlow (no pin, or a lower bound alone, as `>=2.3`, or a check of the version at
      run time), the advice says it holds on TensorFlow 2.4 or later;
    - the user stated a GPU without tensor cores (`--device`, `device = "…"` in the
      configuration: a GTX 1080 Ti, compute capability 6.1): float16 arithmetic there runs at
      FP32's rate or slower, and TensorFlow itself warns that mixed precision "may run slowly".

    Where the figures of the file's trainings are known (greenlint/rules/material.py: their point
    figures, the predictor's medians, times their counted runs), the file is reported only where two thirds
    of them, the most mixed precision saves, reach `material-saving-j` (10 kJ), and the message
    says that saving; a training of unknown size (data read from files: its figure a floor) is
    reported without one.

    The message names the switch the program's Keras has (greenlint/rules/tf_target.py reads the
    TensorFlow it runs on): `tf.keras.mixed_precision.set_global_policy("mixed_float16")` (or
    `keras.` for standalone Keras 2.6+ and 3, on TensorFlow 2.6 and later; Keras 2.4 and 2.5 have
    no `keras.mixed_precision`, and their layers, tf.keras's, follow the tf.keras policy) before
    the model is built; the policy's `experimental.set_policy` on TensorFlow 2.1-2.3; on 1.14-2.0,
    which have no Keras policy, the graph rewrite around the optimizer
    (`tf.train.experimental.enable_mixed_precision_graph_rewrite`, loss scaling included). Keras' own steps (`fit`, `fit_generator`, `train_on_batch`) scale the
    loss by themselves: under `mixed_float16`, `compile` wraps the optimizer in a
    `LossScaleOptimizer`, and the default `train_step` scales the loss and unscales the gradients.
    Where the program computes its gradients itself, the switch alone is unsafe, and the message
    says what the change also needs: a custom step (a `GradientTape` loop, a `tf.function` step)
    and a `fit` in a file whose model class overrides `train_step` must scale their loss through
    a `LossScaleOptimizer` (`get_scaled_loss` and `get_unscaled_gradients` on tf.keras 2, before
    TensorFlow 2.16 or where the file, or a module beside it (a project runs one Keras), uses an API
    Keras 3 removed, `tf.keras.losses.Reduction` or `tf.keras.optimizers.legacy`, or where the file
    chooses Keras 2 on a later TensorFlow: it imports `tf_keras` (then told
    `tf_keras.mixed_precision`, the policy its layers follow) or sets `TF_USE_LEGACY_KERAS`;
    `optimizer.scale_loss(loss)` on Keras 3, whose `apply` unscales). An override
    that does not gets float16 gradients that may underflow on tf.keras 2, and on Keras 3
    gradients divided by the loss scale (2^15 at first): updates that many times too small for
    an optimizer that is not scale-invariant (SGD). The override is seen in the file's classes and
    in those it calls from a project module it imports (`from model import Net`, `Net(...)`), where
    the class may be a Keras model: a class with no base but `object` (a trainer object whose
    `train_step` runs its own loop, beside a `fit` of Keras' own step) is none.
    A file that can train on a TPU (a `TPUStrategy`, a `TPUClusterResolver`) is told
    `mixed_bfloat16` there, which needs no loss scale (a `LossScaleOptimizer` raises under
    `TPUStrategy`), and `mixed_float16` on a GPU.

    The claim is for a device: told a GPU with tensor cores (a T4, an A100), the message names
    it and its compute capability; told none, it says the device class it holds for (GPUs with
    tensor cores, TPUs), since the file rarely says where it trains.

    ## Why is this bad?
    On GPUs with tensor cores (compute capability 7.0 and later) and on TPUs, computing in 16-bit
    floats while keeping variables in 32 bits runs matrix multiplications and convolutions much
    faster and halves activation memory; the TensorFlow mixed-precision guide
    (tensorflow.org/guide/mixed_precision) reports speed-ups of up to three times on modern GPUs
    and 60 % on TPUs. Time at a device's steady power is energy: a training that takes half the
    time draws about half the energy. On CPUs and older GPUs it does not help; the finding is
    for code that trains on such accelerators, and says so.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, epochs=10)
    ```

    ## Energy evidence
    Not measured here: this machine has no GPU, and on its CPU float16 is emulated and slower.
    The case is argued from public measurements, at the premise the rule checks:

    - TensorFlow's mixed-precision guide (tensorflow.org/guide/mixed_precision): "more than 3
      times on modern GPUs, 60% on TPUs"; among NVIDIA GPUs, those of compute capability 7.0 and
      later gain most, their tensor cores running float16 matrix multiplications and
      convolutions, older ones gain no arithmetic speed; on CPUs float16 runs slower than
      float32; `Model.fit` applies loss scaling by itself, a custom training loop must do it
      through `LossScaleOptimizer`. TensorFlow 2.0's `enable_mixed_precision_graph_rewrite`
      documents the same for its wrapped optimizer: gradients computed with a `GradientTape`
      instead of its `minimize` get no loss scaling. The guide's GPU tips (layer sizes multiples
      of 8, a batch large enough) are the compute-bound premise: below 10^9 FLOPs a step, kernel
      launches and Python dominate.
    - NVIDIA's TensorFlow 2 EfficientNet v1 recipe (github.com/NVIDIA/DeepLearningExamples,
      TensorFlow2/Classification/ConvNets/efficientnet_v1, tensorflow:21.09-tf2-py3 container):
      training throughput on one GPU, float32 to mixed precision, EfficientNet-B4 79 -> 211
      images/s on a V100 (2.67x) and 165 -> 470 on an A100 against TF32 (2.85x), where TF32
      already runs float32 matrix work on tensor cores; EfficientNet-B0 on one V100 752 -> 868
      (1.15x), which the recipe's known issues explain: B0 "does not improve training speed by
      using AMP ... because of the CPU-bound Auto-augmentation". That is the input-bound case
      the rule leaves out (a fit waiting on one host thread).

    Energy is time at the device's draw, taken as the same in either precision (a compute-bound
    step keeps the GPU busy in both; no public TensorFlow measurement of the two draws was found),
    so the step's energy falls with its time, by at most two thirds at the guide's 3x (the
    `SPEED_UP_SHARE` the message's saving uses: "up to 67%" of the training's figure). Where the
    step waits on the host, the saving is near zero (the interval's low end), and where the model is
    known to be small enough for that wait, the rule says nothing.

    **On by default**, because its premise is checked, not assumed: a step known or named to be
    compute-bound (10^9 FLOPs and more), not input-bound, on a TensorFlow and Keras that have the
    switch, not on the host (a CPU-only wheel, hidden GPUs, a CPU device scope), not on a stated
    GPU without tensor cores, not in tests, not where the precision is already chosen; the
    message gives the loss scaling a step of the program's own needs; and the finding is priced,
    reported only where the most it saves reaches `material-saving-j`. Its blind-judged
    precision on real code is below. What the claim still lacks is a measurement: the rule's own
    cases, float32 against `mixed_float16`, on a GPU with tensor cores and its energy counter.

    ## Fix safety
    No automatic fix: the model's output layer should stay in float32 (its softmax and loss;
    `dtype="float32"` on the last layer, as the guide advises), and a step the program writes
    itself needs the loss scaling above. The help line shown with a finding names the switch of
    its kind of training: the Keras policy call of its version, the graph rewrite around the
    optimizer for a TF1 graph (a `Session.run` of an update, an Estimator's `model_fn`) and for
    tf.keras before 2.1, the rewritten `tf.train` optimizer or the port for multi-backend Keras 2.

    ## Options
    - `multi-backend-port`
    - `multi-backend-rewrite`
    - `tensorflow-version`
    - `material-saving-j`
    """

    code = "GL602"
    name = "training-without-mixed-precision"
    MESSAGE = "training without a mixed-precision policy ({advice}; useful on GPUs with tensor cores and TPUs)"
    MESSAGE_ON = (
        "training without a mixed-precision policy ({advice}; the stated {device} has tensor cores,"
        " compute capability {capability})"
    )
    MESSAGE_GRAPH = (
        "TF1 training op built without the mixed-precision graph rewrite (wrap the optimizer in"
        " `tf.compat.v1.train.experimental.enable_mixed_precision_graph_rewrite`{gradients}, TF >= 1.14; useful"
        " on GPUs with tensor cores)"
    )
    MESSAGE_GRAPH_ON = (
        "TF1 training op built without the mixed-precision graph rewrite (wrap the optimizer in"
        " `tf.compat.v1.train.experimental.enable_mixed_precision_graph_rewrite`{gradients}, TF >= 1.14; the"
        " stated {device} has tensor cores, compute capability {capability})"
    )
    #: What the graph advice adds where the file takes its gradients with `tf.gradients`.
    UNSCALED_GRADIENTS = (
        " and take the gradients with its `compute_gradients`, not `tf.gradients`, which gets no loss scaling"
    )
    MESSAGE_KERAS2 = (
        "training on multi-backend Keras 2 ({keras}) without mixed precision: compile with a `tf.train` optimizer"
        " wrapped by `tf.train.experimental.enable_mixed_precision_graph_rewrite` (TensorFlow 1.14/1.15 backend;"
        " float16 with loss scaling, useful on GPUs with tensor cores)"
    )
    SAVING = "; it saves {saving}"
    MESSAGE_PORT = (
        "training on multi-backend Keras 2 ({keras}), which has no mixed precision: ported to tf.keras"
        " (TensorFlow >= 2.4), the `mixed_float16` policy applies (useful on GPUs with tensor cores and TPUs)"
    )
    FIX_TITLE = 'Call `tf.keras.mixed_precision.set_global_policy("mixed_float16")` before building the model'
    #: A finding's help line, where its training is not a tf.keras model's of TensorFlow >= 2.1 (FIX_TITLE's).
    HELP_POLICY = 'Call `{call}("{policy}")` before building the model'
    HELP_GRAPH = (
        "Wrap the optimizer in `tf.compat.v1.train.experimental.enable_mixed_precision_graph_rewrite` before"
        " building the training op (the graph rewrite, with loss scaling)"
    )
    HELP_KERAS2 = (
        "Compile with a `tf.train` optimizer wrapped by `tf.train.experimental.enable_mixed_precision_graph_rewrite`"
    )
    HELP_PORT = "Port the model to tf.keras (TensorFlow >= 2.4), then set the `mixed_float16` policy before building it"
    OPTIONS = (
        Option(
            "multi-backend-port",
            bool,
            False,
            "GL602 also flags a large training on multi-backend Keras 2.0-2.3 that `multi-backend-rewrite` does not"
            " report, advising the port to tf.keras that mixed precision needs there.",
        ),
        Option(
            "multi-backend-rewrite",
            bool,
            False,
            "GL602 also flags a large training on multi-backend Keras 2.0-2.3 that TensorFlow 1's graph rewrite can"
            " serve (TensorFlow 1.14/1.15, no learning-rate callback), advising a `tf.train` optimizer wrapped by it.",
        ),
        TF_VERSION,
        SAVING_OPTION,
    )
    VALID = (
        Valid(  # near miss of the 2.1e+09 FLOPs step below: its convolutions frozen, their backward pass is not run
            "import numpy as np\n" "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((28, 28, 1)),"
            " tf.keras.layers.Conv2D(32, 3, trainable=False), tf.keras.layers.Conv2D(64, 3, trainable=False),"
            " tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])\nm.compile(optimizer='adam', loss='mse')\n"
            "m.fit(np.zeros((60000, 28, 28, 1)), np.zeros((60000, 10)), epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a pretrained CNN computes features once; the captioner trained on them is known and holds none of it
            "import tensorflow as tf\n"
            "vgg = tf.keras.applications.VGG16(include_top=True)\n"
            "features = tf.keras.Model(vgg.input, vgg.get_layer('fc2').output).predict(images, batch_size=32)\n"
            "transfer_input = tf.keras.Input(shape=(4096,))\ntokens = tf.keras.Input(shape=(None,))\n"
            "state = tf.keras.layers.Dense(512)(transfer_input)\nx = tf.keras.layers.Embedding(10000, 128)(tokens)\n"
            "x = tf.keras.layers.GRU(512, return_sequences=True)(x, initial_state=state)\n"
            "decoder = tf.keras.Model([transfer_input, tokens], tf.keras.layers.Dense(10000)(x))\n"
            "decoder.compile('rmsprop', 'sparse_categorical_crossentropy')\n"
            "decoder.fit(batch_generator(32), steps_per_epoch=1000, epochs=20)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a priced training: mixed precision saves at most two thirds of its 1 kJ, under material-saving-j
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n"
        ),
        Valid(
            "import tensorflow as tf\ntf.keras.mixed_precision.set_global_policy('mixed_float16')\n"
            "m = tf.keras.Sequential()\nm.fit(x, y)\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.evaluate(x, y)\n"),
        Valid(  # the project's helper sets the policy from a flag (tf-models' performance module)
            "import tensorflow as tf\nfrom official.modeling import performance\n"
            "performance.set_mixed_precision_policy(params.dtype)\nm = tf.keras.Sequential()\nm.fit(x, y)\n"
        ),
        Valid(  # multi-backend Keras 2 (fit_generator says Keras 2.3 or older) on a model of unknown size
            "from keras.models import Sequential\nm = Sequential()\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n"
        ),
        Valid(  # multi-backend Keras 2: Keras 1's nb_epoch, which tf.keras' fit rejects from TF 2.2 (with epochs= it is reported)
            "from keras.applications import ResNet50\nm = ResNet50(weights=None)\nm.compile('adam', 'mse')\n"
            "m.fit(x, y, batch_size=32, nb_epoch=20)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # every GPU hidden: float16 on the host is slower
            "import os\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\n"
            "m = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # every GPU hidden through tf.config
            "import tensorflow as tf\ntf.config.set_visible_devices([], 'GPU')\n"
            "m = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the training placed on the host
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "with tf.device('/cpu:0'):\n    m.fit(x, y, epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a test checks float32 numbers
            "import tensorflow as tf\ndef test_optimizer_moves_weights():\n"
            "    m = tf.keras.Sequential()\n    m.fit(x, y, epochs=2)\n"
        ),
        Valid(  # any fit in a test file
            "import tensorflow as tf\ndef check(layer):\n    m = tf.keras.Sequential([layer])\n    m.fit(x, y)\n",
            filename="layers_test.py",
        ),
        Valid(  # a library's wrapper: its caller builds the model, under the caller's policy
            "import tensorflow as tf\ndef refit(model: tf.keras.Model, *args, **kwargs):\n"
            "    model.fit(*args, **kwargs)\n"
        ),
        Valid(  # a one-neuron regression: the step is launches, not arithmetic
            "import tensorflow as tf\nimport numpy as np\nc = np.array([-40, -10, 0, 8, 15, 22, 38], dtype=float)\n"
            "f = np.array([-40, 14, 32, 46, 59, 72, 100], dtype=float)\n"
            "m = tf.keras.Sequential([tf.keras.layers.Dense(units=1, input_shape=[1])])\n"
            "m.compile(loss='mean_squared_error', optimizer='adam')\nm.fit(c, f, epochs=500, verbose=False)\n"
        ),
        Valid(  # a model the analysis knows nothing about: unknown is no evidence
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=10)\n"
        ),
        Valid(  # a small MLP on data of unknown width (a regression on California housing)
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(30, activation='relu',"
            " input_shape=X_train.shape[1:]), tf.keras.layers.Dense(1)])\n"
            "m.compile(loss='mse', optimizer='sgd')\nm.fit(X_train, y_train, epochs=20)\n"
        ),
        Valid(  # a small RNN on sequences of unknown length
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.SimpleRNN(20, return_sequences=True,"
            " input_shape=[None, 1]), tf.keras.layers.SimpleRNN(20), tf.keras.layers.Dense(1)])\n"
            "m.fit(X_train, y_train, epochs=20)\n"
        ),
        Valid(  # input-bound: one host thread decodes and warps every batch, so faster arithmetic saves no wait
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=40)\n"
            "m.fit(aug.flow_from_directory('train/', batch_size=32), epochs=20)\n"
        ),
        Valid(  # an input of unknown kind batches itself (a dataset's `.batch(flags.batch_size)`): Keras' 32 is no evidence
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Conv2D(32, 3),"
            " tf.keras.layers.Conv2D(64, 3), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])\n"
            "m.fit(load_batches(), epochs=10)\n"
        ),
        Valid(  # a layer class named after an architecture says nothing about its size
            "import tensorflow as tf\nblock = TransformerBlock(32, 2, 32)\n"
            "m = tf.keras.Sequential([tf.keras.layers.Embedding(20000, 32), block, tf.keras.layers.Dense(2)])\n"
            "m.fit(x_train, y_train, epochs=2)\n"
        ),
        Valid(  # the stated GPU has no tensor cores (Pascal, compute capability 6.1): float16 gains nothing
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            device="NVIDIA GeForce GTX 1080 Ti",
        ),
        Valid(  # TF1: a graph model class of no named architecture is no evidence of a large step
            "import tensorflow as tf\nclass Model:\n    def train(self, x, y):\n        loss = self.forward(x, y)\n"
            "        return tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)\n"
        ),
        Valid(  # TF1: a block class named after an architecture is a layer of any size
            "import tensorflow as tf\nclass TransformerBlock:\n    def train(self, loss):\n"
            "        return tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)\n"
        ),
        Valid(  # TF1: a DCGAN may be an MNIST one of a few MFLOPs per sample: its name is no evidence of a large step
            "import tensorflow as tf\nclass DCGAN:\n    def build(self, loss):\n"
            "        return tf.compat.v1.train.AdamOptimizer(2e-4, beta1=0.5).minimize(loss)\n"
        ),
        Valid(  # WDSR's 32-channel baseline is under 10^9 FLOPs per sample at its training crops: no evidence
            "import tensorflow as tf\nfrom model.wdsr import wdsr_b\nm = wdsr_b(scale=4, num_res_blocks=32)\n"
            "m.compile(optimizer='adam', loss='mae')\nm.fit(train_ds, epochs=300, steps_per_epoch=1000)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # TF1: the graph rewrite wraps the optimizer
            "import tensorflow as tf\nclass Transformer:\n    def train(self, loss):\n"
            "        opt = tf.compat.v1.train.AdamOptimizer(1e-3)\n"
            "        opt = tf.compat.v1.train.experimental.enable_mixed_precision_graph_rewrite(opt)\n"
            "        return opt.minimize(loss)\n"
        ),
        Valid(  # TF1: the session's config turns the rewrite on
            "import tensorflow as tf\ndef build_resnet50(x, y):\n    loss = resnet(x, y)\n"
            "    return tf.compat.v1.train.MomentumOptimizer(0.1, 0.9).minimize(loss)\n"
            "config = tf.compat.v1.ConfigProto()\nconfig.graph_options.rewrite_options.auto_mixed_precision = 1\n"
        ),
        Valid(  # TF1: the stated GPU has no tensor cores
            "import tensorflow as tf\nclass Transformer:\n    def train(self, loss):\n"
            "        return tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)\n",
            device="NVIDIA GeForce GTX 1080 Ti",
        ),
        Valid(  # a model an object holds, called as `self.vgg(x)`: no factory named, a model of any size
            "import tensorflow as tf\nclass Extractor(tf.keras.Model):\n    def call(self, x):\n        return self.vgg(x)\n"
            "m = Extractor()\nopt = tf.keras.optimizers.Adam()\n@tf.function\ndef step(image):\n"
            "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(m(image))\n"
            "    opt.apply_gradients([(tape.gradient(loss, image), image)])\nfor i in range(1000):\n    step(x)\n"
        ),
        Valid(  # multi-backend Keras 2 whose learning rate a callback sets: the wrapped tf.train optimizer has no `lr`
            "from keras.applications import ResNet50\nfrom keras.callbacks import ReduceLROnPlateau\n"
            "m = ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5, callbacks=[ReduceLROnPlateau(patience=3)])\n",
            options=TF_1_15,
        ),
        Valid(  # multi-backend Keras 2 whose optimizer clips its gradients: a `tf.train` optimizer has no clipnorm
            "from keras.applications import ResNet50\nfrom keras.optimizers import Adam\nm = ResNet50(weights=None)\n"
            "m.compile(optimizer=Adam(lr=1e-5, clipnorm=0.001), loss='mse')\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n",
            options=TF_1_15,
        ),
        Valid(  # multi-backend Keras 2 with the rewrite's option off (the default)
            "from keras.applications import ResNet50\nm = ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n",
            options={"tensorflow-version": "1.15"},
        ),
        Valid(  # multi-backend Keras 2 on TensorFlow 2: that Keras wraps tf.keras optimizers alone there
            "from keras.applications import ResNet50\nm = ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n",
            options={"tensorflow-version": "2.2", "multi-backend-rewrite": True},
        ),
        Valid(  # TensorFlow 2.3: its LossScaleOptimizer raises for an optimizer that clips its gradients
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer=tf.keras.optimizers.Adam(lr=1e-5, clipnorm=0.001), loss='mse')\nm.fit(x, y, epochs=10)\n",
            options={"material-saving-j": 0.0, "tensorflow-version": "2.3"},
        ),
        Valid(  # TensorFlow 1.15: the graph rewrite wraps a Keras optimizer in the same LossScaleOptimizer
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer=tf.keras.optimizers.SGD(0.1, clipvalue=clip), loss='mse')\nm.fit(x, y, epochs=10)\n",
            options={"material-saving-j": 0.0, "tensorflow-version": "1.15"},
        ),
        Valid(  # multi-backend Keras 2 on TensorFlow 1.13: no graph rewrite yet
            "from keras.applications import ResNet50\nm = ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n",
            options={"tensorflow-version": "1.13", "multi-backend-rewrite": True},
        ),
        Valid(  # a Keras Application built in a file that never trains it: the MNIST MLP's step is small
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(128),"
            " tf.keras.layers.Dense(10)])\nm.fit(x, y, batch_size=32, epochs=5)\n"
            "features = tf.keras.applications.ResNet50(weights='imagenet')\n"
        ),
        Valid(  # the same Estimator on a model_fn of no such evidence: its size is not known
            "import tensorflow as tf\ndef model_fn(features, labels, mode):\n    loss = small_net(features, labels)\n"
            "    op = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)\n"
            "    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=op)\n"
            "est = tf.estimator.Estimator(model_fn=model_fn)\nest.train(input_fn, max_steps=100000)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a TF Hub SavedModel named after ResNet: its float32 graph is fixed at export, the policy misses it
            "import tensorflow as tf\nimport tensorflow_hub as hub\nmodel = tf.keras.Sequential([\n"
            "    tf.keras.layers.InputLayer(input_shape=(224, 224, 3)),\n"
            "    hub.KerasLayer('https://tfhub.dev/google/imagenet/resnet_v1_50/feature_vector/5', trainable=True),\n"
            "    tf.keras.layers.Dense(10),\n])\nmodel.compile('adam', 'sparse_categorical_crossentropy')\n"
            "model.fit(train_ds, epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a factory named after BERT whose network is a TF Hub SavedModel: the policy misses it all the same
            "import tensorflow as tf\nimport tensorflow_hub as hub\ndef build_bert_model(handle):\n"
            "    words = tf.keras.Input(shape=(128,), dtype=tf.int32)\n"
            "    encoder = hub.KerasLayer(handle, trainable=True)\n"
            "    return tf.keras.Model(words, tf.keras.layers.Dense(2)(encoder(words)))\n"
            "model = build_bert_model(BERT_HANDLE)\nmodel.compile('adam', 'sparse_categorical_crossentropy')\n"
            "model.fit(train_ds, epochs=3)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a Keras model class named after ResNet that holds a TF Hub SavedModel
            "import tensorflow as tf\nfrom tensorflow_hub import KerasLayer\nclass ResNet50(tf.keras.Model):\n"
            "    def __init__(self):\n        super().__init__()\n"
            "        self.body = KerasLayer('https://tfhub.dev/google/imagenet/resnet_v2_50/feature_vector/5')\n"
            "    def call(self, x):\n        return self.body(x)\n"
            "model = ResNet50()\nmodel.compile('sgd', 'mse')\nmodel.fit(train_ds, epochs=30)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a CamelCase layer class may be a block of any size: its name is no evidence
            "import tensorflow as tf\nclass ResNet50(tf.keras.layers.Layer):\n    pass\n"
            "m = tf.keras.Sequential([ResNet50()])\nm.fit(x, y, epochs=20)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the large model is built only in a mode beside the default (--big defaults to False)
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--big', action='store_true', default=False)\nargs = p.parse_args()\n"
            "if args.big:\n    m = resnet50()\nelse:\n    m = tf.keras.models.load_model(path)\nm.fit(x, y, epochs=20)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # an Estimator that only evaluates trains nothing
            "import tensorflow as tf\ndef model_fn(features, labels, mode):\n    return resnet50(features, labels)\n"
            "est = tf.estimator.Estimator(model_fn=model_fn)\nest.evaluate(input_fn, steps=100)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the same graph fed one image a run: its 2.5e8 FLOPs a step keep a GPU's launches in front
            "import tensorflow as tf\nimages = tf.compat.v1.placeholder(tf.float32, [1, 64, 64, 3])\n"
            "h = tf.compat.v1.layers.conv2d(images, 32, 3, padding='same')\n"
            "h = tf.compat.v1.layers.conv2d(h, 32, 3, padding='same')\n"
            "train_op = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(tf.reduce_mean(h))\n"
            "sess = tf.compat.v1.Session()\nfor step in range(100000):\n"
            "    sess.run(train_op, feed_dict={images: next_batch()})\n",
        ),
    )
    INVALID = (
        Invalid(  # a factory the file defines, CamelCase as Keras Applications name theirs
            "import tensorflow as tf\ndef ResNet50(classes):\n    return build(classes)\n"
            "m = ResNet50(10)\nm.fit(x, y, epochs=20)\n",
            line=5,
            options={"material-saving-j": 0.0},
            message_contains="ResNet50(), named after the resnet architecture",
        ),
        Invalid(  # the default mode's fit, not the custom loop of the mode beside it
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_string('mode', 'fit', 'fit or eager')\n"
            "FLAGS = flags.FLAGS\nm = tf.keras.applications.ResNet50(weights=None)\nopt = tf.keras.optimizers.SGD()\n"
            "if FLAGS.mode == 'eager':\n    for x, y in ds:\n"
            "        with tf.GradientTape() as tape:\n            loss = tf.reduce_mean(m(x, training=True))\n"
            "        opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))\n"
            "else:\n    m.fit(ds, epochs=20)\n",
            line=13,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # standalone keras with epochs=: nothing says it is multi-backend (nb_epoch= would, a case above)
            "from keras.applications import ResNet50\nm = ResNet50(weights=None)\nm.compile('adam', 'mse')\n"
            "m.fit(x, y, batch_size=32, epochs=20)\n",
            line=4,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # priced: 30 trainings of at most 1 kJ each, two thirds of which mixed precision may save
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nfor fold in range(30):\n"
            "    m.fit(x, y, epochs=10)\n",
            line=4,
            message_contains="; it saves up to 10 kJ over a run of the program (up to 67% of the training's 15 kJ",
        ),
        Invalid(  # near miss of the input-bound case: eight worker processes prepare the batches
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=40)\n"
            "m.fit(aug.flow_from_directory('train/', batch_size=32), epochs=20, workers=8, use_multiprocessing=True)\n",
            line=4,
            message_contains="x batch 32)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss of the unknown batch: arrays, where Keras' default batch of 32 holds
            "import numpy as np\n" "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Conv2D(32, 3),"
            " tf.keras.layers.Conv2D(64, 3), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])\n"
            "m.fit(np.zeros((60000, 28, 28, 1)), np.zeros((60000, 10)), epochs=10)\n",
            line=4,
            message_contains="2.1e+09 FLOPs (3 x forward FLOPs per sample x batch 32)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a frozen pretrained base: its forward pass alone is large
            "import numpy as np\nimport tensorflow as tf\n"
            "base = tf.keras.applications.MobileNetV2(input_shape=(160, 160, 3), include_top=False)\n"
            "base.trainable = False\n"
            "m = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])\n"
            "m.compile(optimizer='adam', loss='mse')\n"
            "m.fit(np.zeros((1000, 160, 160, 3)), np.zeros((1000, 10)), epochs=10)\n",
            line=7,
            message_contains="1.0e+10 FLOPs (1 x forward FLOPs per sample x batch 32: no backward pass through its "
            "frozen layers)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # multi-backend Keras 2: compile wraps a tf.train optimizer, which the graph rewrite wraps
            "from keras.applications import ResNet50\nm = ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n",
            options=TF_1_15,
            line=3,
            message_contains="`tf.train` optimizer wrapped by `tf.train.experimental.enable_mixed_precision_graph_rewrite`",
            help_contains="Compile with a `tf.train` optimizer wrapped by",
        ),
        Invalid(  # keras-contrib extends multi-backend Keras 2.0-2.3 alone: its custom steps take the same rewrite
            "from keras.applications import ResNet50\nfrom keras_contrib.layers import InstanceNormalization\n"
            "m = ResNet50(weights=None)\nfor x, y in batches:\n    m.train_on_batch(x, y)\n",
            options=TF_1_15,
            line=5,
            message_contains="multi-backend Keras 2 (standalone `keras` with `keras_contrib`) without mixed precision",
        ),
        Invalid(  # the port option, where the rewrite cannot serve (a learning-rate callback): tf.keras' policy
            "from keras.applications import ResNet50\nfrom keras.callbacks import ReduceLROnPlateau\n"
            "m = ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5, callbacks=[ReduceLROnPlateau(patience=3)])\n",
            options={"material-saving-j": 0.0, "multi-backend-port": True},
            line=4,
            message_contains="training on multi-backend Keras 2 (standalone `keras` with `fit_generator()`), which has no",
            help_contains="Port the model to tf.keras",
        ),
        Invalid(  # a Keras Application: about 2.3 x 10^10 FLOPs per image, trained
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y)\nm.fit(x, y)\n",
            line=3,
            message_contains="ResNet50",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a stated GPU with tensor cores: the message says the claim is for it
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            device="NVIDIA Tesla T4",
            line=3,
            message_contains="the stated NVIDIA Tesla T4 has tensor cores, compute capability 7.5",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a convnet on 224x224 images: about 4 x 10^9 FLOPs per image
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((224, 224, 3)),"
            " tf.keras.layers.Conv2D(64, 3), tf.keras.layers.Conv2D(64, 3), tf.keras.layers.GlobalAveragePooling2D(),"
            " tf.keras.layers.Dense(10)])\nm.fit(x, y, batch_size=32, epochs=10)\n",
            line=3,
            message_contains="FLOPs",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a known lower bound is evidence too: the convolutions alone, whatever the unknown layer adds
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((224, 224, 3)),"
            " tf.keras.layers.Conv2D(64, 3), tf.keras.layers.Conv2D(64, 3), MyHead()])\n"
            "m.fit(x, y, batch_size=32, epochs=10)\n",
            line=3,
            message_contains="at least",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # tf.keras's generator training is a training too
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.fit_generator(gen, steps_per_epoch=100, epochs=5)\n",
            line=3,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # standalone Keras with fit(): Keras 2.4+ or Keras 3, which have the policy
            "import keras\nm = keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=3,
            message_contains='(`keras.mixed_precision.set_global_policy("mixed_float16")` before the model is built;',
            help_contains='Call `keras.mixed_precision.set_global_policy("mixed_float16")` before building the model',
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # tf.keras on TensorFlow 2.4 and later: the stable policy
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=3,
            message_contains='`tf.keras.mixed_precision.set_global_policy("mixed_float16")` before the model is built;',
            help_contains='Call `tf.keras.mixed_precision.set_global_policy("mixed_float16")` before building the model',
            options={"material-saving-j": 0.0, "tensorflow-version": "2.4"},
        ),
        Invalid(  # TensorFlow 2.4: the LossScaleOptimizer clips the unscaled gradients as its inner optimizer says
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer=tf.keras.optimizers.Adam(lr=1e-5, clipnorm=0.001), loss='mse')\nm.fit(x, y, epochs=10)\n",
            line=4,
            message_contains='`tf.keras.mixed_precision.set_global_policy("mixed_float16")`',
            options={"material-saving-j": 0.0, "tensorflow-version": "2.4"},
        ),
        Invalid(  # TensorFlow 2.3 with clipping switched off (None): the experimental policy wraps it
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer=tf.keras.optimizers.Adam(lr=1e-5, clipnorm=None), loss='mse')\nm.fit(x, y, epochs=10)\n",
            line=4,
            message_contains='`tf.keras.mixed_precision.experimental.set_policy("mixed_float16")`',
            options={"material-saving-j": 0.0, "tensorflow-version": "2.3"},
        ),
        Invalid(  # standalone Keras on TensorFlow 2.4: Keras 2.4, which has no `keras.mixed_precision`
            "import keras\nm = keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=3,
            message_contains='(`tf.keras.mixed_precision.set_global_policy("mixed_float16")` before the model is built;',
            options={"material-saving-j": 0.0, "tensorflow-version": "2.4"},
        ),
        Invalid(  # standalone Keras on TensorFlow 2.6: Keras 2.6 has `keras.mixed_precision`
            "import keras\nm = keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=3,
            message_contains='(`keras.mixed_precision.set_global_policy("mixed_float16")` before the model is built;',
            options={"material-saving-j": 0.0, "tensorflow-version": "2.6"},
        ),
        Invalid(  # TensorFlow 2.1-2.3: the policy's experimental API
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=3,
            message_contains='`tf.keras.mixed_precision.experimental.set_policy("mixed_float16")`',
            help_contains='Call `tf.keras.mixed_precision.experimental.set_policy("mixed_float16")`',
            options={"material-saving-j": 0.0, "tensorflow-version": "2.3"},
        ),
        Invalid(  # tf.keras on TensorFlow 1.14-2.0: no Keras policy, the graph rewrite around its optimizer
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=3,
            message_contains="(TensorFlow 1.15, the tensorflow-version setting, has none: wrap the optimizer in"
            " `tf.train.experimental.enable_mixed_precision_graph_rewrite`",
            help_contains="Wrap the optimizer in `tf.compat.v1.train.experimental.enable_mixed_precision_graph_rewrite`",
            options={"material-saving-j": 0.0, "tensorflow-version": "1.15"},
        ),
        Invalid(  # a backend shim that may import tf.keras: not multi-backend only
            "import os\nif os.environ.get('TF_KERAS'):\n    import tensorflow.keras as keras\nelse:\n    import keras\n"
            "m = keras.applications.ResNet50(weights=None)\nm.fit_generator(gen, steps_per_epoch=100, epochs=5)\n",
            line=7,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # one GPU chosen, not hidden
            "import os\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
            "m = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=5,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the first fit large enough to gain
            "import tensorflow as tf\nsmall = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=[1])])\n"
            "small.fit(x, y, epochs=500)\nbig = tf.keras.applications.ResNet50(weights=None)\nbig.fit(images, labels, epochs=5)\n",
            line=5,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the first fit outside test code
            "import tensorflow as tf\ndef test_fit():\n    tf.keras.applications.ResNet50(weights=None).fit(x, y)\n"
            "m = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=5,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a pretrained backbone inside a Sequential the analysis cannot price
            "import tensorflow as tf\nbase = tf.keras.applications.MobileNetV2(include_top=False, weights='imagenet')\n"
            "m = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(5)])\n"
            "m.fit(train_ds, epochs=3)\n",
            line=4,
            message_contains="MobileNetV2",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the training after the backbone is built, not an earlier unsized one
            "import tensorflow as tf\nsmall = tf.keras.Sequential([tf.keras.layers.Dense(8)])\nsmall.fit(a, b)\n"
            "base = tf.keras.applications.MobileNetV2(include_top=False)\n"
            "m = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(5)])\n"
            "m.fit(train_ds, epochs=3)\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a Keras model class of the file named after a large architecture: the whole network
            "import tensorflow as tf\nclass ResnetV2(tf.keras.Model):\n    def call(self, x):\n        return self.body(x)\n"
            "model = ResnetV2()\nmodel.compile('sgd', 'mse')\nmodel.fit(train_ds, epochs=10)\n",
            line=7,
            message_contains="ResnetV2(), named after the resnet architecture",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a keras-hub model from a preset
            "import keras_hub\nc = keras_hub.models.ImageClassifier.from_preset('resnet_50_imagenet', num_classes=2)\n"
            "c.fit(train_ds, epochs=3)\n",
            line=3,
            message_contains="keras_hub",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a project factory of a named large architecture (bert4keras, EfficientDet)
            "import tensorflow as tf\nfrom bert4keras.models import build_transformer_model\n"
            "model = build_transformer_model(config_path, checkpoint_path, application='unilm')\n"
            "model.fit(train_generator.forfit(), steps_per_epoch=1000, epochs=10000)\n",
            line=4,
            message_contains="transformer",
            options={"material-saving-j": 0.0},
        ),
        Invalid(
            "import tensorflow as tf\nfrom model import efficientdet\n"
            "model, prediction_model = efficientdet(args.phi, num_classes=20)\n"
            "model.fit_generator(generator=train_generator, epochs=args.epochs)\n",
            line=4,
            message_contains="efficientdet",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # one worker decodes each batch, but the named model's FLOPs per input element are unknown:
            # nothing says its step is shorter than the host's work
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nfrom model import efficientdet\n"
            "class Images(tf.keras.utils.Sequence):\n    def __init__(self, paths):\n        self.paths = paths\n"
            "    def __len__(self):\n        return len(self.paths) // 8\n"
            "    def __getitem__(self, i):\n"
            "        return np.stack([cv2.imread(p) for p in self.paths[i * 8:(i + 1) * 8]])\n"
            "model, prediction_model = efficientdet(0, num_classes=20)\n"
            "model.fit_generator(Images(paths), steps_per_epoch=10000, epochs=50, workers=1)\n",
            line=13,
            message_contains="efficientdet",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # one worker decodes and warps, but the FLOPs known are a lower bound (a layer of another library
            # leaves the layers after it unknown): the model is not known to be small enough to wait on the host
            "import tensorflow as tf\nfrom keras_contrib.layers import PELU\n"
            "m = tf.keras.Sequential([tf.keras.Input((224, 224, 3)), tf.keras.layers.Conv2D(64, 3, padding='same'),\n"
            "    tf.keras.layers.Conv2D(64, 3, padding='same'), PELU(), tf.keras.layers.Conv2D(128, 3)])\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=40)\n"
            "m.fit(aug.flow_from_directory('train/', batch_size=32), epochs=20)\n",
            line=6,
            message_contains="at least",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # one worker decodes and warps, but the model's 5e6 FLOPs per input element outlast it: device-bound
            HEAVY_MODEL_ONE_WORKER,
            line=9,
            message_contains="training step is",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a step of Keras' own: train_on_batch
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "for x, y in batches:\n    m.train_on_batch(x, y)\n",
            line=4,
            message_contains="ResNet50",
        ),
        Invalid(  # a custom step in a tf.function: reported where the step runs, its call
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nopt = tf.keras.optimizers.SGD()\n"
            "@tf.function\ndef step(x, y):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(m(x, training=True))\n    grads = tape.gradient(loss, m.trainable_variables)\n"
            "    opt.apply_gradients(zip(grads, m.trainable_variables))\nfor x, y in batches:\n    step(x, y)\n",
            line=11,
            message_contains="training step is at least 2.3e+10 FLOPs",
        ),
        Invalid(  # a custom step: float16 gradients need the loss scale that `fit` applies by itself
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nopt = tf.keras.optimizers.SGD()\n"
            "@tf.function\ndef step(x, y):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(m(x, training=True))\n    grads = tape.gradient(loss, m.trainable_variables)\n"
            "    opt.apply_gradients(zip(grads, m.trainable_variables))\nfor x, y in batches:\n    step(x, y)\n",
            line=11,
            message_contains="its step scaling its loss with a `LossScaleOptimizer`'s `scale_loss` before the gradient",
        ),
        Invalid(  # the same step with a loss of tf.keras 2's `Reduction`, which Keras 3 removed: its scaling API
            "import tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\nopt = tf.keras.optimizers.SGD()\n"
            "loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)\n"
            "@tf.function\ndef step(x, y):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(loss_fn(y, m(x, training=True)))\n    grads = tape.gradient(loss, m.trainable_variables)\n"
            "    opt.apply_gradients(zip(grads, m.trainable_variables))\nfor x, y in batches:\n    step(x, y)\n",
            line=12,
            message_contains="`get_scaled_loss` before the gradient and `get_unscaled_gradients` after it",
        ),
        Invalid(  # a program that can train on a TPU: bfloat16 there, float16 on a GPU
            "import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy(resolver)\n"
            "with strategy.scope():\n    m = tf.keras.applications.ResNet50(weights=None)\nm.fit(x, y, epochs=10)\n",
            line=5,
            message_contains='set_global_policy("mixed_bfloat16")` on its TPU, `"mixed_float16"` on a GPU,',
            help_contains='set_global_policy("mixed_bfloat16")',
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # fit runs the file's own train_step, which Keras' loss scaling does not reach
            "import tensorflow as tf\nclass Net(tf.keras.Model):\n    def train_step(self, data):\n"
            "        x, y = data\n        with tf.GradientTape() as tape:\n"
            "            loss = self.compiled_loss(y, self(x, training=True))\n"
            "        grads = tape.gradient(loss, self.trainable_variables)\n"
            "        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))\n        return {}\n"
            "base = tf.keras.applications.ResNet50(weights=None)\nm = Net(base.input, base.output)\n"
            "m.fit(x, y, epochs=10)\n",
            line=12,
            message_contains="its `train_step` scaling its loss with a `LossScaleOptimizer`'s",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # TF1: the session runs the update of a graph a factory named after an architecture builds: reported
            # at the optimizer the same scope constructs, which the rewrite wraps
            "import tensorflow as tf\nimages = tf.compat.v1.placeholder(tf.float32, [None, 224, 224, 3])\n"
            "loss = resnet50(images)\nopt = tf.compat.v1.train.AdamOptimizer(1e-3)\ntrain_op = opt.minimize(loss)\n"
            "sess = tf.compat.v1.Session()\nfor x in batches:\n    sess.run(train_op, feed_dict={images: x})\n",
            line=4,
            message_contains="enable_mixed_precision_graph_rewrite",
            help_contains="before building the training op (the graph rewrite, with loss scaling)",
        ),
        Invalid(  # TF1: of the two runs of the update (its optimizer built in another function), the one of every
            # step, not the one that also writes summaries
            "import tensorflow as tf\ndef build(images):\n"
            "    return tf.compat.v1.train.AdamOptimizer(1e-3).minimize(resnet50(images))\n"
            "train_op = build(tf.compat.v1.placeholder(tf.float32, [None, 224, 224, 3]))\n"
            "summary = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\nfor step in range(20000):\n"
            "    if step % 1000 == 0:\n        sess.run([train_op, summary])\n    else:\n        sess.run(train_op)\n",
            line=11,
            message_contains="enable_mixed_precision_graph_rewrite",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # TF1: a model class building its update in one method and running it in another: reported at
            # the optimizer the class constructs
            "import tensorflow as tf\nclass Trainer:\n    def build(self):\n"
            "        self.images = tf.compat.v1.placeholder(tf.float32, [None, 224, 224, 3])\n"
            "        self.train_op = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(resnet50(self.images))\n"
            "    def train(self, batches):\n        sess = tf.compat.v1.Session()\n        for x in batches:\n"
            "            sess.run(self.train_op, feed_dict={self.images: x})\n",
            line=5,
            message_contains="enable_mixed_precision_graph_rewrite",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # TF1: a graph run's step is its batch's: 8.3e7 FLOPs per image x 3 x the placeholder's 16 images
            "import tensorflow as tf\nimages = tf.compat.v1.placeholder(tf.float32, [16, 64, 64, 3])\n"
            "h = tf.compat.v1.layers.conv2d(images, 32, 3, padding='same')\n"
            "h = tf.compat.v1.layers.conv2d(h, 32, 3, padding='same')\n"
            "train_op = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(tf.reduce_mean(h))\n"
            "sess = tf.compat.v1.Session()\nfor step in range(100000):\n"
            "    sess.run(train_op, feed_dict={images: next_batch()})\n",
            line=5,
            message_contains="(3 x forward FLOPs per sample x batch 16)",
        ),
        Invalid(  # the same where the runs are not counted (a loop over batches of unknown number): the first
            "import tensorflow as tf\ndef build(images):\n"
            "    return tf.compat.v1.train.AdamOptimizer(1e-3).minimize(resnet50(images))\n"
            "train_op = build(tf.compat.v1.placeholder(tf.float32, [None, 224, 224, 3]))\n"
            "summary = tf.compat.v1.summary.merge_all()\nsess = tf.compat.v1.Session()\n"
            "for step, x in enumerate(batches):\n"
            "    if step % 1000 == 0:\n        sess.run([train_op, summary])\n    else:\n        sess.run(train_op)\n",
            line=9,
            message_contains="enable_mixed_precision_graph_rewrite",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an Estimator trains the graph its model_fn builds with a factory named after an architecture
            "import tensorflow as tf\ndef model_fn(features, labels, mode):\n    loss = resnet50(features, labels)\n"
            "    op = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)\n"
            "    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=op)\n"
            "est = tf.estimator.Estimator(model_fn=model_fn)\nest.train(input_fn, max_steps=100000)\n",
            line=7,
            message_contains="enable_mixed_precision_graph_rewrite",
            help_contains="Wrap the optimizer in",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # TF1: a graph model class named after a large architecture builds its own update
            "import tensorflow as tf\nclass Transformer:\n    def train(self, xs, ys):\n        loss = self.forward(xs, ys)\n"
            "        optimizer = tf.compat.v1.train.AdamOptimizer(1e-4)\n        train_op = optimizer.minimize(loss)\n"
            "        return loss, train_op\n",
            line=6,
            message_contains="class Transformer, named after the transformer architecture",
        ),
        Invalid(  # TF1: the same class, its session run in the same file: reported at the update it builds
            "import tensorflow as tf\nclass Transformer:\n    def train(self, xs, ys):\n        loss = self.forward(xs, ys)\n"
            "        return tf.compat.v1.train.AdamOptimizer(1e-4).minimize(loss)\n"
            "m = Transformer()\ntrain_op = m.train(x, y)\nsess = tf.compat.v1.Session()\n"
            "for _ in range(1000):\n    sess.run(train_op)\n",
            line=5,
            message_contains="class Transformer",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # TF1: an image-to-image GAN's class: its generators convolve every pixel of 256x256 images
            "import tensorflow as tf\nclass CycleGAN:\n    def build(self, g_loss, g_vars):\n"
            "        return tf.compat.v1.train.AdamOptimizer(2e-4, beta1=0.5).minimize(g_loss, var_list=g_vars)\n",
            line=4,
            message_contains="class CycleGAN, named after the cyclegan architecture",
        ),
        Invalid(  # a super-resolution network built by a project factory: 16 residual blocks at every pixel
            "import tensorflow as tf\nfrom model.edsr import edsr\nm = edsr(scale=4, num_res_blocks=16)\n"
            "m.compile(optimizer='adam', loss='mae')\nm.fit(train_ds, epochs=300, steps_per_epoch=1000)\n",
            line=5,
            options={"material-saving-j": 0.0},
            message_contains="edsr(), named after the edsr architecture",
        ),
        Invalid(  # TF1: a factory function named after one, on a stated GPU with tensor cores
            "import tensorflow as tf\ndef build_resnet50(images, labels):\n    loss = resnet(images, labels)\n"
            "    opt = tf.compat.v1.train.MomentumOptimizer(0.1, 0.9)\n"
            "    return opt.apply_gradients(opt.compute_gradients(loss))\n",
            device="NVIDIA Tesla T4",
            line=5,
            message_contains="the stated NVIDIA Tesla T4 has tensor cores",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if any(word in facts.text for word in CHOSEN):
            return
        steps = [s for s in facts.sites if _trains(s)]
        updates = [s for s in facts.sites if s.api.startswith(TF1_TRAIN) and s.api.rsplit(".", 1)[-1] in TF1_UPDATES]
        if not (steps or updates) or test_module(facts.path) or hides_gpus(facts):
            return
        trainings = [
            s
            for s in steps
            if not small_step(s)
            and not _forwards(facts, s)
            and not in_test_code(facts, s)
            and not input_bound(facts, s)
            and not _on_host(facts, s)
            and not other_mode(facts, facts.node(s), s.callsite.span.cell)
        ]
        site, why = next(((s, why) for s in trainings if (why := large_step(s))), (None, ""))
        unsized = [s for s in trainings if not _model_known(s)]  # what the file builds may be in these
        if site is None and unsized and (backbone := built_backbone(facts)):
            site, why = _after(unsized, backbone[1], notebook=not isinstance(facts.source, str)), backbone[0]
        if site is None and all(s.api.startswith(TF1_PREFIX) for s in steps):  # a TF1 graph's own evidence
            site, why = next(
                ((s, why) for s in updates if not in_test_code(facts, s) and (why := _named_model(facts, s))),
                (None, ""),
            )
        found = [(s, w, [s]) for s, w in _given_trainers(facts, trainings, site)]  # each trainer's own step
        if site is not None:
            trained = trainings if any(s is site for s in trainings) else [site]  # one policy speeds them all
            found.insert(0, (site, why, trained))
        for each, because, runs in found:
            finding = self._finding(facts, options, each, because, runs)
            if finding is not None:
                yield finding

    def _finding(
        self, facts: FileFacts, options: Mapping[str, Any], site: Site, why: str, trained: list[Site]
    ) -> Diagnostic | None:
        """The finding on *site*, the evidence *why*, the policy speeding *trained*; None where the
        saving is immaterial or the advice cannot be followed."""
        work = work_j(trained)
        saving = share_of(work, SPEED_UP_SHARE)
        if immaterial_saving(saving, options):
            return None
        graph = site.api.startswith(TF1_PREFIX) or _estimator_train(site.api)  # a model_fn's graph
        custom = not is_keras_model_method(site.api, ("fit", "fit_generator"))
        if custom and (any(w in facts.text for w in GRAPH_CHOSEN) or _chosen_beside(facts.path)):
            return None
        tf = target(facts.path, str(options.get(TF_VERSION.key) or ""))
        flavour = keras_flavour(facts, tf)
        keras2 = flavour.multi_backend and not graph
        rewrite = keras2 and bool(options.get("multi-backend-rewrite", False)) and _graph_rewrite_serves(facts, tf)
        port = keras2 and not rewrite and bool(options.get("multi-backend-port", False))
        if (keras2 and not (rewrite or port)) or (not keras2 and tf.older_than(1, 14)) or cpu_only(facts.path):
            return None
        if not (keras2 or graph) and tf.older_than(2, 4) and _clips(facts):
            return None
        device = gpu_spec(facts.device) if facts.device is not None else None
        if device is not None and not device.tensor_cores:
            return None
        if rewrite:
            message, help_line = self.MESSAGE_KERAS2.format(keras=flavour.basis), self.HELP_KERAS2
        elif port:
            message, help_line = self.MESSAGE_PORT.format(keras=flavour.basis), self.HELP_PORT
        elif graph:
            help_line = self.HELP_GRAPH
            gradients = self.UNSCALED_GRADIENTS if _raw_gradients(facts) else ""
            message = (
                self.MESSAGE_GRAPH.format(gradients=gradients)
                if device is None
                else self.MESSAGE_GRAPH_ON.format(
                    gradients=gradients, device=device.name, capability=device.compute_capability
                )
            )
        else:
            advice = _advice(facts, tf, _own_step(facts, site))
            call = _policy_call(facts, tf)
            policy = "mixed_bfloat16" if _on_tpu(facts) else "mixed_float16"
            help_line = self.HELP_POLICY.format(call=call, policy=policy) if call else self.HELP_GRAPH
            message = (
                self.MESSAGE.format(advice=advice)
                if device is None
                else self.MESSAGE_ON.format(advice=advice, device=device.name, capability=device.compute_capability)
            )
        label = site.prediction.label
        priced = self.SAVING.format(saving=saving_clause(work, SPEED_UP_SHARE, label)) if work is not None else ""
        at = _wrapped_optimizer(facts, site) if graph and not rewrite else site
        data = {} if help_line == self.FIX_TITLE else {"help": help_line}
        return self.diagnostic(at.callsite.span, facts.path, f"{message}: {why}{priced}", data=data)

def _trains(site: Site) -> bool:
    """One training step or a whole training, run where the call is: Keras' `fit`,
    `fit_generator` and `train_on_batch`, an eager custom step (`apply_gradients`, a model's call
    under a `GradientTape`), and what the analysis found to run one (a TF1 `Session.run` fetching
    an optimizer's update, a `tf.function` whose traced body trains), an Estimator's `train`; not a call that only builds
    a graph (a TF1 update, a step inside a `tf.function`), whose work runs where the graph does."""
    return (is_training_step(site) or _estimator_train(site.api)) and site.work_value("symbolic") is not True \
        and not site.api.startswith(TF1_TRAIN)


def _wrapped_optimizer(facts: FileFacts, site: Site) -> Site:
    """Where the graph advice for a TF1 session's run of an update goes: the first TF1 optimizer
    (`opt = tf.compat.v1.train.MomentumOptimizer(lr, 0.9)`) constructed before the run in the function
    (or script, or notebook cell) that runs it, the optimizer the rewrite wraps; where that scope constructs
    none, the first one the class whose method runs it constructs (a model class building its updates in
    `build_model` and running them in `train`); the run itself where neither does (its optimizer built in
    another function or module, or *site* not a session's run)."""
    call = facts.node(site)
    if call is None or not site.api.endswith("Session.run"):
        return site
    cell, line = site.callsite.span.cell, site.callsite.span.line
    scope = enclosing(facts, call, cell)
    built = sorted(
        (s for s in facts.sites if s.callsite.span.cell == cell
         and s.api.startswith(TF1_TRAIN) and s.api.rsplit(".", 1)[-1].endswith("Optimizer")),
        key=lambda s: s.callsite.span.line,
    )
    nodes = [(s, node) for s in built if (node := facts.node(s)) is not None]
    here = next((s for s, node in nodes if s.callsite.span.line < line and enclosing(facts, node, cell) is scope), None)
    owner = next((p for p in facts.ancestors(call, cell) if isinstance(p, ast.ClassDef)), None)
    in_class = (s for s, node in nodes if owner is not None and any(p is owner for p in facts.ancestors(node, cell)))
    return here or next(in_class, site)


def _raw_gradients(facts: FileFacts) -> bool:
    """The TF1 updates apply gradients taken with `tf.gradients`: the file calls `tf.gradients` and
    an optimizer's `apply_gradients`, and no optimizer's `compute_gradients` or `minimize` (a
    gradient penalty taken with `tf.gradients` inside a loss that `minimize` scales needs nothing);
    or a function of a project module it imports that it calls does (BERT's
    `optimization.create_optimizer`, which builds the update its `model_fn` returns)."""
    names = {s.api.rsplit(".", 1)[-1] for s in facts.sites if s.api.startswith(TF1_TRAIN)}
    if "apply_gradients" in names and not names & GRADIENTS_SCALED and any(s.api in RAW_GRADIENTS for s in facts.sites):
        return True
    return any(_applies_raw_gradients(node) for node in imported_definitions(facts))


def _applies_raw_gradients(definition: ast.AST) -> bool:
    """*definition* (a project function or class) calls `tf.gradients` (or `tf.compat.v1.gradients`)
    and `apply_gradients`, and no `compute_gradients` or `minimize`: read from its text, as the
    resolver does not walk a module the file imports."""
    called = [node.func for node in ast.walk(definition) if isinstance(node, ast.Call)]
    names = {last_name(func) for func in called}
    return "apply_gradients" in names and not names & GRADIENTS_SCALED \
        and any(ast.unparse(func) in RAW_GRADIENT_CALLS for func in called)


def _estimator_train(api: str) -> bool:
    """An Estimator's `train()` (`tf.estimator.Estimator`, TPUEstimator, `model_to_estimator`'s): the
    training steps of its `model_fn`, run there."""
    return estimator_method(api) and api.rpartition(".")[2] == "train"


def _advice(facts: FileFacts, tf: TargetVersion, own_step: str) -> str:
    """The switch the program's Keras has: before TensorFlow 2.1, no Keras policy but the graph
    rewrite around its optimizer (TF 1.14-2.0, loss scaling included); the policy, experimental in
    2.1-2.3, set before the model is built; and where the program computes its own gradients
    (*own_step*: "" for Keras' own step), the float16 loss scale it must apply itself (the
    rewrite's optimizer scales the loss in its `minimize` alone, not for a `GradientTape`)."""
    if tf.version is not None and tf.older_than(2, 1):
        major, minor = tf.version
        rewrite = (
            f"TensorFlow {major}.{'x' if minor == 99 else minor}, {tf.basis}, has none: wrap the optimizer in"
            " `tf.train.experimental.enable_mixed_precision_graph_rewrite`, which adds loss scaling"
        )
        return rewrite + (f", {own_step} computing its gradients through its `minimize`" if own_step else "")
    package = TF_KERAS_PACKAGE.search(facts.text)
    policy = '"mixed_bfloat16")` on its TPU, `"mixed_float16"` on a GPU,' if _on_tpu(facts) else '"mixed_float16")`'
    advice = f"`{_policy_call(facts, tf)}({policy} before the model is built"
    if (tf.version is None or not tf.stated) and _clips(facts):
        advice += CLIPPING_NEEDS
    if own_step:
        scaling = (
            "`get_scaled_loss` before the gradient and `get_unscaled_gradients` after it"
            if tf.older_than(2, 16) or package or LEGACY_KERAS.search(facts.text) or KERAS_2_ONLY.search(facts.text)
            or beside_mentions(facts.path, KERAS_2_ONLY)
            else "`scale_loss` before the gradient"
        )
        advice += f", {own_step} scaling its loss with a `LossScaleOptimizer`'s {scaling}, which `mixed_bfloat16` does not need"
    return advice


def _policy_call(facts: FileFacts, tf: TargetVersion) -> str:
    """The call that sets the program's Keras policy (`tf.keras.mixed_precision.set_global_policy`,
    `experimental.set_policy` before TensorFlow 2.4); "" before 2.1, which has none."""
    if tf.version is not None and tf.older_than(2, 1):
        return ""
    standalone = STANDALONE_KERAS.search(facts.text) and not any(w in facts.text for w in TF_KERAS_WORDS)
    package = TF_KERAS_PACKAGE.search(facts.text)
    keras = "tf_keras" if package else "keras" if standalone and not tf.older_than(*KERAS_MIXED_PRECISION) else "tf.keras"
    call = "experimental.set_policy" if tf.older_than(2, 4) else "set_global_policy"
    return f"{keras}.mixed_precision.{call}"


def _clips(facts: FileFacts) -> bool:
    """The file gives a Keras optimizer gradient clipping (`clipnorm=` or `clipvalue=`, any value
    but None written): before TensorFlow 2.4, the `LossScaleOptimizer` that a mixed policy's
    `compile`, a custom step's loss scaling and the graph rewrite of a Keras optimizer wrap it in
    raises for such an optimizer (1.15 to 2.3; from 2.4 it applies the inner optimizer's clipping
    to the unscaled gradients)."""
    return any(
        keyword.arg in CLIPPING and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        for cell, _ in cell_units(facts)
        for call in facts.nodes(cell, ast.Call)
        for keyword in call.keywords
    )


def _on_tpu(facts: FileFacts) -> bool:
    """The file can train on a TPU (it builds a `TPUStrategy` or resolves a TPU cluster), whose
    policy is `mixed_bfloat16`: float16 is not the TPU's type, and TensorFlow's
    `LossScaleOptimizer` raises under `TPUStrategy`."""
    return any(word in facts.text for word in TPU_WORDS)


def _own_step(facts: FileFacts, site: Site) -> str:
    """Where the program computes its gradients itself, which Keras' loss scaling does not reach:
    "its step" for a custom step (not `fit`, `fit_generator` or `train_on_batch`); "its
    `train_step`" for a Keras step where a class of the file, or one the file calls from a
    project module it imports, overrides `train_step` (under `mixed_float16`, `compile` wraps the
    optimizer in a `LossScaleOptimizer`: an override that does not scale its loss gets float16
    gradients that may underflow on tf.keras 2, and on Keras 3, whose `apply` divides them by the
    loss scale, gradients 2^15 times too small at first); "" otherwise."""
    if not is_keras_model_method(site.api, KERAS_STEPS):
        return "its step"
    classes = [node for cell in facts.cells for node in facts.nodes(cell, ast.ClassDef)]
    overrides = any(_model_step(node) for node in (*classes, *imported_definitions(facts)))
    return "its `train_step`" if overrides else ""


def _model_step(node: ast.AST) -> bool:
    """*node* is a class with its own `train_step` that may be a Keras model: one with a base other
    than `object` (a trainer object's `train_step`, `class Train(object)`, is its custom loop's
    step, which a `fit` never calls)."""
    return isinstance(node, ast.ClassDef) and has_method(node, "train_step") and any(
        not (isinstance(base, ast.Name) and base.id == "object") for base in node.bases
    )


def _on_host(facts: FileFacts, site: Site) -> bool:
    """The training call runs inside a `with tf.device("/cpu:0"):` block: on the host, where
    float16 is emulated and slower."""
    call = facts.node(site)
    return call is not None and placed_on_host(facts, call, site.callsite.span.cell)


def _graph_rewrite_serves(facts: FileFacts, tf: TargetVersion) -> bool:
    """TensorFlow 1's graph rewrite can serve a training on multi-backend Keras 2: the project's
    TensorFlow is 1.14 or 1.15 (or not pinned), and the file never sets its optimizer's learning
    rate during the training (a `ReduceLROnPlateau` or `LearningRateScheduler` callback,
    `K.set_value(model.optimizer.lr, ...)`), which Keras' wrapper of a `tf.train` optimizer has
    no `lr` for, nor clips its gradients through a Keras optimizer (`clipnorm=`, `clipvalue=`),
    which a `tf.train` optimizer has no argument for."""
    if tf.older_than(1, 14) or (tf.stated and not tf.older_than(2, 0)):
        return False
    return not any(word in facts.text for word in LEARNING_RATE_SETTERS) and not _clips(facts)


def _given_trainers(facts: FileFacts, trainings: list[Site], chosen: Site | None) -> list[tuple[Site, str]]:
    """The first training of each class of the file (a trainer: `Trainer.train` running its
    `train_step`) that trains the model its users build (`given_model`: a script beside it passes
    `edsr()` to the class, or to a subclass the file defines), with why; none in the class of the
    *chosen* finding, whose evidence is the file's own. Each such class is a change of its own: its
    step scales its own loss, and its model is not the one the file's evidence names."""
    owners: dict[str, Site] = {}
    for site in trainings:
        call = facts.node(site)
        owner = enclosing(facts, call, site.callsite.span.cell, (ast.ClassDef,)) if call is not None else None
        if isinstance(owner, ast.ClassDef):
            owners.setdefault(owner.name, site)
    if chosen is not None and (call := facts.node(chosen)) is not None:
        owner = enclosing(facts, call, chosen.callsite.span.cell, (ast.ClassDef,))
        if isinstance(owner, ast.ClassDef):
            owners.pop(owner.name, None)
    given = []
    for name, site in owners.items():
        if why := given_model(facts.path, with_derived(facts, name)):
            given.append((site, why))
    return given


def _named_model(facts: FileFacts, site: Site) -> str:
    """Why a TF1 graph's update trains a large model: the class or function that builds it is the
    model itself, named after a large public architecture (`class Transformer:` whose `train`
    method calls `minimize`, `def build_resnet50(...)`); "" otherwise (a `TransformerBlock` class
    is a layer of any size, and its name does not match)."""
    call = facts.node(site)
    if call is None:
        return ""
    for parent in facts.ancestors(call, site.callsite.span.cell):
        if isinstance(parent, ast.ClassDef) and (word := architecture(parent.name.lower())):
            return f"the update trains the graph of class {parent.name}, named after the {word} architecture"
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and (word := factory_architecture(parent.name)):
            return f"the update trains the graph {parent.name}() builds, named after the {word} architecture"
    return ""


def _chosen_beside(path: str) -> bool:
    """A module beside the file (its directory's other Python files, where a TF1 project's trainer
    usually builds the session, and the script that drives a trainer object's custom step sets
    the Keras policy) chooses the precision: the graph rewrite may wrap this optimizer there, the
    session's config turn on `auto_mixed_precision`, or the driver set a mixed policy."""
    return beside_mentions(path, PRECISION_CHOSEN)


def _model_known(site: Site) -> bool:
    """The training's model is known layer by layer (its parameters exact, not a lower bound): whether it
    holds a large backbone the file builds is then known too, and its own work (`large_step`) decides (a
    decoder trained on features a pretrained CNN computed elsewhere in the file holds none of it)."""
    params = site.work_value("params")
    return isinstance(params, int) and not isinstance(params, bool) and params > 0 and not site.work_lower("params")


def _after(trainings: list[Site], where: tuple[int, int], notebook: bool) -> Site | None:
    """The training at or after where the large model is built that the program runs most (where
    each one's runs are counted: a TF1 loop's every-step run, not the one under `if step % 1000 == 0`
    that also writes summaries), else the first: a notebook's cells run in order, so only a later
    one trains it; a script's fit may sit in a function defined above the build, so its first
    training stands in where none follows."""
    later = [s for s in trainings if (s.callsite.span.cell or 0, s.callsite.span.line) >= where]
    if not later:
        return None if notebook else trainings[0]
    counts = [count for s in later if isinstance(count := s.callsite.runs.count, int)]
    return later[counts.index(max(counts))] if len(counts) == len(later) else later[0]


def input_bound(facts: FileFacts, site: Site) -> bool:
    """The fit waits for one host thread that reads or warps its batches (a `Sequence` such as
    `ImageDataGenerator.flow_from_directory` in one worker, a generator decoding files) and its
    model is known to do less than `HIDING_FLOPS` forward FLOPs per input element (a small CNN on
    JPEGs): its step may be input-bound, and faster arithmetic on the device shortens no wait. A model of
    unknown FLOPs per element, or known only in part (a lower bound), is not taken as input-bound: an
    architecture named says nothing of its size per element, and the constant's device time is the
    peak's, which a float32 step runs far below."""
    per_element = flops_per_element(site)
    if not is_keras_model_method(site.api, ("fit", "fit_generator")) or per_element is None \
            or per_element >= HIDING_FLOPS or site.work_lower("flops_per_sample"):
        return False
    if fed_in_one_worker(facts, site) is not None:
        return True
    call = facts.node(site)
    return bool(site.features.get("input_host_work")) and call is not None and worker_setting(facts, site, call) is not None


def _forwards(facts: FileFacts, site: Site) -> bool:
    """The fit passes on `**kwargs` it was given: a wrapper whose caller owns the model."""
    call = facts.node(site)
    return call is not None and any(k.arg is None for k in call.keywords)
