"""`EnergyCallback`: energy per epoch of a Keras training run and an online projection of the run.

Each epoch is one window of the meter: TensorFlow's devices synchronised, then the counters read
at its two ends, net of the stable-state baseline (`meter.boundary`, as `greenlint measure`).
After every epoch the completed epochs' net energies go to
`greenlint.predict.training_runs.project_run_energy`, which projects the whole run (`fit(epochs=...)`);
from the second epoch on the first (tracing) epoch is kept out of the per-epoch figures. Each
epoch is reported once: printed (`verbose`, the default) or else logged (logger
`greenlint.meter`); also added to Keras' `logs` (so `History` keeps them) and, with `log_file`,
appended as JSON lines. Energies are labelled estimated where no counter is readable.

Importing this module imports TensorFlow; `greenlint.meter.EnergyCallback` does so only on use.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path

import tensorflow as tf

from greenlint.meter.boundary import baseline_power, counters, window, window_net
from greenlint.meter.counters import SourceSet
from greenlint.meter.runtime import sync_devices
from greenlint.meter.session import MeterConfig, MeterSession
from greenlint.meter.stability import StabilitySettings
from greenlint.predict.training_runs import project_run_energy

log = logging.getLogger("greenlint.meter")

CALLBACK_CONFIG = MeterConfig(stability=StabilitySettings(max_wait_s=10.0))


def project_after_tracing(energies: list[float], times: list[float], total: int, *, stabilising_epoch: int = 10,
                          window: int = 5):
    """`project_run_energy` with the first epoch (tracing, compiling, warming caches) kept out of
    the per-epoch figures from the second epoch on: the run is epoch 1 as measured plus the
    projection of the other epochs."""
    if len(energies) < 2:
        return project_run_energy(energies, times, total, stabilising_epoch=stabilising_epoch, window=window)
    rest = project_run_energy(energies[1:], times[1:], max(total - 1, len(energies) - 1),
                              stabilising_epoch=max(stabilising_epoch - 1, 0), window=window)
    lo, hi = rest.interval_j
    return replace(rest, energy_j=energies[0] + rest.energy_j, interval_j=(energies[0] + lo, energies[0] + hi),
                   power_based_j=energies[0] + rest.power_based_j, epoch_based_j=energies[0] + rest.epoch_based_j,
                   expected_time_s=times[0] + rest.expected_time_s, completed_epochs=len(energies), total_epochs=total,
                   window_epochs=(rest.window_epochs[0] + 1, rest.window_epochs[1] + 1))


class EnergyCallback(tf.keras.callbacks.Callback):
    def __init__(
        self,
        *,
        config: MeterConfig = CALLBACK_CONFIG,
        sources: SourceSet | None = None,
        total_epochs: int | None = None,
        log_file: str | Path | None = None,
        verbose: bool = True,
        stabilising_epoch: int = 10,
        window: int = 5,
    ):
        super().__init__()
        self.config, self._sources = config, sources
        self.total_epochs = total_epochs
        self.log_file = Path(log_file) if log_file else None
        self.verbose = verbose
        self.stabilising_epoch, self.window = stabilising_epoch, window
        self.session: MeterSession | None = None
        self.epochs: list[dict] = []
        self._start = 0

    def on_train_begin(self, logs=None):
        self.session = MeterSession(self.config, self._sources)
        stable = self.session.start()
        self.epochs = []
        samples = self.session.sampler.samples
        self._base = baseline_power(samples, stable.window)
        self._counters = counters(samples[stable.window[0]:stable.window[1]], self.session.sources.covers)
        if not stable.stable:
            log.info("training started before a stable state: %s", "; ".join(stable.reasons))

    def on_epoch_begin(self, epoch, logs=None):
        sync_devices()
        self._start, self._before = self.session.sources.read_at()

    def on_epoch_end(self, epoch, logs=None):
        sync_devices()
        end, after = self.session.sources.read_at()
        session = self.session
        w = window(self._before, after, self._start, end)
        gross = sum(w.gross_j.values()) if w.gross_j else None
        net = window_net(w, self._base, self._counters)
        seconds = w.seconds
        total = self.total_epochs or (self.params or {}).get("epochs") or epoch + 1
        row = {"epoch": epoch, "seconds": seconds, "net_j": net, "gross_j": gross,
               "basis": "not-measured" if net is None else "estimated" if session.estimated else "measured"}
        self.epochs.append(row)
        proj = None
        if all(r["net_j"] is not None for r in self.epochs):
            proj = project_after_tracing([r["net_j"] for r in self.epochs], [r["seconds"] for r in self.epochs],
                                         total, stabilising_epoch=self.stabilising_epoch, window=self.window)
        if proj is not None:
            row.update(projected_run_j=proj.energy_j, projected_interval_j=list(proj.interval_j),
                       projected_time_s=proj.expected_time_s, provisional=proj.provisional)
        if logs is not None and net is not None:
            logs["energy_j"] = net
            if proj is not None:
                logs["projected_run_energy_j"] = proj.energy_j
        self._report(row, total)

    def _report(self, row: dict, total: int) -> None:
        """One line per epoch, once: printed when `verbose`, otherwise logged (`greenlint.meter`)."""
        net = "not measured" if row["net_j"] is None else f"{row['net_j']:.4g} J"
        text = f"epoch {row['epoch'] + 1}/{total}: {net} ({row['basis']}) in {row['seconds']:.2f} s"
        if "projected_run_j" in row:
            lo, hi = row["projected_interval_j"]
            text += (f"; whole run projected {row['projected_run_j']:.4g} J [{lo:.4g}, {hi:.4g}]"
                     f"{' (provisional)' if row['provisional'] else ''}")
        if self.verbose:
            print(f"greenlint: {text}", flush=True)
        else:
            log.info(text)
        if self.log_file:
            with self.log_file.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")

    def on_train_end(self, logs=None):
        if self.session is not None:
            self.session.stop()
