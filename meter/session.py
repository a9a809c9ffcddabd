"""One metering session: sources, a fast sampler, stability waits and record building together.

Used by the instrumented script's runtime (`greenlint measure`), by `greenlint calibrate` and by
the Keras `EnergyCallback`, so that all three measure the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from greenlint.hardware import hardware_block
from greenlint.meter.counters import ORDER, SourceSet, build_sources
from greenlint.meter.records import build_record
from greenlint.meter.sampler import DEFAULT_INTERVAL_S, Sampler
from greenlint.meter.stability import StabilitySettings, StableState, wait_until_stable
from greenlint.window import CallEnergy, record_energy


@dataclass(frozen=True)
class MeterConfig:
    interval_s: float = DEFAULT_INTERVAL_S
    stability: StabilitySettings = field(default_factory=StabilitySettings)
    after_s: float = 0.5  # rows kept after each call (FECoM keeps 30 s for its lag analysis)
    sources: tuple[str, ...] = ORDER
    allow_estimate: bool = True
    tdp_w: float | None = None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> MeterConfig:
        d = dict(d)
        d["stability"] = StabilitySettings(**d.get("stability", {}))
        d["sources"] = tuple(d.get("sources", ORDER))
        return cls(**d)


@dataclass(frozen=True)
class Clock:
    """Where a session reads the time and waits: the machine's clocks (the default), or a simulated
    machine's (tests), whose time moves only as its calls and waits spend it: *drive* is then handed
    the session's sampler, to take its readings as that time passes (no sampler thread)."""

    seconds: Callable[[], float] = time.perf_counter  # durations: the finest clock
    epoch_ns: Callable[[], int] = time.time_ns
    sleep: Callable[[float], None] = time.sleep
    drive: Callable[[Sampler], None] | None = None


#: The machine's own clocks.
MACHINE = Clock()


class MeterSession:
    def __init__(
        self,
        config: MeterConfig = MeterConfig(),
        sources: SourceSet | None = None,
        *,
        clock: Clock = MACHINE,
    ):
        self.config = config
        self.sources = sources or build_sources(
            config.sources,
            allow_estimate=config.allow_estimate,
            options={"estimated": {"tdp_w": config.tdp_w}},
        )
        self.sampler = Sampler(self.sources.read, config.interval_s)
        self.hardware = hardware_block()
        self.stable: StableState | None = None
        self.clock = clock
        if clock.drive is not None:
            clock.drive(self.sampler)

    @property
    def estimated(self) -> bool:
        return self.sources.estimated

    def start(self, *, thread: bool = True) -> StableState:
        self.sampler.start() if thread else self.sampler.sample_once()
        return self.wait_stable()

    def wait_stable(self) -> StableState:
        checked = tuple(c for c, src in self.sources.covers.items() if not src.estimated)
        self.stable = wait_until_stable(
            self.sampler, self.config.stability, clock=self.clock.seconds, sleep=self.clock.sleep,
            components=checked, epoch_ns=self.clock.epoch_ns,
        )
        return self.stable

    def stop(self) -> None:
        self.sampler.stop()
        self.sources.close()

    def meter_block(self, **extra) -> dict:
        return {
            **self.sources.describe(),
            "sampler_interval_s": self.config.interval_s,
            "sampler_error": self.sampler.error,
            **extra,
        }

    def record(self, signature: str, start_ns: int, end_ns: int, *, input_sizes=None, line=None, **meter) -> dict:
        """A measurement record for [start_ns, end_ns]; needs readings up to end + after_s."""
        return build_record(
            signature,
            self.sampler,
            self.stable,
            start_ns,
            end_ns,
            settings=self.config.stability,
            after_s=self.config.after_s,
            input_sizes=input_sizes or {},
            hardware=self.hardware,
            meter=self.meter_block(**meter),
            line=line,
        )

    @staticmethod
    def energy(record: dict) -> CallEnergy:
        (body,) = record.values()
        return record_energy(body)
