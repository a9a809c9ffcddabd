"""The shipped predictor: joules for one call site from the JSON model (and this machine's overlay).

`Predictor.predict` tries the paths in one order, each in its own module, the first that prices
the call wins: the graph the call is in (`graphs`), a named model's training run (`training_run`),
this machine's own time model (`calibrated`), an API measured here (`calibration.measured_here`),
no tensor work (`negligible`), an op's own FLOPs (`own_work`), and the per-API lookup, or the call's
work where it is known (`lookup_figure`), plus the bytes of a model's weights a save or load moves
(`weights_io`). What they all read is the `Context`.

Lookups are dictionary reads plus a little arithmetic: no numpy, no TensorFlow.
"""

from __future__ import annotations

from dataclasses import replace

from greenlint.predict.calibrated import calibrated_graph_run, calibrated_work
from greenlint.predict.calibration import measured_here, on_this_machine
from greenlint.predict.context import Context
from greenlint.predict.graphs import in_graph
from greenlint.predict.held import held_draw
from greenlint.predict.host_work import HOST, host_work
from greenlint.predict.least_flops import flops_floor
from greenlint.predict.least_steps import steps_floor
from greenlint.predict.lookup_figure import lookup_figure
from greenlint.predict.negligible import no_work
from greenlint.predict.own_work import own_work, unsized_work
from greenlint.predict.prediction import Prediction
from greenlint.predict.startup import program_startup
from greenlint.predict.training_runs import named_work, with_architecture
from greenlint.predict.weights_io import moves_weights, weights_io
from greenlint.predict.work_energy import FLOP_KINDS, unknown_size

#: Methods whose whole runs of a named architecture are priced from its FLOPs (`training_run`).
_RUN_METHODS = {"fit", "fit_generator"}


class Predictor(Context):
    """`predict(api, features) -> Prediction`, per execution of the call (loops not folded in)."""

    _plain: Predictor | None = None

    def predict(self, api: str, features: dict | None = None) -> Prediction:
        features = features or {}
        pred = steps_floor(self._predict(api, features), features, lambda most: self._predict(api, most))
        pred = flops_floor(pred, features, lambda unknown: self._predict(api, unknown))
        ov = self.overlay
        return on_this_machine(ov, pred) if ov is not None else pred

    def startup(self) -> Prediction | None:
        """What the program pays once before its calls (`predict/startup.py`): this machine's where its
        calibration measured it, else the reference machine's."""
        return program_startup(self.model, self.overlay.startup if self.overlay is not None else None)

    def held(self, sites: int) -> Prediction | None:
        """What a program of *sites* call sites draws beyond its calls' figures (`predict/held.py`),
        the reference machine's."""
        return held_draw(self.model, sites)

    def _reference(self) -> Predictor:
        """This predictor without the overlay: the reference machine's figures."""
        if self._plain is None:
            self._plain = Predictor(self.model, model_bytes=b"", hierarchy=self.hierarchy)
        return self._plain

    def _predict(self, api: str, features: dict) -> Prediction:
        if features.get("receiver") == HOST:  # the program's own function, working item by item on the host
            return host_work(self.model, features)
        features = with_architecture(features)
        notes: list[str] = []
        pooled = self.hierarchy.pooled(api)
        if pooled != api:
            app = _application(api)
            if app and "architecture" not in features:
                features = {**features, "architecture": app}
            notes.append(f"as {pooled}: the work, not the model class, sets the cost")
            api = pooled
        graph = in_graph(self, api, features, lambda f: calibrated_graph_run(self, api, f))
        if graph is not None:
            return graph
        run = self.training_run(api, features)
        if run is not None:
            return run
        if not self.model["apis"]:
            return Prediction.unknown("the predictor model holds no measurements (empty KB)")
        if api not in self.model["apis"] and not self._known(api):
            return Prediction.unknown(f"{api} is not an API greenlint's catalog knows: no figure")
        ov = self.overlay
        if ov is not None and ov.local:
            local = calibrated_work(self, api, features)
            if local is not None:
                return local
        if ov is not None and not unknown_size(features):
            # an unknown size stays a floor: the workload's figure is not this call's (the span below, rescaled)
            here = measured_here(ov, api, features, self._reference().predict)
            if here is not None:
                return here
        negligible = no_work(self, api)
        if negligible is not None:
            return negligible
        if self.hierarchy.kind(api) in FLOP_KINDS:
            own = own_work(self, api, features)
            if own is not None:
                return own
            return unsized_work(self, api, features, lookup_figure(self, api, features, notes))
        if not moves_weights(self, api):
            return lookup_figure(self, api, features, notes)
        plain = {k: v for k, v in features.items() if k != "params"}  # bytes to add, not work to borrow by
        return weights_io(self, api, features, lookup_figure(self, api, plain, notes))

    def training_run(self, api: str, features: dict) -> Prediction | None:
        """A `fit` of a named architecture (keras.applications) or stated `gflops`, priced from its FLOPs
        per sample (the resolver's, else training_runs.py's GAISSA table scaled by input size) and, for
        an architecture of that table, its layers (their roofline on the reference GPU or the told one,
        devices.py): the same energy definition as any other call. None where no FLOPs are known."""
        if not ({"architecture", "gflops"} & features.keys()) or api.rpartition(".")[2] not in _RUN_METHODS:
            return None
        found = named_work(features)
        if found is None:
            return None
        rest, how = found
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


def _application(api: str) -> str | None:
    """`MobileNetV2` for `tensorflow.keras.applications.MobileNetV2.predict`, else None."""
    prefix = "tensorflow.keras.applications."
    if not api.startswith(prefix):
        return None
    cls = api[len(prefix):].rpartition(".")[0].rpartition(".")[2]
    return cls if cls[:1].isupper() else None
