"""A call site as rules read it (`Site`: the analysis' `CallSite` with its `Prediction`) and the
judgements of a site's API that rules, `calls` and `diff` share (`is_test_assertion`, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from greenlint.analysis.callsite import UNSAID, CallSite
from greenlint.analysis.runs import option_defaults
from greenlint.predict.prediction import Prediction
from greenlint.predict.work_energy import training_passes
from greenlint.units import fmt_count


@dataclass(frozen=True)
class Site:
    """A call site with its prediction: what rules read."""

    callsite: CallSite
    prediction: Prediction

    @property
    def api(self) -> str:
        return self.callsite.api

    @property
    def features(self) -> dict:
        return self.callsite.features

    def work_value(self, key: str) -> Any:
        """A work quantity of the call (docs/calls-json.md `work`), else its literal argument."""
        entry = self.callsite.work.get(key)
        value = None if entry is None else entry.value
        return value if value is not None else self.features.get(key)

    def training_passes(self) -> float:
        """Forward passes' worth of FLOPs a trained sample of the call costs (work_energy.py
        `training_passes`: fewer than TRAINING_FLOPS where the analysis found layers frozen)."""
        return training_passes({key: self.work_value(key) for key in ("flops_per_sample", "backward_flops_per_sample")})

    def work_bound(self, key: str) -> str | None:
        """A work quantity's bound: "lower" (the known part of a model with unknown layers), "upper"
        (epochs early stopping may cut short), None for a value as it is."""
        entry = self.callsite.work.get(key)
        return None if entry is None else entry.bound

    def work_lower(self, key: str) -> bool:
        """The work quantity is the known part of a model with unknown layers (a lower bound)."""
        return self.work_bound(key) == "lower"

    @property
    def program_runs(self) -> int:
        """How often the site runs per program run: `CallSite.runs` (loops, `if`/`break`, calls of
        its function); where that count is unknown, `literal_loops`."""
        count = self.callsite.runs.count
        if isinstance(count, int) and count > 0:
            return count
        value = self.literal_loops
        return value if isinstance(value, int) and value > 0 else 1

    @property
    def literal_loops(self) -> Any:
        """The product of the literal trip counts of the loops around the call in its own function
        (`features.loop_multiplier`; 1 outside loops): not how often the site runs (`program_runs`)."""
        return self.features.get("loop_multiplier", 1)

    @property
    def untyped(self) -> bool:
        """The receiver was not resolved: the site is taken for the Keras/TF method of its name
        (analysis/untyped.py), which another library's object may also have."""
        return self.features.get("receiver_kind") == "untyped"

    @property
    def runs_bound(self) -> str:
        """ "exact" or "upper" (a guarded call, early stopping's loop: at most `program_runs`),
        "unknown" when `program_runs` fell back to the literal loops."""
        return self.callsite.runs.bound if self.callsite.counted else "unknown"

    @property
    def loop_runs(self) -> int | None:
        """How often loops alone run the site (`CallSite.runs.loop`: its enclosing loops and
        those around the calls of its function); 1 outside loops, None for a loop of unknown
        length. Where its runs do not say their `loop`, the literal loops of its own function (None
        when they multiply to 1: a loop, its length not said)."""
        loop = self.callsite.runs.loop
        if loop is not UNSAID:
            return loop if isinstance(loop, int) or loop is None else 1
        depth = self.features.get("loop_depth", 0)
        if not (isinstance(depth, int) and depth > 0):
            return 1
        value = self.literal_loops
        known = isinstance(value, int) and value > 1 and not self.features.get("loop_unbounded")
        return value if known else None

    @property
    def callers(self) -> int | None:
        """How many calls of its function run the site (`CallSite.runs.callers`; None: unknown)."""
        callers = self.callsite.runs.callers
        return callers if isinstance(callers, int) else None

    def repeats(self, same: tuple[str, ...] | None = None) -> bool:
        """A loop runs the site again and again (more than one trip, or an unknown number; not
        only because its function is called from several places) with the same inputs: all of
        them (*same* None: its variable reaches neither the receiver nor the arguments, and
        `for dtype in dtypes: tf.constant(x, dtype=dtype)` makes a different tensor each time),
        or those in *same* ("receiver", parameter names) while the others may differ
        (`model.predict(batch)` over batches repeats predict on one model).
        `CallSite.runs.varying` says, per loop, which inputs its variable reaches."""
        loop = self.loop_runs
        if loop is not None and loop <= 1:
            return False
        loops = self.callsite.runs.varying
        if not loops:
            return True
        kept = None if same is None else set(same)
        return any(not names if kept is None else not kept.intersection(names) for names in loops)

    def runs_reason(self) -> str:
        """Why the site runs `program_runs` times, to follow "N runs": "in a loop", "as its
        function is called from N places", both, or "" when neither says."""
        loop, callers = self.loop_runs, self.callers
        looped = loop is None or loop > 1
        called = f"its function is called from {callers} places" if (callers or 0) > 1 else ""
        if looped and called:
            return f"in a loop, and {called}"
        return "in a loop" if looped else f"as {called}" if called else ""

    def loop_times(self) -> str:
        """` (100 times)`, ` (at most 100 times)`, ` (16,000 times: the default of `--samples`)`: how
        often loops run the site (a count read from a command-line option's default says so); "" when unknown."""
        loop = self.loop_runs
        if loop is None or loop <= 1:
            return ""
        upper = (self.callsite.runs.loop_bound or self.runs_bound) == "upper"
        option = self.callsite.runs.loop_option
        where = f": {option_defaults(option)}" if option else ""
        return f" ({'at most ' if upper else ''}{fmt_count(loop)} times{where})"

    @property
    def total_energy_j(self) -> float | None:
        """Predicted joules per execution (the predictor's contract) times how often it runs."""
        e = self.prediction.energy_j
        return None if e is None else e * self.program_runs


