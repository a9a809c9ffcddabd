"""Constructed KB records for predictor tests (the real KB is exercised by the evaluation)."""

from __future__ import annotations

import pytest

from greenlint.kb.record import KBRecord


def record(api, joules, *, script="tut", experiment=1, index=0, below=False, bound=5.0, dataset="fecom-method-level",
           line=None, features=None, args_size=None, time_s=1.0, shares=(0.5, 0.4, 0.1)):
    """One record with net `joules` split cpu/gpu/ram by `shares`; `below` makes it censored."""
    cpu, gpu, ram = (joules * s for s in shares)
    return KBRecord(
        api=api, raw_signature=api + "()", fecom_name=api, dataset=dataset, project=script, script=script,
        experiment=experiment, index=index, line=line, hardware_id="ref-machine", execution_time_s=time_s,
        cpu_gross_j=cpu + 1, cpu_net_j=cpu, ram_gross_j=ram + 1, ram_net_j=ram, gpu_gross_j=gpu + 1, gpu_net_j=gpu,
        noise_j=0.1, below_resolution=below, upper_bound_j=bound, series_cut_short=False, window_samples=4,
        args_size=args_size, kwargs_size=None, object_size=None, features=features or {},
    )


class FakeSymbol:
    def __init__(self, kind, bases=()):
        self.kind = kind
        self.bases = list(bases)


class FakeCatalog:
    """A tiny catalog: Sequential and Functional derive from Model; layers and ops by family/kind."""

    SYMBOLS = {
        "tf.keras.Model": FakeSymbol("class"),
        "tf.keras.Sequential": FakeSymbol("class", ["tf.keras.Model"]),
        "tf.keras.Functional": FakeSymbol("class", ["tf.keras.Model"]),
        "tf.keras.Sequential.fit": FakeSymbol("method"),
        "tf.keras.Functional.fit": FakeSymbol("method"),
        "tf.keras.Sequential.evaluate": FakeSymbol("method"),
        "tf.keras.Functional.save": FakeSymbol("method"),
    }

    def symbol(self, api):
        return self.SYMBOLS.get(api)

    def family(self, api):
        if api.startswith(("tf.keras.layers", "tf.experimental")):
            return api.rsplit(".", 1)[0]
        return "tf.ops" if api.startswith("tf.") else None

    def kind(self, api):
        if api.endswith(".fit"):
            return "model-training"
        if api.startswith("tf.keras.layers"):
            return "layer-constructor"
        if api.startswith("tf.keras.optimizers"):
            return "negligible"  # constructors: no tensor work
        return "tensor-op" if api.startswith("tf.") else None


@pytest.fixture
def catalog():
    return FakeCatalog()
