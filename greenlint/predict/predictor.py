"""The shipped predictor: joules for one call site from the JSON model (and this machine's overlay).

Lookups are dictionary reads plus a little arithmetic: no numpy, no TensorFlow.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace

from greenlint.catalog.kinds import EXECUTE_IN_GRAPH_MODE, GRAPH_RUNS, NO_WORK_KINDS, TRACED_CALL
from greenlint.predict.batch_calls import batch_call_here, first_run_share
from greenlint.predict.calibration import NOISE_SD, Z80, Overlay, measured_here, on_this_machine
from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.tables import (
    MIN_GROUP_MEASURED,
    NEGLIGIBLE_MAX_TIME_S,
    SINGLE,
    feature_shift,
    interval_group,
    lookup,
)
from greenlint.predict.work_energy import (
    EXTRAPOLATION_SPREAD,
    FLOP_KINDS,
    ROOFLINE_HALF,
    WORK_KEYS,
    one_batch,
    power_for,
    roofline,
    time_group,
    unknown_size,
)
from greenlint.units import TIMES

#: Epochs assumed for measured `fit`-like calls whose records do not say how many they ran:
#: a typical value in the TensorFlow tutorials the public KB measured (5 to 100 epochs).
ASSUMED_EPOCHS = 10
#: Extra log10 spread (one sd) for that assumption: a factor of about 2.5 either way.
ASSUMED_EPOCHS_SD = 0.4
_EPOCH_KINDS = {"model-training"}
_EPOCH_METHODS = {"fit", "fit_generator", "train"}
#: Methods whose whole runs of a named architecture are priced from its FLOPs (`training_run`).
_RUN_METHODS = {"fit", "fit_generator"}
#: Features naming a model's size for `training_run`, dropped once turned into FLOPs per sample.
_ARCH_FEATURES = ("architecture", "gflops", "model")
#: Literal step counts that multiply a training call's work, scaled only against a measured reference.
_STEP_FEATURES = ("steps_per_epoch", "steps")
#: Features that say how much work a call does: without one, a never-measured API gets no figure.
_WORK_FEATURES = frozenset(WORK_KEYS) - {"model", "batch_size", "input_shape"} | {"tensor_bytes"}


class Predictor(Context):
    """`predict(api, features) -> Prediction`, per execution of the call (loops not folded in)."""

    _plain: Predictor | None = None

    def predict(self, api: str, features: dict | None = None) -> Prediction:
        pred = self._predict(api, features or {})
        ov = self.overlay
        return on_this_machine(ov, pred) if ov is not None else pred

    def _reference(self) -> Predictor:
        """This predictor without the overlay: the reference machine's figures."""
        if self._plain is None:
            self._plain = Predictor(self.model, model_bytes=b"", hierarchy=self.hierarchy)
        return self._plain

    def _predict(self, api: str, features: dict) -> Prediction:
        if isinstance(features.get("model"), str) and "architecture" not in features:
            features = {**features, "architecture": features["model"]}  # work's named model (a Keras Application)
        notes: list[str] = []
        pooled = self.hierarchy.pooled(api)
        if pooled != api:
            app = _application(api)
            if app and "architecture" not in features:
                features = {**features, "architecture": app}
            notes.append(f"as {pooled}: the work, not the model class, sets the cost")
            api = pooled
        if features.get("symbolic") is True:
            return Prediction.symbolic(symbolic_note(features))
        if features.get("in_tf_function") is True and self.hierarchy.kind(api) in NO_WORK_KINDS:
            return Prediction.symbolic("does no tensor work, in a tf.function's body: it runs when the function "
                                       "is traced, not each time the function is called (0 J per call)")
        if features.get("graph_mode"):  # a TF1 graph program: the work runs in Session.run
            if api in GRAPH_RUNS:
                return self._graph_run(api, features)
            if self.hierarchy.kind(api) not in EXECUTE_IN_GRAPH_MODE:
                return Prediction.symbolic(symbolic_note({"graph_mode": True}))
        run = self.training_run(api, features)
        if run is not None:
            return run
        if not self.model["apis"]:
            return Prediction.unknown("the predictor model holds no measurements (empty KB)")
        if api not in self.model["apis"] and not self._known(api):
            return Prediction.unknown(f"{api} is not an API greenlint's catalog knows: no figure")
        ov = self.overlay
        if ov is not None and ov.local:
            local = self._calibrated_work(api, features)
            if local is not None:
                return local
        if ov is not None and not unknown_size(features):
            # an unknown size stays a floor: the workload's figure is not this call's (the span below, rescaled)
            here = measured_here(ov, api, features, self._reference().predict)
            if here is not None:
                return here
        negligible = self._negligible(api)
        if negligible is not None:
            no_work = self._no_work_bound
            if no_work is not None:  # such a call measured on this machine: its bound is this machine's
                bound, how = no_work
                return replace(negligible, energy_j=bound, interval_j=(0.0, bound),
                               evidence=replace(negligible.evidence, note=f"does no tensor work ({self.hierarchy.kind(api)}): {how}"))
            if ov is not None and ov.time_ratio:  # a bound moves with the machine like any figure
                bound = (negligible.energy_j or 0.0) * ov.time_ratio
                note = f"{negligible.evidence.note}; {TIMES}{ov.time_ratio:.3g}, this machine's execution-time ratio"
                return replace(negligible, energy_j=bound, interval_j=(0.0, bound),
                               evidence=replace(negligible.evidence, note=note))
            return negligible
        if self.hierarchy.kind(api) in FLOP_KINDS:
            own = self._roofline(api, features)
            if own is not None:
                return own
        rescale = 0.0  # log10 of this machine's time ratio, where it rescales the reference figures
        rescaled = False  # by the overlay's time ratio: labelled `calibrated here, rescaled`
        if (ov is not None and api in ov.times and self.model["apis"].get(api, {}).get("time_s")
                and not unknown_size(features)):  # an unknown size: the work-matched ratio below, not this one
            # only time was measurable here: the reference energy x this API's own time ratio
            level, key, mu, sd, entry = lookup(self.model, api, self.hierarchy)
            ratio = ov.times[api] / entry["time_s"]
            rescale = math.log10(ratio)  # also rescales an unknown-size floor (`unknown_size_floor`)
            mu += rescale
            basis = Basis.CALIBRATED_ESTIMATED
            notes.append(
                f"timed on this machine ({ov.hardware_id}, no energy counter): reference energy x{ratio:.3g}, "
                "its execution-time ratio"
            )
        else:
            level, key, mu, sd, entry = lookup(self.model, api, self.hierarchy)
            basis = Basis.FROM_DATA if level == "api" else Basis.PREDICTED
            if level != "api":
                notes.append(f"no measurements of this API; generalised from its {level} ({key})")
            elif entry.get("n_censored") == entry.get("n_sites"):
                basis = Basis.BOUNDED
                notes.append(
                    f"all {entry['n_sites']} measured call sites were below the resolution (each under about "
                    f"{entry.get('bound_j') or 0:.3g} J): an upper bound, not a measurement"
                )
            elif 2 * entry.get("n_censored", 0) > entry.get("n_sites", 0) and entry.get("bound_j"):
                # the typical measured call was below the resolution: its figure is a bound, not the few
                # measurable calls' (a `.numpy()` of a large tensor does not price `.numpy()` of a scalar)
                basis = Basis.BOUNDED
                mu = min(mu, math.log10(entry["bound_j"]))
                notes.append(
                    f"{entry['n_censored']} of {entry['n_sites']} measured call sites were below the resolution "
                    f"(each under about {entry['bound_j']:.3g} J): the typical call is under a bound, and the "
                    f"{entry['n_sites'] - entry['n_censored']} measurable one(s) do not set its figure"
                )
            elif entry.get("n_censored"):
                notes.append(
                    f"{entry['n_censored']} of {entry['n_sites']} measured call sites were below the "
                    "resolution (bounds; the figure rests on the measurable ones)"
                )
            if ov is not None and ov.time_ratio:
                rescale = math.log10(ov.time_ratio)
                mu += rescale
                rescaled = True
                notes.append(self.rescale_note)
        from_work = self.from_work(api, features) if basis is not Basis.CALIBRATED_ESTIMATED else None
        if from_work is not None:
            work_mu, low, high, note = from_work
            notes.append(note)
            if basis is Basis.BOUNDED:
                basis = Basis.FROM_DATA  # the figure rests on the work's time, not on the bounds
            pred = self._finish(api, work_mu + rescale, 0.0, 1.0, 0.0, basis, entry, key, level, notes, rescaled)
            return replace(pred, interval_j=(10 ** (low + rescale), 10 ** (high + rescale)))
        span = self.unknown_size_floor(api, features)
        if span is not None:  # data size, epochs or model FLOPs unknown: the least the code allows, up to a stated most
            mu, low, high, note = span
            notes.append(note)
            basis = Basis.FROM_DATA if basis is Basis.BOUNDED else basis
            pred = self._finish(api, mu + rescale, 0.0, 1.0, 0.0, basis, entry, key, level, notes, rescaled)
            return replace(pred, interval_j=(10 ** (low + rescale), 10 ** (high + rescale)), floor=True)
        if level == "global":
            return Prediction.unknown(
                f"{api} was never measured and no related group (class, module, family, kind) has "
                f"{MIN_GROUP_MEASURED} measured APIs to generalise from: no figure"
            )
        if level != "api" and self.hierarchy.kind(api) in FLOP_KINDS:
            return Prediction.unknown(
                f"{api} was never measured and its FLOPs and tensor sizes are not known from the code: a related "
                f"group's figure ({key}) would be a constant borrowed from other APIs, so no figure"
            )
        if level != "api" and not _WORK_FEATURES & features.keys():
            return Prediction.unknown(
                f"{api} was never measured and its work is not known from the code: a related group's "
                f"figure ({key}) would be a constant borrowed from other APIs, so no figure"
            )
        shift = feature_shift(self.model, entry, features) if level == "api" else 0.0
        if shift:
            mu += shift
            used = [f"{f} {features[f]}" for f in self.model["slopes"] if f in entry["ref_log"] and f in features]
            notes.append(f"x{10**shift:.3g} for its static features ({', '.join(used)}) against this API's measured call sites")
        factor, extra_sd = self._scale(api, level, entry, features, notes)
        ks = self.model["calibration"]["k"]
        group = interval_group(basis, level, entry)
        k = ks.get(group, ks["api" if group in ("bounded", SINGLE) else "global"])
        half = k * math.hypot(sd, extra_sd)
        return self._finish(api, mu, half, factor, shift, basis, entry, key, level, notes, rescaled)

    def _graph_run(self, api: str, features: dict) -> Prediction:
        """A run of a TF1 graph (`Session.run`, `Tensor.eval`): priced from the step the analysis gives it
        (`work.step`: one training step, or one run, of the graph on its batch) by the one work model, a
        floor where the graph's FLOPs are unknown; never from another program's measured runs of the same
        API (their graphs are not this one). Unknown without a step."""
        if features.get("step") in ("training", "inference"):
            point = self.from_work(api, features)
            found = point or self.unknown_size_floor(api, features)
            if found is not None:
                mu, low, high, note = found
                energy = 10**mu
                split = split_energy(energy, self.group_shares(api))
                pred = Prediction(energy, (10**low, 10**high), split["cpu"], split["gpu"], split["ram"],
                                  Basis.PREDICTED, Evidence(api=api, level="work", note=note),
                                  floor=point is None)
                ov = self.overlay
                if ov is not None and ov.time_ratio:  # a work figure moves with the machine like any other
                    pred = replace(pred, energy_j=energy * ov.time_ratio,
                                   interval_j=(10**low * ov.time_ratio, 10**high * ov.time_ratio),
                                   basis=Basis.CALIBRATED_RESCALED,
                                   evidence=replace(pred.evidence, note=f"{note}; {self.rescale_note}"))
                return pred
        return Prediction.unknown("it runs the graph ops it is given: their work sets the cost, and greenlint does "
                                  "not follow the graph")

    def _calibrated_work(self, api: str, features: dict) -> Prediction | None:
        """A call of a time group this machine's calibration fitted a model for (`local_work`): power x
        time from this machine's own constants, its interval from their spread (a floor stays a floor).
        None where no local model covers the call. A call on one batch (an eager model call, `*_on_batch`)
        is its own overhead measured here plus its step (`batch_calls.batch_call_here`); an eager model
        call with no such workload is None (it runs op by op, not as a step of the fitted calls). A
        `tf.function`'s call (`TRACED_CALL`) runs its traced graph: a step like the fitted calls' steps."""
        ov = self.overlay
        if ov is not None and ov.local and "ops" in ov.local and self.hierarchy.kind(api) == "tensor-op":
            return self._calibrated_op(ov, api, features)
        group = time_group(self.hierarchy.kind(api), api, features)
        if ov is None or not ov.local or group is None or group not in ov.local["time"]:
            return None
        local: dict = ov.local
        model = local["time"][group]
        shaped = one_batch(api, features) is not features
        if shaped and api != TRACED_CALL and not features.get("in_tf_function"):
            here = batch_call_here(ov, api, features, group)  # its own overhead measured here + its FLOPs
            if here is not None or api.rpartition(".")[2] == "__call__":
                return here
        half = Z80 * model["sd"]
        runs = features.get("runs_count") or features.get("loop_multiplier")
        shared = ""
        if not shaped and isinstance(runs, int) and runs > 1 and model["trace_s"]:
            # the site runs `runs` times in its loop: the first run traces, the others reuse the function
            local = {**local, "time": {**local["time"], group: {**model, "t0": model["call_s"] + model["trace_s"] / runs}}}
            shared = f", shared by the {runs} runs of its loop"
        floor = False
        found = self.from_work(api, features, local, half)
        if found is None:
            found, floor = self.unknown_size_floor(api, features, local, half), True
        if found is None:
            return None
        mu, low, high, note = found
        if shaped:  # one step of a loop: the first call's tracing is paid once, shared by the site's runs
            share, how = first_run_share(local["power"][group]["steady_w"] * model["trace_s"], features)
            mu, low, high = (math.log10(10**v + share) for v in (mu, low, high))
            note += how
        fitted = [m for ms in ov.measured.values() for m in ms if m.workload in model["workloads"]]
        estimated = all(m.estimated for m in fitted)
        note = (f"this machine's time model ({ov.hardware_id}, fitted by `greenlint calibrate` on "
                f"{', '.join(model['workloads'])}: {model['call_s']:.3g} s per call + {model['per_step']:.3g} s per "
                f"step + {model['per_flop']:.3g} s per FLOP, the first call {model['trace_s']:.3g} s more{shared}; "
                f"{local['power'][group]['steady_w']:.3g} W); {note}")
        energy = 10**mu
        split = split_energy(energy, fitted[0].shares if fitted else {})
        return Prediction(energy, (10**low, 10**high), split["cpu"], split["gpu"], split["ram"],
                          Basis.CALIBRATED_ESTIMATED if estimated else Basis.CALIBRATED,
                          Evidence(records=len(fitted), api=api, level="work", sources=(ov.hardware_id,), note=note),
                          floor=floor)

    def _calibrated_op(self, ov: Overlay, api: str, features: dict) -> Prediction | None:
        """A tensor op of stated FLOPs priced by this machine's op model (`local_ops`): dispatch plus
        FLOPs at the cost fitted here, at the power measured here; None without FLOPs."""
        flops = features.get("flops")
        if isinstance(flops, bool) or not isinstance(flops, (int, float)) or not flops > 0:
            return None
        ops = ov.local["ops"] if ov.local else {}
        seconds = ops["dispatch_s"] + ops["per_flop"] * flops
        energy = ops["steady_w"] * seconds
        lo_f, hi_f = ops["flops"]
        beyond = EXTRAPOLATION_SPREAD * abs(math.log10(min(max(flops, lo_f), hi_f) / flops))
        half = Z80 * ops["sd"] + beyond
        fitted = [m for ms in ov.measured.values() for m in ms if m.workload in ops["workloads"]]
        note = (f"this machine's op model ({ov.hardware_id}, fitted by `greenlint calibrate` on "
                f"{', '.join(ops['workloads'])}: {ops['dispatch_s']:.3g} s dispatch + {ops['per_flop']:.3g} s per "
                f"FLOP at {ops['steady_w']:.3g} W): {flops:.3g} FLOPs → about {seconds:.3g} s → {energy:.3g} J"
                + ("; beyond the FLOPs fitted: the interval widened" if beyond else ""))
        split = split_energy(energy, fitted[0].shares if fitted else {})
        basis = Basis.CALIBRATED_ESTIMATED if all(m.estimated for m in fitted) else Basis.CALIBRATED
        return Prediction(energy, (energy / 10**half, energy * 10**half), split["cpu"], split["gpu"], split["ram"],
                          basis, Evidence(records=len(fitted), api=api, level="work", sources=(ov.hardware_id,),
                                          note=note))

    def _roofline(self, api: str, features: dict) -> Prediction | None:
        """A tensor op's or eager layer call's figure from its own work (`work_energy.roofline`) at the
        steady power of sustained compute (the training group's), rescaled by this machine's calibration; None where its work is unknown."""
        found = roofline(features)
        power = power_for(self.model.get("work") or {}, "training")  # sustained compute's steady power
        if found is None or not power:
            return None
        seconds, how = found
        energy = power["steady_w"] * seconds
        note = (f"from its own work on the reference GPU: {how} → about {seconds:.3g} s {TIMES} "
                f"{power['steady_w']:.3g} W steady = {energy:.3g} J; the interval is the device constants' "
                f"uncertainty ({TIMES}{10**ROOFLINE_HALF:.2g} either way), not a measurement of this API")
        ov = self.overlay
        basis = Basis.PREDICTED
        if ov is not None and ov.time_ratio:
            energy *= ov.time_ratio
            basis = Basis.CALIBRATED_RESCALED
            note += "; " + self.rescale_note
        half = 10**ROOFLINE_HALF
        split = split_energy(energy, self.group_shares(api))
        return Prediction(energy, (energy / half, energy * half), split["cpu"], split["gpu"], split["ram"], basis,
                          Evidence(api=api, level="work", note=note))

    def _negligible(self, api: str) -> Prediction | None:
        """A call that does no tensor work (a no-work kind) whose own measurements do not say otherwise:
        under the bound the KB's below-resolution measurements of such calls establish."""
        table = self.model.get("negligible")
        if not table or self.hierarchy.kind(api) not in NO_WORK_KINDS:
            return None
        own = self.model["apis"].get(api)
        if own is not None and (own["n_censored"] < own["n_sites"] or (own.get("time_s") or 0) > NEGLIGIBLE_MAX_TIME_S):
            return None  # measured above the resolution, or too long to be negligible: its own data decide
        bound = table["bound_j"]
        note = (f"does no tensor work ({self.hierarchy.kind(api)}): {table['n_sites']} measured call sites of "
                f"{table['n_apis']} such APIs (FECoM/Greenlight) were all below the resolution, each under about "
                f"{bound:.3g} J (median bound): an upper bound, not a measurement")
        evidence = Evidence(records=table["records"], api=api if own else None, level="kind",
                            sources=tuple(table["sources"]), note=note)
        return Prediction(bound, (0.0, bound), None, None, None, Basis.NEGLIGIBLE, evidence)

    @functools.cached_property
    def _no_work_bound(self) -> tuple[float, str] | None:
        """(joules, how) of the bound this machine's calibration sets on a call that does no tensor work:
        the highest 80 % end of its no-work workloads' joules per call (a layer's constructor); None
        where it measured none."""
        ov = self.overlay
        if ov is None:
            return None
        found = [m for api, ms in ov.measured.items() if self.hierarchy.kind(api) in NO_WORK_KINDS for m in ms]
        if not found:
            return None
        top = max(found, key=lambda m: m.per_call_j * 10 ** (Z80 * max(m.sd, NOISE_SD)))
        bound = top.per_call_j * 10 ** (Z80 * max(top.sd, NOISE_SD))
        return bound, (f"such calls measured on this machine ({ov.hardware_id}) by `greenlint calibrate`: "
                       f"{top.workload} {top.per_call_j:.3g} J per call; under about {bound:.3g} J (its 80 % high "
                       "end): an upper bound, not a measurement of this call")

    def _finish(self, api, mu, half, factor, shift, basis, entry, key, level, notes, rescaled=False) -> Prediction:
        """The prediction at log10 *mu* +- *half* times *factor*; *rescaled*: by the overlay's time ratio."""
        energy = factor * 10**mu
        lo, hi = factor * 10 ** (mu - half), factor * 10 ** (mu + half)
        if basis is Basis.BOUNDED:
            # the measurements say only "below": an upper bound, no lower end
            lo = 0.0
            if entry.get("bound_max_j"):
                hi = max(min(hi, factor * entry["bound_max_j"]), energy)  # never above what was seen to be below
        split = split_energy(energy, entry.get("shares") or self.group_shares(api))
        evidence = Evidence(
            records=int(entry.get("records", 0)),
            api=key,
            level=level,
            sources=tuple(entry.get("sources", ())),
            note="; ".join(notes) or None,
        )
        return Prediction(
            energy_j=energy,
            interval_j=(lo, hi),
            cpu_j=split["cpu"],
            gpu_j=split["gpu"],
            ram_j=split["ram"],
            basis=Basis.CALIBRATED_RESCALED if rescaled else basis,
            evidence=evidence,
            multiplier=factor * 10**shift,
        )

    def training_run(self, api: str, features: dict) -> Prediction | None:
        """A `fit` of a named architecture (keras.applications) or stated `gflops`, priced by the one
        work model from its FLOPs per sample (the resolver's, else training_runs.py's GAISSA table scaled by
        input size): the same energy definition as any other call. None where no FLOPs are known."""
        if not ({"architecture", "gflops"} & features.keys()) or api.rpartition(".")[2] not in _RUN_METHODS:
            return None
        rest = {k: v for k, v in features.items() if k not in _ARCH_FEATURES}
        if "flops_per_sample" not in rest:
            from greenlint.predict.training_runs import forward_flops

            found = forward_flops(features)
            if found is None:
                return None
            rest["flops_per_sample"], how = found
        else:
            how = "FLOPs per sample as the resolver found them"
        if self.from_work(api, rest) is None and self.unknown_size_floor(api, rest) is None:
            return None
        pred = self.predict(api, rest)
        return replace(pred, evidence=replace(pred.evidence, note="; ".join(n for n in (how, pred.evidence.note) if n)))

    def _known(self, api: str) -> bool:
        """The catalog knows the name, or its kind rules place it (estimators gone from TensorFlow)."""
        cat = self.hierarchy.catalog
        if cat is None:
            return True  # without a catalog nothing can be told apart: generalise as before
        try:
            return cat.symbol(api) is not None or cat.kind(api) != "other"
        except Exception:  # a catalog that cannot answer for one name must not stop predictions
            return True

    def _scale(self, api: str, level: str, entry: dict, features: dict, notes: list[str]) -> tuple[float, float]:
        """The factor for literal features (epochs, steps, tensor size) and its extra log10 sd."""
        factor, extra = 1.0, 0.0
        ref = entry.get("ref", {}) if level == "api" else {}
        epochs = _positive(features.get("epochs"))
        if epochs is not None and self._is_training(api):
            if "epochs" in ref:
                factor *= epochs / ref["epochs"]
                notes.append(f"scaled by epochs {epochs:g} / {ref['epochs']:g} measured")
            else:
                factor *= epochs / ASSUMED_EPOCHS
                extra = math.hypot(extra, ASSUMED_EPOCHS_SD)
                notes.append(
                    f"scaled by epochs {epochs:g} / {ASSUMED_EPOCHS} assumed: the measurements do not record "
                    f"their epochs, so {ASSUMED_EPOCHS} (typical of the measured tutorials) was assumed and "
                    "the interval widened"
                )
        for feat in _STEP_FEATURES:
            steps = _positive(features.get(feat))
            if steps is None or not self._is_training(api):
                continue
            if feat in ref:
                factor *= steps / ref[feat]
                notes.append(f"scaled by {feat} {steps:g} / {ref[feat]:g} measured")
            else:
                notes.append(f"{feat} not scaled: the measurements do not record theirs")
        size = _positive(features.get("tensor_bytes"))
        if size is not None:
            exps = self.model.get("size_exponents", {})
            b = exps.get("per_api", {}).get(api)
            if b is None:
                b = exps.get("per_method", {}).get(api.rpartition(".")[2])
            if b is not None and "args_size" in ref:
                factor *= (size / ref["args_size"]) ** b
                notes.append(f"scaled by input size ({size:g} / {ref['args_size']:g} bytes)^{b:.2f} (data-size sweeps)")
            else:
                notes.append("input size not scaled: no data-size sweep or reference size for this API")
        return factor, extra

    def _is_training(self, api: str) -> bool:
        if api.rpartition(".")[2] in _EPOCH_METHODS:
            return True
        return self.hierarchy.kind(api) in _EPOCH_KINDS


def symbolic_note(features: dict) -> str:
    """Where the work of a call that only builds a graph is counted (docs/calls-json.md `symbolic`)."""
    if features.get("graph_mode"):
        return "builds a TF1 graph node: 0 J here; its work is counted where Session.run runs the graph"
    if features.get("in_keras_step"):
        return ("inside a Keras model's call or train_step: 0 J here; its work is counted where the model runs "
                "(fit, predict, a call on data), in the model's FLOPs per sample")
    if features.get("in_tf_function"):
        return ("traced into a tf.function's graph: 0 J here; its work is counted at the model call the "
                "function runs, each time the function is called")
    return ("called on Keras symbolic tensors (functional API): 0 J here; its work is counted in the model's "
            "FLOPs per sample where the model runs (fit, predict, a call on data)")


def _application(api: str) -> str | None:
    """`MobileNetV2` for `tensorflow.keras.applications.MobileNetV2.predict`, else None."""
    prefix = "tensorflow.keras.applications."
    if not api.startswith(prefix):
        return None
    cls = api[len(prefix):].rpartition(".")[0].rpartition(".")[2]
    return cls if cls[:1].isupper() else None


def _positive(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or math.isinf(value):
        return None
    return float(value)
