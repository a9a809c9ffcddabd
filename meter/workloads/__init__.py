"""The bundled calibration suite: small, self-contained TF workloads on synthetic data.

Each workload names the canonical API it measures and a `setup` that builds everything the call
needs (imports TF lazily) and returns the call as (function, args, kwargs), so the calibrator can
time the call alone, repeat it, and record FECoM's input sizes exactly as `greenlint measure` does.
`quick` workloads form `greenlint calibrate --quick` (under 5 minutes on a 2-core CPU machine).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    func: Callable
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __call__(self):
        return self.func(*self.args, **self.kwargs)


@dataclass(frozen=True)
class Workload:
    name: str
    api: str
    setup: Callable[[], Call]
    quick: bool = False
    features: dict[str, Any] = field(default_factory=dict)
    #: The workloads one of this machine's models is fitted on together (greenlint.predict.local_work:
    #: `fit`, a pass over data, tensor ops): measured as one block, their repeats interleaved
    #: (meter.calibrate.blocks); None: a block of its API's workloads.
    sweep: str | None = None


def all_workloads() -> list[Workload]:
    from greenlint.meter.workloads import data, layers, models, ops

    suite = [*models.workloads(), *layers.workloads(), *data.workloads(), *ops.workloads()]
    names = [w.name for w in suite]
    if len(names) != len(set(names)):
        raise ValueError("duplicate workload names")
    return suite


def select(quick: bool, only: list[str] | None = None) -> list[Workload]:
    suite = all_workloads()
    if only:
        unknown = sorted(set(only) - {w.name for w in suite})
        if unknown:
            raise KeyError(f"unknown workload(s): {', '.join(unknown)}")
        return [w for w in suite if w.name in only]
    return [w for w in suite if w.quick or not quick]