def judged(sites: Any) -> tuple[Site, ...]:
    """The sites the rules judge: all but a call of the file's own function listed as the TF call it
    makes (`features.via_here`, analysis/wrappers.py): that call is a site of the file too, which the
    rules judge, through its function's callers where they look there, once."""
    return tuple(site for site in sites if not site.features.get("via_here"))


def method(api: str) -> str:
    """`tensorflow.keras.Model.fit` -> `fit`."""
    return api.rsplit(".", 1)[-1]


def is_keras_model_method(api: str, names: tuple[str, ...]) -> bool:
    """A Keras model method (Model, Sequential, or a user subclass resolved to them)."""
    owner, _, name = api.rpartition(".")
    return (
        name in names
        and owner.startswith("tensorflow.keras")
        and owner.rsplit(".", 1)[-1]
        in (
            "Model",
            "Sequential",
            "Functional",
        )
    )


#: Test-framework assertions: checks in tests, not the program's energy (excluded from `calls` and GL101).
TEST_ASSERTION_CLASSES = ("tensorflow.test.TestCase",)


def is_test_assertion(api: str) -> bool:
    """`tensorflow.test.TestCase.assertAllClose` and the other `assert*` helpers of test cases."""
    owner, _, name = api.rpartition(".")
    return name.startswith("assert") and owner in TEST_ASSERTION_CLASSES


DATASET = "tensorflow.data.Dataset"


def is_dataset_method(api: str, name: str) -> bool:
    """`Dataset.<name>` called on any `tf.data` dataset: `tf.data.Dataset` itself or a subclass
    that inherits the method (`TFRecordDataset(files).map(...)`)."""
    owner, _, called = api.rpartition(".")
    if called != name or owner == DATASET:
        return called == name
    from greenlint.catalog.catalog import load_catalog  # on first need: a warm run loads no catalog

    return load_catalog().is_subclass(owner, DATASET)
