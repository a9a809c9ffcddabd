"""What every prediction path reads: the model, the API hierarchy, the GPU a user named and this
machine's calibration overlay (pooled on first use, with the time and op models fitted on it); and
what the paths share: a call's figure from its work, a group's energy shares, why a reference figure
is rescaled here. `predictor.Predictor` is a Context that picks the path for each call.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import replace

from greenlint.predict.calibration import NOISE_SD, Overlay, rescale_note
from greenlint.predict.devices import REFERENCE_DEVICE, DeviceModel, GpuSpec, kb_device_model
from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.local_work import local_ops, local_work
from greenlint.predict.work_energy import derive, one_batch, time_group, time_of
from greenlint.predict.work_figures import Span, from_work, unknown_size_floor


class Context:
    """The predictor's inputs (see the module docstring); no path is chosen here."""

    def __init__(self, model: dict, *, model_bytes: bytes | None = None, overlay: Overlay | None = None,
                 hierarchy: Hierarchy | None = None, device: GpuSpec | None = None,
                 device_model: DeviceModel | None = None):
        self.model = model
        self.device = device  # the GPU the user told (`--device`): work of known FLOPs priced on it (devices.py)
        self.device_model = device_model or kb_device_model(model)  # its constants: the work model's (devices.py)
        self.raw_overlay = overlay  # as read; `overlay` is it under the pooled API names
        self._overlay: Overlay | None = None
        self.hierarchy = hierarchy or Hierarchy()  # loads the catalog only when an unseen API needs it
        digest = hashlib.sha256(model_bytes if model_bytes is not None else repr(model).encode())
        if overlay is not None:
            digest.update(overlay.fingerprint.encode())
        if device is not None:
            digest.update(repr((device, self.device_model)).encode())
        self.fingerprint = digest.hexdigest()[:16]

    @property
    def overlay(self) -> Overlay | None:
        """This machine's calibration under the names APIs are looked up by (pooled once, on first use)."""
        if self._overlay is None and self.raw_overlay is not None:
            ov = self.raw_overlay.pooled(self.hierarchy.pooled, self.model, self._work_time)
            done = [m for ms in ov.measured.values() for m in ms]
            joules, spread = {m.workload: m.per_call_j for m in done}, {m.workload: m.sd for m in done}
            reference = (self.model.get("work") or {}).get("time") or {}
            ops = local_ops(ov.timed, joules, lambda api: self.hierarchy.kind(api) == "tensor-op", spread, NOISE_SD)
            local = local_work(ov.timed, joules, ov.first_s, self._group_of, spread, NOISE_SD,
                               ov.first_j, ops["per_flop"] if ops else None) or {"time": {}, "power": {}}
            for group, fitted in local["time"].items():  # a data pass's FLOPs: a typical call's, not the tiny workloads'
                typical = reference.get(group, {}).get("flops_per_step")
                fitted["flops_per_step"] = typical or fitted["flops_per_step"]
            if ops is not None:
                local["ops"] = ops
            self._overlay = replace(ov, local=local if local["time"] or ops or local.get("refused") else None)
        return self._overlay

    def _group_of(self, api: str, features: dict) -> str | None:
        """The time group (`work_energy.time_group`) of a call of *api* with *features*."""
        return time_group(self.hierarchy.kind(api), api, features)

    def _work_time(self, api: str, features: dict) -> float | None:
        """Seconds the reference machine's time model gives a repeated call of this work, past the
        first call's start-up (calibration times warmed-up calls); None without a time model."""
        group = time_group(self.hierarchy.kind(api), api, features)
        model = ((self.model.get("work") or {}).get("time") or {}).get(group)
        if group is None or model is None:
            return None
        n, flops = derive(group, one_batch(api, features))
        return time_of(model, n, flops, start=False) if n else None

    @functools.cached_property
    def rescale_note(self) -> str:
        """Why a reference figure is rescaled here (the same for every call: worked out once)."""
        ov = self.overlay
        return rescale_note(ov, self.model) if ov is not None else ""

    def from_work(self, api: str, features: dict, work: dict | None = None,
                  half: float | None = None) -> Span | None:
        """`work_figures.from_work` of the reference work model and its calibrated half-width (or
        *work*, *half*: another one, this machine's `local_work`), on the GPU the user named, else
        the reference model's own (`devices.REFERENCE_DEVICE`; none for this machine's)."""
        device = self.device or (REFERENCE_DEVICE if work is None else None)
        work = work if work is not None else self.model.get("work") or {}
        kind = self.hierarchy.kind(api)
        half = self.model["calibration"].get("work_half") if half is None else half
        return from_work(work, half, kind, api, features, device, self.device_model)

    def unknown_size_floor(self, api: str, features: dict, work: dict | None = None,
                           half: float | None = None) -> Span | None:
        """`work_figures.unknown_size_floor` of the reference work model (or *work*, *half*, as in `from_work`)."""
        work = work if work is not None else self.model.get("work") or {}
        half = self.model["calibration"].get("work_half") if half is None else half
        return unknown_size_floor(work, half, self.hierarchy.kind(api), api, features)

    def group_shares(self, api: str) -> dict:
        """CPU/GPU/DRAM shares of the nearest group with any measurable call (censored APIs have none)."""
        for level, key in self.hierarchy.chain(api):
            g = self.model["groups"].get(level, {}).get(key)
            if g and g.get("shares"):
                return g["shares"]
        return {}
